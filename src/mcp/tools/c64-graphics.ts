/**
 * C64 graphics decoders (group c64_static): bitmap, multicolor bitmap,
 * character set, text screen and sprites, each from byte sources, to an
 * indexed PNG in the Pepto PAL palette or a caller's. Read-only.
 */
import { access } from 'node:fs/promises';
import * as z from 'zod/v4';
import { fileExists, badRequest } from '../../core/errors.js';
import { encodeIndexedPng, parsePalette } from '../../core/indexed-png.js';
import { PEPTO_PAL } from '../../machines/c64/pepto-palette.js';
import {
  GRAPHICS_CAPS,
  checkCells,
  decodeCharScreen,
  decodeCharset,
  decodeHiresBitmap,
  decodeMulticolorBitmap,
  decodeSprites,
  glyphsNeeded,
  spriteBytesNeeded,
  type IndexedImage,
} from '../../machines/c64/vic-graphics.js';
import { resolveOutputPath } from '../../core/files.js';
import { writeOutputToolFile } from '../tool-files.js';
import { sessionIdInput } from '../schemas.js';
import { defineTool, type ToolContext, type ToolDef } from '../tool-kit.js';
import {
  byteSourceInput,
  extraInlineBytes,
  nonAtomicInput,
  planSources,
  requireBytes,
  type ByteSourceInput,
  type SourcePlan,
} from './c64-source.js';

const colour = (what: string, dflt: number) => z.number().int().min(0).max(15).default(dflt).describe(what);

const common = {
  session_id: sessionIdInput,
  palette: z
    .array(z.union([z.string(), z.array(z.number())]))
    .max(256)
    .optional()
    .describe('"#rrggbb" or [r,g,b]; default Pepto PAL'),
  output_path: z.string().min(1).max(500).optional().describe('save the PNG (relative to the output folder)'),
  overwrite: z.boolean().default(false),
  allow_non_atomic_reads: nonAtomicInput,
};
const geometry = {
  columns: z.number().int().min(1).max(GRAPHICS_CAPS.columns).default(40),
  rows: z.number().int().min(1).max(GRAPHICS_CAPS.rows).default(25),
};
const output = {
  width: z.number().int(),
  height: z.number().int(),
  png_bytes: z.number().int(),
  palette: z.enum(['pepto_pal', 'caller']),
  palette_size: z.number().int(),
  used_indices: z.array(z.number().int()),
  unmapped_indices: z.array(z.number().int()).describe('past the palette: drawn black'),
  bytes_read: z.record(z.string(), z.number().int()),
  extra_inline_bytes: z.record(z.string(), z.number().int()),
  warnings: z.array(z.string()),
  path: z.string().optional(),
};
const READ_ONLY_RENDER = { readOnly: true, destructive: false, idempotent: true, openWorld: false };

interface CommonArgs {
  session_id?: string;
  palette?: unknown[];
  output_path?: string;
  overwrite: boolean;
  allow_non_atomic_reads: boolean;
}

/** Everything that can be refused without reading: palette, output path, sources. */
async function prepare(ctx: ToolContext, args: CommonArgs, inputs: Record<string, ByteSourceInput | undefined>) {
  const palette = args.palette ? parsePalette(args.palette) : undefined;
  if (args.output_path && !args.overwrite) {
    const full = resolveOutputPath(ctx.outputDir, args.output_path);
    if (
      await access(full).then(
        () => true,
        () => false,
      )
    ) {
      throw fileExists(`${full} already exists; pass overwrite: true to replace it.`, {
        path: full,
      });
    }
  }
  const plan = await planSources(ctx, inputs, {
    sessionId: args.session_id,
    allowNonAtomic: args.allow_non_atomic_reads,
  });
  return { palette, plan };
}

async function readAll(plan: SourcePlan, needs: Record<string, number>): Promise<Record<string, Uint8Array>> {
  for (const [name, n] of Object.entries(needs)) requireBytes(plan.sources[name], n);
  const out: Record<string, Uint8Array> = {};
  for (const [name, n] of Object.entries(needs)) out[name] = await plan.sources[name].read(n);
  return out;
}

