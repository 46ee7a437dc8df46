/**
 * One recorded interval of MAME's history replayed with MAME's `trace` on: from the state at its start to the stop
 * at its end (found again by its PC and every register, so a loop passing the same PC earlier does not end it),
 * every instruction's PC, SP and R, and optionally the CPU's writes to a range (a write watchpoint; each hit is
 * placed after its instruction by PC, SP and R). MAME's cycle counts after a state load do not continue the
 * recorded ones, so positions are instruction counts from the state; cycles are only the timeline's labels.
 */
import { readFile, rm } from 'node:fs/promises';
import type { StopInfo } from '../../../core/target.js';

export interface Replayer {
  console(command: string): Promise<string[]>;
  /** Starts the CPU with every stop kept from the session; `done` says whether a stop ends the run (else it runs on). */
  quietly(
    start: 'resume' | number,
    done: (stop: StopInfo, registers: Record<string, number>, cycles?: number) => boolean,
  ): Promise<void>;
  setBreakpoint(address: number, condition: string): Promise<number>;
  clearBreakpoint(id: number): Promise<void>;
  setWriteWatch(address: number, length: number): Promise<number>;
  clearWatch(id: number): Promise<void>;
  read(address: number, length: number): Promise<Uint8Array>;
}

export interface TracedInterval {
  /** per position 0..n-1: the instruction that starts there (position n is the interval's end) */
  pcs: number[];
  sps: number[];
  /** cycles from the interval's start (MAME's counts, this replay's) */
  offsets: number[];
  writes: { position: number; pc: number; address: number; old: number; value: number }[];
  /** MAME's traceover: the instructions inside calls made in the interval (and interrupts at a HALT) left out */
  over?: boolean;
}

/** registers that say where a Z80 program is (not MAME's pseudo registers, not the cycle counters) */
const SIGNATURE = ['SP', 'AF', 'BC', 'DE', 'HL', 'IX', 'IY', 'AF2', 'BC2', 'DE2', 'HL2', 'R', 'I'];

export function sameMoment(a: Record<string, number>, b: Record<string, number>): boolean {
  return SIGNATURE.every((r) => a[r] === undefined || a[r] === b[r]);
}

/** A number for MAME's expressions: bare hex such as `a` or `de` would name a register. */
export const mameNumber = (n: number) => `0x${n.toString(16)}`;

function endCondition(registers: Record<string, number>): string {
  return SIGNATURE.filter((r) => registers[r] !== undefined)
    .map((r) => `${r.toLowerCase()}==${mameNumber(registers[r])}`)
    .join(' && ');
}

/** Runs from the loaded state to `end` (found by its PC and every register), nothing traced, nothing stopping it. */
export async function runToMoment(r: Replayer, end: { pc: number; registers: Record<string, number> }): Promise<void> {
  // the user's breakpoints and watchpoints would stop it on the way: off while it runs (ours is set after)
  await r.console('bpdisable; wpdisable');
  const bp = await r.setBreakpoint(end.pc, endCondition(end.registers));
  try {
    await r.quietly('resume', (stop, regs) => stop.pc === end.pc && sameMoment(end.registers, regs));
  } finally {
    await r.clearBreakpoint(bp);
    await r.console('bpenable; wpenable');
  }
}

/**
 * Replays from the loaded start state (`start`: its PC and registers) to `end`; the machine is left at the end.
 * `watch`: also the writes to [address, address + length). `over`: with MAME's traceover, which runs a call made in
 * the interval untraced at full speed (a C line's callees: ×100 fewer instructions traced); undefined when the end
 * is inside such a call (its instructions are not listed, so the end is not either).
 */
export async function traceInterval(
  r: Replayer,
  file: string,
  cpuTag: string,
  start: { pc: number; registers: Record<string, number> },
  end: { pc: number; registers: Record<string, number> },
  opts: { watch?: { address: number; length: number }; over?: boolean } = {},
): Promise<TracedInterval | undefined> {
  const { watch, over } = opts;
  const hits: { pc: number; sp: number; r: number; access: number; address: number; old: number; value: number }[] = [];
  let bytes = watch ? await r.read(watch.address, watch.length) : undefined;
  const bp = await r.setBreakpoint(end.pc, endCondition(end.registers));
  const wp = watch ? await r.setWriteWatch(watch.address, watch.length) : undefined;
  await r.console(`${over ? 'traceover' : 'trace'} "${file}",${cpuTag},noloop,{tracelog "%X %X %X ",totalcycles,sp,r}`);
  try {
    await r.quietly('resume', (stop, regs) => {
      if (stop.pc === end.pc && sameMoment(end.registers, regs)) return true;
      if (stop.access && watch && bytes) {
        const a = stop.access.address - watch.address;
        hits.push({
          pc: stop.pc,
          sp: regs.SP,
          r: regs.R,
          access: stop.access.pc,
          address: stop.access.address,
          old: bytes[a] ?? 0,
          value: stop.access.value & 0xff,
        });
        bytes = Uint8Array.from(bytes);
        if (a >= 0 && a < bytes.length) bytes[a] = stop.access.value & 0xff;
      }
      return false;
    });
  } finally {
    await r.console('trace off');
    await r.clearBreakpoint(bp);
    if (wp !== undefined) await r.clearWatch(wp);
  }
  const text = await readFile(file, 'latin1').catch(() => '');
  await rm(file, { force: true });
  const out: TracedInterval = { pcs: [start.pc], sps: [start.registers.SP ?? 0], offsets: [0], writes: [], over };
  const rs = [start.registers.R ?? -1];
  let first: number | undefined;
  for (const line of text.split('\n')) {
    const m = /^([0-9A-F]+) ([0-9A-F]+) ([0-9A-F]+) ([0-9A-F]+):/i.exec(line);
    if (!m) continue;
    const [cycles, sp, rr, pc] = m.slice(1).map((v) => parseInt(v, 16));
    first ??= cycles;
    out.pcs.push(pc);
    out.sps.push(sp);
    rs.push(rr);
    // the first instruction's own length is not logged: 4 cycles, the shortest Z80 instruction, stands in
    out.offsets.push(4 + cycles - first);
  }
  // MAME logs the instruction it stops at too: that one is the end, not part of the interval
  const [endPc, endSp] = [out.pcs.pop(), out.sps.pop()];
  if (over && (endPc !== end.pc || (end.registers.SP !== undefined && endSp !== end.registers.SP))) return undefined;
  out.offsets.pop();
  let from = 1;
  for (const h of hits) {
    let n = from;
    while (
      n < out.pcs.length &&
      !(out.pcs[n] === h.pc && out.sps[n] === h.sp && rs[n] === h.r && out.pcs[n - 1] === h.access)
    )
      n++;
    if (n > out.pcs.length) continue;
    out.writes.push({ position: n, pc: h.access, address: h.address, old: h.old, value: h.value });
    from = n;
  }
  return out;
}
