/**
 * The inspector's facts for the Sprinter: the 8x8 square under the point and its mode bytes in VRAM, then where
 * that pixel's colour comes from — in a graphics square the VRAM byte (or nibble, 640 wide) and the palette colour
 * it picks; in a text square the character, its glyph byte for that line (ink or paper) and its attribute byte.
 * Coordinates are in the 640x256 picture, without the HOLD shift; mode page 0.
 */
import { hex } from '../core/hex.js';
import type { SessionApi } from '../session/types.js';
import { decodeMode, PALETTE_COLUMN, VRAM_ROW } from '../machines/sprinter/video.js';
import { attributeByte, glyphByte, graphicsByte } from '../machines/sprinter/render.js';
import { sprinterPointAt } from '../machines/sprinter/screen-cell.js';
import type { InspectResult } from './inspect-result.js';

type Reader = Pick<SessionApi, 'readMemory'>;

const vram = (offset: number) => ({ space: 'vram' as const, offset });

export async function inspectSprinter(session: Reader, x: number, y: number, pixel: string): Promise<InspectResult> {
  const p = sprinterPointAt(x, y);
  if (!p.square || p.modeAddress === undefined) return { lines: [pixel, 'border'] };
  // both halves' mode bytes: an 80-column text square's right character has its own, one VRAM row on
  const both = [...(await session.readMemory(vram(p.modeAddress), VRAM_ROW + 4))];
  const bytes = both.slice(0, 4);
  const m = decodeMode(bytes);
  const lines = [
    pixel,
    `square ${p.square.a}, ${p.square.b}`,
    `mode VRAM ${hex(p.modeAddress, 5, '$')} = ${bytes.map((b) => hex(b, 2, '')).join(' ')} (mode page 0)`,
  ];
  const read = async (at: number) => (await session.readMemory(vram(at), 1))[0];
  if (m.kind === 'graphics') {
    lines.push(`graphics ${m.width} wide, palette ${m.palette}, from VRAM row ${m.sourceRow} column ${m.sourceColumn}`);
    const at = graphicsByte(bytes[0], bytes[1], bytes[2], x, y);
    const value = await read(at);
    const index = m.width === 320 ? value : x & 1 ? value & 0x0f : value >> 4;
    const nibble = m.width === 320 ? '' : x & 1 ? ' (low nibble)' : ' (high nibble)';
    const rgb = await session.readMemory(vram(index * VRAM_ROW + PALETTE_COLUMN + 4 * m.palette), 3);
    const colour = [...rgb].map((c) => hex(c, 2, '')).join('');
    lines.push(`pixel VRAM ${hex(at, 5, '$')} = ${hex(value, 2, '$')}${nibble}: colour ${index} = #${colour}`);
  } else if (m.kind === 'text') {
    const right = m.columns === 80 && (x & 15) >= 8;
    const [m0, m1, m2] = right ? both.slice(VRAM_ROW, VRAM_ROW + 4) : bytes;
    const ch = m1 >= 0x20 && m1 < 0x7f ? ` '${String.fromCharCode(m1)}'` : '';
    lines.push(`text ${m.columns} columns, character ${hex(m1, 2, '$')}${ch}, attribute row ${m2}`);
    const glyphAt = glyphByte(m0, m1, y);
    const glyph = await read(glyphAt);
    const bit = 7 - ((m.columns === 40 ? x >> 1 : x) & 7);
    const ink = (glyph >> bit) & 1 ? 'ink' : 'paper';
    const attrAt = attributeByte(m0, m2);
    lines.push(
      `glyph VRAM ${hex(glyphAt, 5, '$')} = ${hex(glyph, 2, '$')}, bit ${bit}: ${ink}`,
      `attribute VRAM ${hex(attrAt, 5, '$')} = ${hex(await read(attrAt), 2, '$')}`,
    );
  } else lines.push(`border${m.blank ? ' (blank)' : ''}`);
  return { lines, address: vram(p.modeAddress) };
}