async function reply(
  ctx: ToolContext,
  args: CommonArgs,
  prepared: Awaited<ReturnType<typeof prepare>>,
  img: IndexedImage,
  used: Record<string, number>,
  what: string,
) {
  const { palette, plan } = prepared;
  const encoded = encodeIndexedPng(img, palette ?? PEPTO_PAL);
  const path = args.output_path
    ? await writeOutputToolFile(ctx, args.output_path, encoded.png, args.overwrite)
    : undefined;
  const extra = extraInlineBytes(plan, used);
  const notes = [
    encoded.unmapped_indices.length
      ? `indices ${encoded.unmapped_indices.join(', ')} are past the palette (drawn black)`
      : '',
    Object.keys(extra).length
      ? `ignored extra inline bytes: ${Object.entries(extra)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`
      : '',
    ...plan.warnings,
  ].filter(Boolean);
  return {
    session: plan.session,
    data: {
      width: img.width,
      height: img.height,
      png_bytes: encoded.png.length,
      palette: palette ? ('caller' as const) : ('pepto_pal' as const),
      palette_size: encoded.plte_entries,
      used_indices: encoded.used_indices,
      unmapped_indices: encoded.unmapped_indices,
      bytes_read: used,
      extra_inline_bytes: extra,
      warnings: plan.warnings,
      path,
    },
    image: { data: encoded.png.toString('base64'), mimeType: 'image/png' },
    summary: `${what}: ${img.width}x${img.height} indexed PNG${path ? `, saved to ${path}` : ''}${notes.length ? ` (${notes.join('; ')})` : ''}`,
  };
}

const hiresBitmap = defineTool({
  name: 'decode_c64_hires_bitmap',
  title: 'Decode C64 hires bitmap',
  description:
    "Hires bitmap (8 bytes per cell, VIC layout) + screen RAM to an indexed PNG: a set bit uses the screen byte's high nybble, a clear bit its low nybble.",
  input: { bitmap: byteSourceInput, screen: byteSourceInput, ...geometry, ...common },
  output,
  annotations: READ_ONLY_RENDER,
  async run(args, ctx) {
    const cells = checkCells(args);
    const prepared = await prepare(ctx, args, { bitmap: args.bitmap, screen: args.screen });
    const used = { bitmap: cells * 8, screen: cells };
    const b = await readAll(prepared.plan, used);
    return reply(ctx, args, prepared, decodeHiresBitmap(args, b.bitmap, b.screen), used, 'hires bitmap');
  },
});

const multicolorBitmap = defineTool({
  name: 'decode_c64_multicolor_bitmap',
  title: 'Decode C64 multicolor bitmap',
  description:
    'Multicolor bitmap to an indexed PNG (pixels two wide, as on screen). Bit pairs: 00 background, 01 screen high nybble, 10 screen low nybble, 11 colour-RAM low nybble.',
  input: {
    bitmap: byteSourceInput,
    screen: byteSourceInput,
    color: byteSourceInput,
    ...geometry,
    background: colour('$D021', 0),
    ...common,
  },
  output,
  annotations: READ_ONLY_RENDER,
  async run(args, ctx) {
    const cells = checkCells(args);
    const prepared = await prepare(ctx, args, { bitmap: args.bitmap, screen: args.screen, color: args.color });
    const used = { bitmap: cells * 8, screen: cells, color: cells };
    const b = await readAll(prepared.plan, used);
    return reply(
      ctx,
      args,
      prepared,
      decodeMulticolorBitmap(args, b.bitmap, b.screen, b.color),
      used,
      'multicolor bitmap',
    );
  },
});

const charColours = {
  background: colour('$D021', 0),
  foreground: colour('glyph/sprite colour', 1),
  multicolor1: colour('$D022 (sprites $D025)', 2),
  multicolor2: colour('$D023 (sprites $D026)', 3),
};

/** Glyph and sprite sheets: how many (zod bounds them before anything is read), how wide, which mode, colours. */
const sheetInputs = (cap: number, count: number, columns: number) => ({
  count: z.number().int().min(1).max(cap).default(count),
  sheet_columns: z.number().int().min(1).max(GRAPHICS_CAPS.sheetColumns).default(columns),
  multicolor: z.boolean().default(false),
  ...charColours,
  ...common,
});

