/**
 * What the screen panel's inspector says under the pointer: pixel x/y, and
 * per machine the facts the hardware gives (src/machines/). C64: character
 * cell, screen code and its character, screen-RAM and colour-RAM addresses
 * and values, sprites over the point, the VIC mode. ZX Spectrum: the
 * display-file byte and bit, the attribute byte with ink/paper/bright/flash,
 * of the screen the 128K shows (zx-inspect.ts).
 * Sprinter: the square, its mode bytes and the pixel's VRAM source (sprinter-inspect.ts). DOS: the text cell's
 * character and attribute, or the mode-13h offset and palette index. Other
 * machines show the pixel only, and say so.
 */
import { hex } from '../core/hex.js';
import type { Rect } from '../core/frames.js';
import type { Address } from '../core/target.js';
import type { SessionApi } from '../session/types.js';
import {
  C64_COLOUR_NAMES,
  VIC_REGISTERS,
  c64PointAt,
  screenCodeChar,
  spriteBoxes,
  type SpriteBox,
} from '../machines/c64/screen-cell.js';
import { readBda } from '../machines/dos/bda.js';
import { CP437 } from '../machines/dos/cp437.js';
import { describeAttribute, dosPointAt } from '../machines/dos/screen-cell.js';
import { sprinterPictureIn } from '../machines/sprinter/screen-cell.js';
import { ZX_MACHINES, zxPaperIn } from '../machines/zx/screen-cell.js';
import type { InspectResult } from './inspect-result.js';
import { inspectZx } from './zx-inspect.js';
import { inspectSprinter } from './sprinter-inspect.js';

export type { InspectResult };

export interface FrameGeometry {
  width: number;
  height: number;
  inner?: Rect;
}

type Reader = Pick<SessionApi, 'readMemory'>;

export async function inspectPoint(
  session: Reader,
  machine: string,
  x: number,
  y: number,
  frame: FrameGeometry,
): Promise<InspectResult> {
  const pixel = `pixel ${x}, ${y}`;
  if (machine === 'c64') return inspectC64(session, x - (frame.inner?.x ?? 0), y - (frame.inner?.y ?? 0), pixel);
  if (ZX_MACHINES.has(machine)) {
    const at = frame.inner ?? zxPaperIn(frame.width, frame.height);
    return inspectZx(session, machine, x - at.x, y - at.y, pixel);
  }
  if (machine === 'sprinter') {
    const at = frame.inner ?? sprinterPictureIn(frame.width, frame.height);
    return inspectSprinter(session, x - at.x, y - at.y, pixel);
  }
  if (machine === 'dos') return inspectDos(session, x, y, frame, pixel);
  return { lines: [pixel, `no cell facts for machine "${machine}" yet`] };
}

/** The C64's enabled sprites as boxes in the frame's pixels (the inner area's offset added). */
export async function c64SpriteOutlines(session: Reader, frame: FrameGeometry): Promise<SpriteBox[]> {
  const vic = await session.readMemory({ space: 'cpu', bank: 'io', offset: 0xd000 }, VIC_REGISTERS);
  const at = frame.inner ?? { x: 0, y: 0 };
  return spriteBoxes(vic).map((b) => ({ ...b, x: b.x + at.x, y: b.y + at.y }));
}

async function inspectC64(session: Reader, x: number, y: number, pixel: string): Promise<InspectResult> {
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
  return { lines, address: p.screenAddress === undefined ? undefined : cpu(p.screenAddress) };
}

async function inspectDos(
  session: Reader,
  x: number,
  y: number,
  frame: FrameGeometry,
  pixel: string,
): Promise<InspectResult> {
  const bda = readBda(await session.readMemory({ space: 'cpu', offset: 0 }, 0x500));
  const area = frame.inner ?? { x: 0, y: 0, width: frame.width, height: frame.height };
  const p = dosPointAt(x - area.x, y - area.y, area.width, area.height, bda);
  if (p.kind === 'other') return { lines: [pixel, `video mode ${hex(p.mode, 2, '$')}: no cell facts for it yet`] };
  if (p.kind === 'mode13') {
    const [index] = await session.readMemory({ space: 'cpu', offset: p.address }, 1);
    return {
      lines: [pixel, `mode 13h ${p.x}, ${p.y}`, `A000:${hex(p.offset, 4, '')} = palette index ${index}`],
      address: cpu(p.address),
    };
  }
  const [code, attr] = await session.readMemory({ space: 'cpu', offset: p.address }, 2);
  const segment = p.address >= 0xb8000 ? 0xb800 : 0xb000;
  return {
    lines: [
      pixel,
      `cell ${p.col}, ${p.row}`,
      `${hex(segment, 4, '')}:${hex(p.address - segment * 16, 4, '')} = ${hex(code, 2, '$')} '${CP437[code]}'`,
      `attribute ${hex(attr, 2, '$')} (${describeAttribute(attr)})`,
    ],
    address: cpu(p.address),
  };
}

function cpu(offset: number): Address {
  return { space: 'cpu', offset };
}
