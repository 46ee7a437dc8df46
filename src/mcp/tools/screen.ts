/** Tool groups `screen` (the display as a PNG, typing keys) and `screen_watch` (the frames that changed). */
import * as z from 'zod/v4';
import { encodeIndexedPngOffThread, encodePngOffThread } from '../../core/png-off-thread.js';
import { frameToImage } from '../../core/frames.js';
import type { ScreenFrame } from '../../core/target.js';
import { writeOutputToolFile } from '../tool-files.js';
import { parseKeyText } from '../../core/keys.js';
import { tooLarge } from '../../core/errors.js';
import { generationInput, sessionIdInput } from '../schemas.js';
import { defineTool, type ToolDef } from '../tool-kit.js';

/** watch_screen's bound on frames a call (each is an image in the reply) */
const MAX_WATCH_FRAMES = 8;

const screenshot = defineTool({
  name: 'screenshot',
  title: 'Screenshot',
  // VICE while running: the summary says when a frame within the refresh period is given again (tools/list budget)
  description: 'The screen as PNG (maybe_stale: the CPU is stopped); output_path also saves it.',
  input: {
    session_id: sessionIdInput,
    output_path: z.string().min(1).max(500).optional().describe('PNG file, relative to the output folder'),
    overwrite: z.boolean().default(false).describe('replace an existing file'),
  },
  output: {
    width: z.number().int(),
    height: z.number().int(),
    frame: z.number().int().optional(),
    maybe_stale: z.boolean(),
    png_bytes: z.number().int(),
    path: z.string().optional(),
  },
  // reads the machine; a file it writes never overwrites without overwrite:true
  annotations: { readOnly: true, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    const image = await session.screenshot();
    const png = await encodePngOffThread(image); // off the emulator's thread
    const path = args.output_path ? await writeOutputToolFile(ctx, args.output_path, png, args.overwrite) : undefined;
    return {
      session,
      data: {
        width: image.width,
        height: image.height,
        frame: image.frame,
        maybe_stale: image.maybeStale,
        png_bytes: png.length,
        path,
      },
      image: { data: png.toString('base64'), mimeType: 'image/png' },
      summary: `${image.width}x${image.height} screen${path ? `, saved to ${path}` : ''}${image.maybeStale ? ' (may be stale: CPU stopped)' : ''}${image.ageMs !== undefined ? ` (taken ${image.ageMs} ms ago: within the refresh period)` : ''}`,
    };
  },
});

/** Enough for a command line or a short answer; longer input is a program's job, not a keyboard's. */
export const MAX_KEYS = 255;

const typeKeys = defineTool({
  name: 'type_keys',
  title: 'Type keys',
  description:
    'Type on the keyboard: text, and keys in braces: "RUN{RETURN}", "{F1}", "{SHIFT+A}", "{UP}"; "{{" is "{".',
  input: {
    session_id: sessionIdInput,
    text: z
      .string()
      .min(1)
      .max(4 * MAX_KEYS)
      .describe('C64 letters are its plain keys'),
    generation: generationInput,
  },
  output: {
    typed: z.number().int(),
    pending: z.boolean().describe('queued until the machine runs'),
    note: z.string().optional(),
  },
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const me = ctx.connection.use(args.session_id);
    const strokes = parseKeyText(args.text);
    if (strokes.length > MAX_KEYS)
      throw tooLarge(`At most ${MAX_KEYS} keys per call; ${strokes.length} were given.`, { limit: MAX_KEYS });
    const r = await me.typeKeys(strokes, { generation: args.generation });
    return {
      session: me.session,
      data: r,
      summary: `Typed ${r.typed} key(s)${r.pending ? ' (queued until the machine runs)' : ''}.${r.note ? ' ' + r.note : ''}`,
    };
  },
});

/** A frame as PNG, on the encoder thread: indexed when it has a palette (small, and no RGBA conversion), else from its RGBA. */
export function framePng(frame: ScreenFrame): Promise<Buffer> {
  if (frame.pixels && frame.palette)
    return encodeIndexedPngOffThread({ width: frame.width, height: frame.height, pixels: frame.pixels }, frame.palette);
  return encodePngOffThread(frameToImage(frame));
}

const watchScreen = defineTool({
  name: 'watch_screen',
  title: 'Watch the screen',
  description:
    'Frames that changed after since_frame, as PNGs (kept ones, else those arriving within wait_ms). ' +
    'Pass last_frame back as since_frame. source.cost says what a frame costs the machine.',
  input: {
    session_id: sessionIdInput,
    since_frame: z.number().int().min(0).default(0).describe('0: the oldest kept'),
    max_frames: z.number().int().min(1).max(MAX_WATCH_FRAMES).default(4).describe('frames at most'),
    wait_ms: z.number().int().min(0).max(10_000).default(1000).describe('wait this long for new frames'),
  },
  output: {
    frames: z.array(z.object({ frame: z.number().int(), width: z.number().int(), maybe_stale: z.boolean() })),
    last_frame: z.number().int(),
    source: z.object({
      mode: z.string(),
      max_fps: z.number(),
      cost: z.string(),
      refresh_fps: z.number().optional().describe('VICE: frames/s while running (0: at stops)'),
    }),
  },
  annotations: { readOnly: true, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    const source = session.frameSource();
    const frames = await session.screenFrames(args.since_frame, args.max_frames, args.wait_ms);
    const pngs = await Promise.all(frames.map(framePng));
    const last = frames.at(-1)?.frame ?? args.since_frame;
    return {
      session,
      data: {
        frames: frames.map((f) => ({
          frame: f.frame,
          width: f.width,
          maybe_stale: f.maybeStale,
        })),
        last_frame: last,
        source: { mode: source.mode, max_fps: source.maxFps, cost: source.cost, refresh_fps: source.refreshFps },
      },
      images: pngs.map((png) => ({ data: png.toString('base64'), mimeType: 'image/png' })),
      summary: frames.length
        ? `${frames.length} changed frame(s) after ${args.since_frame}, up to frame ${last}`
        : `no frame changed after ${args.since_frame} within ${args.wait_ms} ms${source.refreshFps === 0 ? ' (refresh off: frames come at stops only)' : ''}`,
    };
  },
});

export const screenTools: ToolDef[] = [screenshot, typeKeys];
export const screenWatchTools: ToolDef[] = [watchScreen];
