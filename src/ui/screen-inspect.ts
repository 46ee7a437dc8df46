/**
 * What the screen panel's inspector says under the pointer: pixel x/y, and
 * per machine the facts the hardware gives (src/machines/). C64: character
 * cell, screen code and its character, screen-RAM and colour-RAM addresses
 * and values, sprites over the point, the VIC mode. Other machines show the
 * pixel only, and say so.
 */
import { hex } from '../core/hex.js';
import type { SessionApi } from '../session/types.js';
import { C64_COLOUR_NAMES, VIC_REGISTERS, c64PointAt, screenCodeChar } from '../machines/c64/screen-cell.js';

export interface InspectResult {
  lines: string[];
  /** the address a click opens in the memory view */
  address?: number;
}

export interface FrameGeometry {
  inner?: { x: number; y: number; width: number; height: number };
}

export async function inspectPoint(
  session: Pick<SessionApi, 'readMemory'>,
  machine: string,
  x: number,
  y: number,
  frame: FrameGeometry,
): Promise<InspectResult> {
  const pixel = `pixel ${x}, ${y}`;
  if (machine === 'c64') return inspectC64(session, x - (frame.inner?.x ?? 0), y - (frame.inner?.y ?? 0), pixel);
  return { lines: [pixel, `no cell facts for machine "${machine}" yet`] };
}

async function inspectC64(
  session: Pick<SessionApi, 'readMemory'>,
  x: number,
  y: number,
  pixel: string,
): Promise<InspectResult> {
  const io = (offset: number, length: number) => session.readMemory({ space: 'cpu', bank: 'io', offset }, length);
  const vic = await io(0xd000, VIC_REGISTERS);
  const [cia2pa] = await io(0xdd00, 1);
  const p = c64PointAt(x, y, vic, cia2pa);
  const lines = [pixel];
  if (!p.cell || p.screenAddress === undefined || p.colourAddress === undefined) {
    lines.push('border');
  } else {
    const [code] = await session.readMemory({ space: 'cpu', bank: 'ram', offset: p.screenAddress }, 1);
    const [colour] = await io(p.colourAddress, 1);
    const ch = screenCodeChar(code, p.charset);
    lines.push(
      `cell ${p.cell.col}, ${p.cell.row}`,
      `screen ${hex(p.screenAddress, 4, '$')} = ${hex(code, 2, '$')} '${ch.char}'${ch.reverse ? ' reversed' : ''}`,
      `colour ${hex(p.colourAddress, 4, '$')} = ${hex(colour & 15, 2, '$')} (${C64_COLOUR_NAMES[colour & 15]})`,
    );
  }
  if (p.sprites.length) lines.push(`sprite ${p.sprites.join(', ')}`);
  lines.push(p.mode);
  return { lines, address: p.screenAddress };
}
