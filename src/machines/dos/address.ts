/**
 * Addresses a person or agent writes for a DOS guest:
 *   12345 / "0x1D2C7"        guest physical
 *   "0191:01D2"              segment:offset (hex)
 *   "ds:0x1D2" / "ds:1D2"    relative to the matched profile's data segment
 *   "tag" / "lastkey+1"      a profile symbol (DS-relative), optionally plus bytes
 */
import { badAddress, notFound } from '../../core/errors.js';
import type { DosProfile } from './profile.js';
import { hex } from '../../core/hex.js';

export type DosAddressInput = number | string | { segment: number | string; offset: number | string };

export interface ResolvedAddress {
  physical: number;
  segment?: number;
  offset?: number;
  label: string;
  symbol?: string;
  size?: number;
}

export interface AddressContext {
  profile?: DosProfile;
  ds?: number;
}

function num(v: number | string, hexDefault: boolean): number {
  if (typeof v === 'number') return v;
  const t = v.trim();
  if (/^0x[0-9a-f]+$/i.test(t)) return parseInt(t, 16);
  if (hexDefault && /^[0-9a-f]+$/i.test(t)) return parseInt(t, 16);
  if (/^\d+$/.test(t)) return parseInt(t, 10);
  throw badAddress(`"${v}" is not a number.`);
}

const segOff = (segment: number, offset: number, extra: Partial<ResolvedAddress> = {}): ResolvedAddress => {
  if (segment > 0xffff || offset > 0xffff)
    throw badAddress(`Segment and offset are 16-bit: ${segment.toString(16)}:${offset.toString(16)} is out of range.`);
  return {
    physical: segment * 16 + offset,
    segment,
    offset,
    label: `${hex(segment, 4, '')}:${hex(offset, 4, '')}`,
    ...extra,
  };
};

export function resolveDosAddress(input: DosAddressInput, ctx: AddressContext): ResolvedAddress {
  if (typeof input === 'object') return segOff(num(input.segment, true), num(input.offset, false));
  if (typeof input === 'number') {
    if (!Number.isInteger(input) || input < 0) throw badAddress(`Address ${input} is negative or not an integer.`);
    return { physical: input, label: `0x${input.toString(16).toUpperCase()}` };
  }
  const t = input.trim();
  const so = /^([0-9a-f]{1,4}):([0-9a-fx]{1,6})$/i.exec(t);
  if (so && !/^ds$/i.test(so[1])) return segOff(parseInt(so[1], 16), num(so[2], true));
  const ds = /^ds:(.+)$/i.exec(t);
  if (ds) return segOff(requireDs(ctx, t), num(ds[1], true));
  if (/^(0x[0-9a-f]+|\d+)$/i.test(t)) return resolveDosAddress(num(t, false), ctx);
  const sym = /^([A-Za-z_][\w.]*)(?:\+(0x[0-9a-f]+|\d+))?$/i.exec(t);
  if (sym) {
    const s = ctx.profile?.symbols[sym[1]];
    if (!s) {
      const known = ctx.profile ? Object.keys(ctx.profile.symbols).join(', ') : '';
      throw notFound(
        ctx.profile
          ? `No symbol "${sym[1]}" in profile ${ctx.profile.name}; known: ${known || 'none'}.`
          : `"${sym[1]}" looks like a symbol name, but no profile is loaded (dosbox_load_profile).`,
      );
    }
    const plus = sym[2] ? num(sym[2], false) : 0;
    return segOff(requireDs(ctx, t), s.offset + plus, { symbol: sym[1], size: s.size });
  }
  throw badAddress(
    `"${input}" is not a DOS address: use a physical number, "SSSS:OOOO", "ds:OOOO" or a profile symbol name.`,
  );
}

function requireDs(ctx: AddressContext, text: string): number {
  if (ctx.ds === undefined)
    throw notFound(
      `"${text}" is relative to a data segment, but no profile has matched a program yet (dosbox_load_profile).`,
    );
  return ctx.ds;
}
