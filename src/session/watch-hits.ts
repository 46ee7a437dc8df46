/**
 * A watchpoint stop, judged by the session before anyone sees it: the watched
 * bytes now against the bytes last seen (old → new, as C values when the
 * watch has a C type), the instruction that made the access (the emulator's
 * word where it gives one, MAME; else the 6502 instruction that ends at the
 * stop and addresses the range, VICE and the built-in), and whether a
 * change-only watch stops at all: a write that left the bytes as they were
 * resumes silently.
 */
import { findAccessor } from '../cpu/6502/accessor.js';
import { hexBytes } from '../core/hex.js';
import type { Address, Register, StopInfo } from '../core/target.js';
import { decodeValue } from '../debuginfo/values.js';
import type { SourceLocation, WatchHit } from './types.js';
import type { WatchRecord, WatchpointTable } from './watchpoints.js';
import { registerValue } from './unwind/frames.js';

export interface WatchMachine {
  cpu: string;
  read(address: Address, length: number): Promise<Uint8Array>;
  registers(): Promise<Register[]>;
  location(pc: number): SourceLocation | undefined;
}

export interface WatchDecision {
  /** the hits that stop (empty: resume silently) */
  stopping: WatchHit[];
}

export async function judgeWatchStop(
  stop: StopInfo,
  table: WatchpointTable,
  machine: WatchMachine,
): Promise<WatchDecision> {
  const stopping: WatchHit[] = [];
  for (const wp of table.firing(stop)) {
    const now = await machine.read(wp.address, wp.length).catch(() => undefined);
    const changed = !now || !wp.last || !sameBytes(now, wp.last);
    const old = wp.last;
    if (now) wp.last = now;
    if (wp.change_only && !changed) continue;
    const accessPc = await accessorOf(stop, wp, machine).catch(() => undefined);
    table.counted(wp, stop, accessPc);
    stopping.push({
      id: wp.id,
      ...(wp.expression ? { expression: wp.expression } : {}),
      address: { ...wp.address },
      length: wp.length,
      access: accessKind(stop, wp),
      ...(accessPc !== undefined ? { access_pc: accessPc, location: machine.location(accessPc) } : {}),
      ...(old ? { old: shown(wp, old) } : {}),
      ...(now ? { new: shown(wp, now) } : {}),
      changed,
    });
  }
  return { stopping };
}

/** The bytes of every watch over [from, from+length) as they are now (after the session itself wrote there). */
export async function refreshWatched(
  table: WatchpointTable,
  from: number,
  length: number,
  read: WatchMachine['read'],
): Promise<void> {
  for (const wp of table.overlapping(from, length)) wp.last = await read(wp.address, wp.length).catch(() => undefined);
}

async function accessorOf(stop: StopInfo, wp: WatchRecord, machine: WatchMachine): Promise<number | undefined> {
  if (stop.access?.pc !== undefined) return stop.access.pc;
  if (machine.cpu !== '6502' || wp.address.space !== 'cpu' || stop.pc < 3) return undefined;
  const [before, regs] = await Promise.all([
    machine.read({ space: 'cpu', offset: stop.pc - 3 }, 3),
    machine.registers(),
  ]);
  return findAccessor({
    before,
    pc: stop.pc,
    x: registerValue(regs, 'X') ?? 0,
    y: registerValue(regs, 'Y') ?? 0,
    zpWord: async (zp) => {
      const [lo, hi] = await Promise.all([
        machine.read({ space: 'cpu', offset: zp }, 1),
        machine.read({ space: 'cpu', offset: (zp + 1) & 0xff }, 1),
      ]);
      return lo[0] | (hi[0] << 8);
    },
    from: wp.address.offset,
    length: wp.length,
    kind: wp.kind,
  });
}

/** MAME says "writing"/"reading"; a CPU that does not say is taken at the watch's kind. */
function accessKind(stop: StopInfo, wp: WatchRecord): string {
  const said = stop.access?.kind?.replace(/ing$/, 'e').replace(/^reade$/, 'read');
  return said || (wp.kind === 'readwrite' ? 'access' : wp.kind);
}

function shown(wp: WatchRecord, bytes: Uint8Array): string {
  if (wp.ctype) {
    try {
      return decodeValue(wp.expression ?? 'value', wp.ctype, bytes).value;
    } catch {
      // bytes below
    }
  }
  return hexBytes(bytes);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
