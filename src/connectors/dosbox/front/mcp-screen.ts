/** Tool group `dos`, part 3: the screen from video memory — text, mode-13h frames, PNG capture, frame watching. */
import { sleep } from '../../../core/async.js';
import * as z from 'zod/v4';
import { createHash } from 'node:crypto';
import { unsupported } from '../../../core/errors.js';
import { indicesToRgba } from '../../../machines/dos/palette.js';
import { countDifferences } from '../../../machines/dos/video.js';
import { encodePng } from '../../../core/png.js';
import { encodePngOffThread } from '../../../core/png-off-thread.js';
import { sessionIdInput } from '../../../mcp/schemas.js';
import { READ_ONLY, defineTool, type ToolContext, type ToolDef } from '../../../mcp/tool-kit.js';
import { captureWindow, type WindowCapture } from '../window-capture.js';
import { loadFile, outputPathInput, overwriteInput, saveFile, useDos } from './mcp-common.js';

/** Captures read the guest; the files they write never overwrite without overwrite:true. */
const CAPTURE = { readOnly: true, destructive: false, idempotent: false, openWorld: false };

const readScreen = defineTool({
  name: 'dosbox_read_screen',
  title: 'Read the text screen',
  description: 'The text screen decoded from VGA memory (CP437 → Unicode), with the cursor and video mode.',
  input: { session_id: sessionIdInput },
  output: {
    lines: z.array(z.string()),
    columns: z.number().int(),
    rows: z.number().int(),
    cursor: z.object({ row: z.number().int(), col: z.number().int() }),
    mode: z.number().int(),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, machine } = useDos(ctx, args.session_id);
    const t = await (await machine.screen()).text();
    return {
      session,
      data: { lines: t.lines, columns: t.columns, rows: t.rows, cursor: t.cursor, mode: t.mode },
      summary: t.lines.join('\n').trimEnd(),
    };
  },
});

const frameOut = {
  mode: z.number().int(),
  mode_name: z.string(),
  layout: z.enum(['chain-4', 'unchained', 'planar', 'cga', 'text']),
  page_offset: z.number().int(),
  start_address: z.number().int().describe('VGA address the picture starts at (CRTC start address; text: the page)'),
  font_source: z.string().optional(),
  confirmed: z.boolean(),
  cached: z.boolean(),
  pages: z.array(z.number().int()),
  width: z.number().int(),
  height: z.number().int(),
  sha256: z.string(),
  indices_path: z.string().optional(),
  png_path: z.string().optional(),
  reference_path: z.string().optional(),
  differing_pixels: z.number().int().optional(),
  palette_source: z.string().optional(),
};

async function readFrame(
  ctx: ToolContext,
  args: { session_id?: string; reference?: string; allow_unconfirmed: boolean; stem?: string; overwrite: boolean },
) {
  const { session, machine } = useDos(ctx, args.session_id);
  const ref = args.reference ? await loadFile(ctx, args.reference) : undefined;
  const f = await (await machine.screen()).frame({ reference: ref?.data, allowUnconfirmed: args.allow_unconfirmed });
  let indicesPath: string | undefined;
  let pngPath: string | undefined;
  let paletteSource: string | undefined;
  if (args.stem) {
    indicesPath = await saveFile(ctx, `${args.stem}.bin`, f.indices, args.overwrite);
    const pal = await machine.framePalette(f).catch(() => undefined);
    if (pal) {
      pngPath = await saveFile(
        ctx,
        `${args.stem}.png`,
        encodePng({
          width: f.width,
          height: f.height,
          rgba: indicesToRgba(f.indices, pal.palette),
          maybeStale: false,
        }),
        args.overwrite,
      );
      paletteSource = pal.source;
    }
  }
  return {
    session,
    frame: f,
    data: {
      mode: f.mode,
      mode_name: f.mode_name,
      layout: f.layout,
      page_offset: f.page_offset,
      start_address: f.start_address,
      font_source: f.font_source,
      confirmed: f.confirmed,
      cached: f.cached,
      pages: f.pages,
      width: f.width,
      height: f.height,
      sha256: createHash('sha256').update(f.indices).digest('hex'),
      indices_path: indicesPath,
      png_path: pngPath,
      reference_path: ref?.path,
      differing_pixels: ref ? countDifferences(f.indices, ref.data) : undefined,
      palette_source: paletteSource,
    },
    summary: `${f.mode_name} (${f.layout}), start ${f.start_address}, page_offset ${f.page_offset}, confirmed ${f.confirmed}${f.cached ? ' (cached page)' : ''}${f.confirmed ? '' : ' — UNCONFIRMED blind read: check it yourself'}${f.pages.length ? `, pages [${f.pages.join(', ')}]` : ''}`,
  };
}

const readFramebuffer = defineTool({
  name: 'dosbox_read_framebuffer',
  title: 'Read the frame from video memory',
  description:
    'The pixel values the guest wrote, one byte a pixel, decoded from video memory in the current mode: text (cells through the active font, 8 pixels a glyph, attribute colours 0-15), CGA 04h-06h (0-3 / 0-1), EGA/VGA planar 0Dh/0Eh/10h/12h (0-15), 13h chain-4 or unchained Mode X (0-255). ' +
    'Needs a reference the first time: a width*height-byte file of what is on screen now; the start address (CRTC start, chain-4 page) and the 256-colour layout are found by matching it byte for byte, then cached for the mode. ' +
    'allow_unconfirmed returns a blind start-0 read, marked unconfirmed. stem saves <stem>.bin (values) and <stem>.png (when a palette is known).',
  input: {
    session_id: sessionIdInput,
    reference: z.string().optional(),
    allow_unconfirmed: z.boolean().default(false),
    stem: outputPathInput.optional(),
    overwrite: overwriteInput,
  },
  output: frameOut,
  annotations: CAPTURE,
  async run(args, ctx) {
    const { session, data, summary } = await readFrame(ctx, args);
    return { session, data, summary };
  },
});

