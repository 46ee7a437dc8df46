/**
 * What an address, port, register constant or interrupt call in a source file means on
 * the machine the file is for, from the machine data in src/machines/ (the C64 symbol
 * profile, cc65's chip structs, ZX and Sprinter ports, the DOS BIOS data area and INT
 * functions). Pure: the server adds the live value when a session is stopped.
 */
import { C64_SYMBOL_PROFILE, type ProfileSymbol } from '../machines/c64/symbol-profile.js';
import { cc65MemberAddress } from '../machines/c64/cc65-structs.js';
import { bdaField, DOS_INTERRUPTS } from '../machines/dos/reference.js';
import { sprinterPort } from '../machines/sprinter/ports.js';
import { zxMemoryArea, zxPort } from '../machines/zx/hardware.js';

export type Machine = 'c64' | 'zx' | 'sprinter' | 'dos';

export interface HardwareInfo {
  machine: Machine;
  name: string;
  description: string;
  /** "$D020", "port #FE", "0040:0017", "INT 21h AH=09h" */
  where: string;
  bits?: { bits: string; meaning: string }[];
  /** memory the live value is read from (CPU view; DOS: physical), when reading it is harmless */
  memory?: { address: number; size: number };
}

/** A number as the toolchains write it: $D020, 0xD020, D020h, 53280, %1010, 0b1010. */
export function parseNumber(text: string): number | undefined {
  const t = text.replace(/^#/, '');
  let m: RegExpExecArray | null;
  if ((m = /^\$([0-9a-f]+)$/i.exec(t)) || (m = /^0x([0-9a-f]+)$/i.exec(t)) || (m = /^([0-9][0-9a-f]*)h$/i.exec(t)))
    return parseInt(m[1], 16);
  if ((m = /^%([01]+)$/.exec(t)) || (m = /^0b([01]+)$/i.exec(t))) return parseInt(m[1], 2);
  if (/^[0-9]+$/.test(t)) return parseInt(t, 10);
  return undefined;
}

const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, '0');

function c64Symbol(address: number): (ProfileSymbol & { group: string }) | undefined {
  for (const g of C64_SYMBOL_PROFILE.groups)
    for (const s of g.symbols)
      if (address >= s.address && address < s.address + Math.max(1, s.size)) return { ...s, group: g.title };
  return undefined;
}

function c64Info(address: number): HardwareInfo | undefined {
  const s = c64Symbol(address);
  if (!s) return undefined;
  const bits = C64_SYMBOL_PROFILE.equates
    .flatMap((g) => g.values)
    .filter((v) => v.register === s.name)
    .map((v) => ({ bits: bitsOf(v.value), meaning: `${v.name}: ${v.comment}` }));
  const offset = address - s.address;
  return {
    machine: 'c64',
    name: offset ? `${s.name}+${offset}` : s.name,
    description: `${s.comment} (${s.group})`,
    where: `$${hex(address, 4)}`,
    bits: bits.length ? bits : undefined,
    memory: { address, size: 1 },
  };
}

function bitsOf(mask: number): string {
  const set = [...Array(8).keys()].filter((b) => mask & (1 << b));
  return set.length > 1 && set.at(-1)! - set[0] === set.length - 1 ? `${set[0]}-${set.at(-1)}` : set.join(',');
}

function c64ByName(name: string): HardwareInfo | undefined {
  const member = cc65MemberAddress(name);
  if (member !== undefined) return c64Info(member);
  for (const g of C64_SYMBOL_PROFILE.groups) {
    const s = g.symbols.find((x) => x.name === name);
    if (s) return c64Info(s.address);
  }
  return undefined;
}

/** Hardware a number means on `machine`; `asPort` when the source uses it as an I/O port. */
export function lookupNumber(machine: Machine, value: number, asPort = false): HardwareInfo | undefined {
  if (machine === 'c64') return c64Info(value);
  if (machine === 'zx') {
    const port = zxPort(value);
    if (port && (asPort || value === 0xfe || value > 0xff))
      return {
        machine,
        name: port.name,
        description: port.description,
        where: `port #${hex(value, 2)}`,
        bits: port.bits,
      };
    const area = zxMemoryArea(value);
    if (area && !asPort && value >= 0x4000)
      return {
        machine,
        name: area.name,
        description: `${area.description} (#${hex(area.start, 4)}-#${hex(area.end, 4)})`,
        where: `#${hex(value, 4)}`,
        bits: area.bits,
        memory: { address: value, size: 1 },
      };
    return undefined;
  }
  if (machine === 'sprinter') {
    const port = sprinterPort(value);
    return port && { machine, name: port.name, description: port.description, where: `port #${hex(value, 2)}` };
  }
  // DOS: a physical address inside the BIOS data area
  if (value >= 0x400 && value < 0x500) return dosBda(0x40, value - 0x400);
  return undefined;
}

function dosBda(segment: number, offset: number): HardwareInfo | undefined {
  const physical = segment * 16 + offset;
  if (physical < 0x400 || physical >= 0x500) return undefined;
  const f = bdaField(physical - 0x400);
  if (!f) return undefined;
  return {
    machine: 'dos',
    name: f.name,
    description: `BIOS data area: ${f.description}`,
    where: `${hex(segment, 4)}:${hex(offset, 4)}`,
    bits: f.bits,
    memory: { address: 0x400 + f.offset, size: f.size },
  };
}

/** `0040:0017`, `40h:17h`. */
export function lookupFarAddress(text: string): HardwareInfo | undefined {
  const m = /^([0-9a-f]{1,4})h?:([0-9a-f]{1,4})h?$/i.exec(text);
  return m ? dosBda(parseInt(m[1], 16), parseInt(m[2], 16)) : undefined;
}

/** `int 21h` with AH (when the source set it just before), or the interrupt alone. */
export function lookupInterrupt(vector: number, ah: number | undefined): HardwareInfo | undefined {
  const int = DOS_INTERRUPTS[vector];
  if (!int) return undefined;
  const fn = ah === undefined ? undefined : int.functions[ah];
  const where = `INT ${hex(vector, 2)}h` + (ah === undefined ? '' : ` ${int.selector}=${hex(ah, 2)}h`);
  if (!fn) {
    const known = Object.entries(int.functions)
      .map(([k, f]) => `${hex(Number(k), 2)}h ${f.name}`)
      .join(', ');
    return {
      machine: 'dos',
      name: `INT ${hex(vector, 2)}h`,
      description: `${int.title} services; ${int.selector} selects: ${known}`,
      where,
    };
  }
  return { machine: 'dos', name: fn.name, description: `${int.title}: ${fn.description}`, where };
}

/** A name the machine data knows: C64 profile symbols (EXTCOL) and cc65's chip members (VIC.bordercolor). */
export function lookupName(machine: Machine, name: string): HardwareInfo | undefined {
  return machine === 'c64' ? c64ByName(name) : undefined;
}

export function hoverMarkdown(info: HardwareInfo, live?: string): string {
  const lines = [`**${info.name}** — ${info.where} (${info.machine})`, '', info.description];
  if (info.bits?.length) {
    lines.push('', '| bits | meaning |', '|---|---|');
    for (const b of info.bits) lines.push(`| ${b.bits} | ${b.meaning.replace(/\|/g, '\\|')} |`);
  }
  if (live) lines.push('', live);
  return lines.join('\n');
}