const charset = defineTool({
  name: 'decode_c64_charset',
  title: 'Decode C64 character set',
  description: `A character set (8 bytes per glyph) as a sheet sheet_columns glyphs wide, hires or multicolor (00 background, 01 multicolor1, 10 multicolor2, 11 foreground). At most ${GRAPHICS_CAPS.glyphs} glyphs.`,
  input: {
    charset: byteSourceInput,
    ...sheetInputs(GRAPHICS_CAPS.glyphs, 256, 16),
  },
  output,
  annotations: READ_ONLY_RENDER,
  async run(args, ctx) {
    const prepared = await prepare(ctx, args, { charset: args.charset });
    const used = { charset: args.count * 8 };
    const b = await readAll(prepared.plan, used);
    return reply(
      ctx,
      args,
      prepared,
      decodeCharset(
        { ...args, sheetColumns: args.sheet_columns, multicolor1: args.multicolor1, multicolor2: args.multicolor2 },
        b.charset,
      ),
      used,
      `${args.count} glyphs`,
    );
  },
});

const charScreen = defineTool({
  name: 'decode_c64_char_screen',
  title: 'Decode C64 text screen',
  description:
    'Text mode from screen codes + charset (+ colour RAM) to an indexed PNG. Only glyphs up to the highest screen code present are needed. ' +
    'multicolor=true needs color: colour-RAM bit 3 makes a cell multicolor (01 multicolor1, 10 multicolor2, 11 colour bits 0-2). Without color, cells use foreground.',
  input: {
    screen: byteSourceInput,
    charset: byteSourceInput,
    color: byteSourceInput.optional(),
    ...geometry,
    multicolor: z.boolean().default(false),
    ...charColours,
    ...common,
  },
  output,
  annotations: READ_ONLY_RENDER,
  async run(args, ctx) {
    const cells = checkCells(args);
    if (args.multicolor && !args.color)
      throw badRequest("multicolor: true needs color (colour RAM): its bit 3 selects each cell's mode.");
    const prepared = await prepare(ctx, args, { screen: args.screen, charset: args.charset, color: args.color });
    const { sources } = prepared.plan;
    requireBytes(sources.charset, 8);
    if (args.color) requireBytes(sources.color, cells);
    const first = await readAll(prepared.plan, { screen: cells });
    const used: Record<string, number> = {
      screen: cells,
      charset: glyphsNeeded(first.screen) * 8,
      ...(args.color ? { color: cells } : {}),
    };
    const rest = await readAll(prepared.plan, { charset: used.charset, ...(args.color ? { color: cells } : {}) });
    return reply(
      ctx,
      args,
      prepared,
      decodeCharScreen(args, first.screen, rest.charset, rest.color),
      used,
      'text screen',
    );
  },
});

const sprites = defineTool({
  name: 'decode_c64_sprites',
  title: 'Decode C64 sprites',
  description:
    `Sprite definitions (24x21 hires, or 12x21 multicolor drawn two pixels wide) on a sheet. sprite_stride 64 (padded blocks) or 63 (packed). ` +
    `Multicolor: 01 multicolor1 ($D025), 10 foreground (sprite colour), 11 multicolor2 ($D026). Transparent pixels show background. At most ${GRAPHICS_CAPS.sprites} sprites.`,
  input: {
    sprites: byteSourceInput,
    sprite_stride: z.union([z.literal(64), z.literal(63)]).default(64),
    ...sheetInputs(GRAPHICS_CAPS.sprites, 1, 8),
  },
  output,
  annotations: READ_ONLY_RENDER,
  async run(args, ctx) {
    const prepared = await prepare(ctx, args, { sprites: args.sprites });
    const used = { sprites: spriteBytesNeeded(args.count, args.sprite_stride) };
    const b = await readAll(prepared.plan, used);
    const img = decodeSprites({ ...args, stride: args.sprite_stride, sheetColumns: args.sheet_columns }, b.sprites);
    return reply(ctx, args, prepared, img, used, `${args.count} sprite${args.count === 1 ? '' : 's'}`);
  },
});

export const c64GraphicsTools: ToolDef[] = [hiresBitmap, multicolorBitmap, charset, charScreen, sprites];