const capture = defineTool({
  name: 'dosbox_capture_screen',
  title: 'Capture the screen as PNG',
  description:
    'A PNG of the screen. source "vram" (default, preferred: exact, cheap, never half-drawn) decodes video memory in any decoded mode; ' +
    '"emulator" uses the embedded emulator\'s own renderer (wasm); "window" photographs a native DOSBox\'s window on its private Xvfb display (isolation "xvfb" only; never a desktop window), ' +
    "reduced to the mode's pixels when the window is an exact integer multiple and enlarged by the integer scale asked for (without scale: the window as is), " +
    'with the pixels that differ from the VRAM decode, the capture time and the guest ticks it spanned (the capture costs the guest real time: see docs/dos.md). ' +
    'Relative paths resolve under the output folder; atomic; no overwrite unless overwrite.',
  input: {
    session_id: sessionIdInput,
    path: outputPathInput.optional(),
    source: z.enum(['vram', 'emulator', 'window']).default('vram'),
    scale: z.number().int().min(1).max(8).optional().describe("window: integer scale of the mode's pixels"),
    overwrite: overwriteInput,
  },
  output: {
    width: z.number().int(),
    height: z.number().int(),
    png_bytes: z.number().int(),
    path: z.string().optional(),
    source: z.string(),
    window: z.object({ id: z.string(), width: z.number().int(), height: z.number().int() }).optional(),
    emulator_scale: z.array(z.number().int()).optional(),
    capture_ms: z.number().optional(),
    guest_ticks: z.number().int().optional(),
    vram_differing_pixels: z.number().int().optional(),
  },
  annotations: CAPTURE,
  async run(args, ctx) {
    const { session, machine } = useDos(ctx, args.session_id);
    let image;
    let facts: Omit<WindowCapture, 'image'> | undefined;
    if (args.source === 'window') {
      const { image: shot, ...rest } = await captureWindow(machine, args.scale);
      image = { ...shot, maybeStale: false };
      facts = rest;
    } else if (args.source === 'emulator') {
      if (!machine.backend.emulatorScreenshot)
        throw unsupported(
          'source "emulator" needs the wasm backend; for a native DOSBox use "vram", or "window" when it runs on its private display (isolation "xvfb").',
        );
      image = { ...(await machine.backend.emulatorScreenshot()), maybeStale: false };
    } else image = await session.screenshot();
    const png = await encodePngOffThread(image);
    const path = args.path ? await saveFile(ctx, args.path, png, args.overwrite) : undefined;
    return {
      session,
      data: { width: image.width, height: image.height, png_bytes: png.length, path, source: args.source, ...facts },
      image: { data: png.toString('base64'), mimeType: 'image/png' },
      summary: `${image.width}x${image.height}${path ? ' saved to ' + path : ''}${facts ? `; window ${facts.window.width}x${facts.window.height}, ${facts.capture_ms} ms${facts.vram_differing_pixels !== undefined ? `, ${facts.vram_differing_pixels} pixels differ from VRAM` : ''}` : ''}`,
    };
  },
});

const watchFrames = defineTool({
  name: 'dosbox_watch_frames',
  title: 'Watch frames',
  description:
    'Read the confirmed frame (any decoded mode) every interval_ms for duration_ms (needs a confirmed page, see dosbox_read_framebuffer); reports each distinct frame (hash, time, pixels changed) and, with stem, saves each as <stem>-N.bin.',
  input: {
    session_id: sessionIdInput,
    interval_ms: z.number().int().min(10).max(5000).default(100),
    duration_ms: z.number().int().min(10).max(60_000).default(1000),
    max_frames: z.number().int().min(1).max(100).default(20),
    stem: outputPathInput.optional(),
    overwrite: overwriteInput,
  },
  output: {
    frames: z.array(
      z.object({ t_ms: z.number(), sha256: z.string(), changed_pixels: z.number().int(), path: z.string().optional() }),
    ),
    reads: z.number().int(),
  },
  annotations: CAPTURE,
  async run(args, ctx) {
    const { session, machine } = useDos(ctx, args.session_id);
    const screen = await machine.screen();
    const frames: { t_ms: number; sha256: string; changed_pixels: number; path?: string }[] = [];
    let last: Uint8Array | undefined;
    let reads = 0;
    const t0 = Date.now();
    while (Date.now() - t0 < args.duration_ms && frames.length < args.max_frames) {
      const f = await screen.frame();
      reads++;
      if (!last || countDifferences(last, f.indices)) {
        const path = args.stem
          ? await saveFile(ctx, `${args.stem}-${frames.length}.bin`, f.indices, args.overwrite)
          : undefined;
        frames.push({
          t_ms: Date.now() - t0,
          sha256: createHash('sha256').update(f.indices).digest('hex'),
          changed_pixels: last ? countDifferences(last, f.indices) : f.indices.length,
          path,
        });
        last = f.indices;
      }
      await sleep(args.interval_ms);
    }
    return { session, data: { frames, reads }, summary: `${frames.length} distinct frames in ${reads} reads` };
  },
});

export const dosScreenTools: ToolDef[] = [readScreen, readFramebuffer, capture, watchFrames];
