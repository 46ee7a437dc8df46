/**
 * The inspector's facts for the ZX Spectrum family: the display-file byte and
 * bit under the point, its attribute with ink/paper/bright/flash, of the
 * screen the machine shows. On the 128K that is the normal screen (page 5 at
 * $4000) or the shadow screen (page 7) as port $7FFD chose it, read from the
 * driver's own latch; page 7's bytes come from $C000 when it is paged in there
 * (a click opens that CPU address), else from the RAM device's page itself (a
 * click opens it there). When the choice cannot be read it says so: never
 * another screen silently.
 */
import { asRetroError } from '../core/errors.js';
import { hex } from '../core/hex.js';
import type { Address } from '../core/target.js';
import type { SessionApi } from '../session/types.js';
import { ZX_BITMAP, ZX_COLOUR_NAMES, zxAttribute, zxPointAt } from '../machines/zx/screen-cell.js';
import {
  ZX128_LIKE_MACHINES,
  ZX128_MACHINES,
  ZX128_PORT_ITEM,
  ZX128_RAM_ITEM,
  ZX_PAGE_SIZE,
  describeZxScreen,
  zx128Paging,
  zxScreenPlace,
  type ZxScreenPlace,
} from '../machines/zx/zx128-screen.js';
import type { InspectResult } from './inspect-result.js';

type Reader = Pick<SessionApi, 'readMemory'>;

/** The normal screen, where a 48K has its only one. */
const NORMAL: ZxScreenPlace = { page: 5, cpuBase: 0x4000 };

export async function inspectZx(
  session: Reader,
  machine: string,
  x: number,
  y: number,
  pixel: string,
): Promise<InspectResult> {
  const p = zxPointAt(x, y);
  if (!p.cell || p.bitmapAddress === undefined || p.attributeAddress === undefined) return { lines: [pixel, 'border'] };
  const { place, line } = await screenShown(session, machine);
  const [bitmapAt, bits] = await readScreenByte(session, place, p.bitmapAddress - ZX_BITMAP);
  const [attributeAt, attr] = await readScreenByte(session, place, p.attributeAddress - ZX_BITMAP);
  const a = zxAttribute(attr);
  const on = (bits >> (p.bit ?? 0)) & 1;
  return {
    lines: [
      pixel,
      `cell ${p.cell.col}, ${p.cell.row}`,
      ...(line ? [line] : []),
      `bitmap ${bitmapAt} = ${hex(bits, 2, '$')} (bit ${p.bit} ${on ? 'ink' : 'paper'})`,
      `attribute ${attributeAt} = ${hex(attr, 2, '$')}`,
      `ink ${a.ink} (${ZX_COLOUR_NAMES[a.ink]}), paper ${a.paper} (${ZX_COLOUR_NAMES[a.paper]})` +
        `, bright ${a.bright ? 1 : 0}, flash ${a.flash ? 1 : 0}`,
    ],
    address: screenAddress(place, p.bitmapAddress - ZX_BITMAP),
  };
}

/** Byte `offset` of the screen shown: by CPU address when the CPU can address it now, else in the RAM device. */
function screenAddress(place: ZxScreenPlace, offset: number): Address {
  if (place.cpuBase !== undefined) return { space: 'cpu', offset: place.cpuBase + offset };
  return { space: 'share', bank: ZX128_RAM_ITEM, offset: place.page * ZX_PAGE_SIZE + offset };
}

/** How the line names the byte, and its value. */
async function readScreenByte(session: Reader, place: ZxScreenPlace, offset: number): Promise<[string, number]> {
  const at = screenAddress(place, offset);
  const name = at.space === 'cpu' ? hex(at.offset, 4, '$') : `page ${place.page} + ${hex(offset, 4, '$')}`;
  return [name, (await session.readMemory(at, 1))[0]];
}

/** Which screen is shown, and the line saying so (none on a 48K, which has one screen). */
async function screenShown(session: Reader, machine: string): Promise<{ place: ZxScreenPlace; line?: string }> {
  if (ZX128_LIKE_MACHINES.has(machine)) {
    return { place: NORMAL, line: `${machine}: screen selection unknown (its paging is not decoded): page 5's bytes` };
  }
  if (!ZX128_MACHINES.has(machine)) return { place: NORMAL };
  let port: number;
  try {
    port = (await session.readMemory({ space: 'share', bank: ZX128_PORT_ITEM, offset: 0 }, 1))[0];
  } catch (err) {
    const why = asRetroError(err).message;
    return { place: NORMAL, line: `128K screen selection unknown ($7FFD not readable: ${why}): page 5's bytes` };
  }
  const paging = zx128Paging(port);
  const place = zxScreenPlace(paging);
  return { place, line: describeZxScreen(paging, place) };
}
