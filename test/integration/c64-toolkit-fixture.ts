/**
 * A C program for the C64, built with cc65 at test time, holding a hires
 * sprite, a multicolor sprite, a small character set, a 4x2 screen with
 * colour RAM and a PETSCII string, all written here as pictures; and helpers
 * that read the pictures back out of the tools' PNGs.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PNG } from 'pngjs';
import { PEPTO_PAL } from '../../src/machines/c64/pepto-palette.js';

export const SPRITE = [
  '########################',
  '#......................#',
  '#..####..........####..#',
  '#..#..#..........#..#..#',
  '#..####..........####..#',
  '#......................#',
  '#..........##..........#',
  '#.........####.........#',
  '#........######........#',
  '#.......########.......#',
  '#......##########......#',
  '#.......########.......#',
  '#........######........#',
  '#.........####.........#',
  '#..........##..........#',
  '#......................#',
  '#.#.#.#.#.#.#.#.#.#.#.#.',
  '.#.#.#.#.#.#.#.#.#.#.#.#',
  '#......................#',
  '#......................#',
  '#######################.',
];
// multicolor: digits are the bit pairs (0 transparent, 1 $D025, 2 sprite colour, 3 $D026)
export const MC_SPRITE = Array.from({ length: 21 }, (_, y) =>
  Array.from({ length: 12 }, (_, x) => String((x + y) % 4)).join(''),
);
export const GLYPHS = [
  ['........', '........', '........', '........', '........', '........', '........', '........'],
  ['..####..', '.##..##.', '.##..##.', '.######.', '.##..##.', '.##..##.', '.##..##.', '........'],
  ['######..', '.##..##.', '.#####..', '.##..##.', '.##..##.', '######..', '........', '........'],
  ['#.#.#.#.', '.#.#.#.#', '#.#.#.#.', '.#.#.#.#', '#.#.#.#.', '.#.#.#.#', '#.#.#.#.', '.#.#.#.#'],
];
export const SCREEN = [1, 2, 3, 0, 3, 2, 1, 1]; // 4 columns x 2 rows
export const COLOURS = [2, 5, 7, 1, 14, 10, 13, 0];

const bitsToByte = (s: string) => [...s].reduce((v, c) => (v << 1) | (c === '#' ? 1 : 0), 0);
const pairsToByte = (s: string) => [...s].reduce((v, c) => (v << 2) | Number(c), 0);
const spriteBytes = (art: string[], mc: boolean) => [
  ...art.flatMap((line) =>
    mc
      ? [0, 1, 2].map((b) => pairsToByte(line.slice(b * 4, b * 4 + 4)))
      : [0, 1, 2].map((b) => bitsToByte(line.slice(b * 8, b * 8 + 8))),
  ),
  0,
];
const cArray = (name: string, bytes: number[]) =>
  `const unsigned char ${name}[${bytes.length}] = {${bytes.join(',')}};\n`;

export const SOURCE =
  cArray('sprite_hires', spriteBytes(SPRITE, false)) +
  cArray('sprite_mc', spriteBytes(MC_SPRITE, true)) +
  cArray(
    'glyphs',
    GLYPHS.flatMap((g) => g.map(bitsToByte)),
  ) +
  cArray('screen', SCREEN) +
  cArray('colours', COLOURS) +
  'const char message[] = "Hello c64";\n' +
  'int main(void) { return sprite_hires[0] + sprite_mc[0] + glyphs[0] + screen[0] + colours[0] + message[0]; }\n';

export const ART_LABELS = ['sprite_hires', 'sprite_mc', 'glyphs', 'screen', 'colours', 'message'] as const;

export interface ArtProgram {
  prg: Buffer;
  /** load address from the PRG header */
  load: number;
  /** CPU address of each array (from cc65's label file) */
  addresses: Record<string, number>;
  /** offset of each array in the .prg file */
  offsets: Record<string, number>;
}

/** Builds data.prg in `dir` with cl65 and finds the arrays through its label file. */
export function buildArtProgram(dir: string): ArtProgram {
  writeFileSync(join(dir, 'data.c'), SOURCE);
  execFileSync('cl65', ['-t', 'c64', '-Ln', 'data.lbl', '-o', 'data.prg', 'data.c'], { cwd: dir, timeout: 60_000 });
  const prg = readFileSync(join(dir, 'data.prg'));
  const load = prg[0] | (prg[1] << 8);
  const addresses: Record<string, number> = {};
  const offsets: Record<string, number> = {};
  for (const m of readFileSync(join(dir, 'data.lbl'), 'utf8').matchAll(/^al ([0-9A-F]+) \._(\w+)$/gm)) {
    addresses[m[2]] = parseInt(m[1], 16);
    offsets[m[2]] = addresses[m[2]] - load + 2;
  }
  for (const name of ART_LABELS) assert.ok(offsets[name] > 2, `label ${name} in the cc65 label file`);
  return { prg, load, addresses, offsets };
}

/** A rendered image as VIC colour indices (through the Pepto palette). */
export interface Pixels {
  width: number;
  height: number;
  at(x: number, y: number): number;
}

function pixels(result: Record<string, unknown>, rawPng: Buffer): Pixels {
  const png = PNG.sync.read(rawPng);
  assert.equal(png.width, result.width);
  assert.equal(png.height, result.height);
  const index = (i: number) =>
    PEPTO_PAL.findIndex(([r, g, b]) => r === png.data[i] && g === png.data[i + 1] && b === png.data[i + 2]);
  return { width: png.width, height: png.height, at: (x, y) => index((y * png.width + x) * 4) };
}

/** Calls a graphics tool that must succeed: its structured result and its PNG as pixels. */
export async function render(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ sc: Record<string, unknown>; img: Pixels }> {
  const raw = await client.callTool({ name, arguments: args });
  const sc = raw.structuredContent as Record<string, unknown>;
  assert.ok(!raw.isError, JSON.stringify(sc));
  const image = (raw.content as { type: string; data?: string }[]).find((c) => c.type === 'image');
  assert.ok(image?.data, 'the result carries the PNG');
  return { sc, img: pixels(sc, Buffer.from(image.data, 'base64')) };
}

export function assertSprite(img: Pixels, background: number, foreground: number): void {
  assert.deepEqual([img.width, img.height], [24, 21]);
  for (let y = 0; y < 21; y++)
    for (let x = 0; x < 24; x++)
      assert.equal(img.at(x, y), SPRITE[y][x] === '#' ? foreground : background, `pixel ${x},${y}`);
}

export function assertCharScreen(img: Pixels, background: number): void {
  assert.deepEqual([img.width, img.height], [32, 16]);
  for (let cell = 0; cell < 8; cell++)
    for (let y = 0; y < 8; y++)
      for (let x = 0; x < 8; x++) {
        const want = GLYPHS[SCREEN[cell]][y][x] === '#' ? COLOURS[cell] : background;
        assert.equal(img.at((cell % 4) * 8 + x, Math.floor(cell / 4) * 8 + y), want, `cell ${cell} ${x},${y}`);
      }
}
