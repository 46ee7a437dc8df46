/**
 * Which C variable each register holds, at each instruction of one
 * SDCC-compiled Z80 function. SDCC's debug info gives a register local one
 * register list for its whole block, and two locals (or a local and a
 * temporary) may take the same register one after the other; so a register
 * is credited to a variable only where every path to here last wrote it on
 * that variable's behalf: the last write of the register in the code of a C
 * line that assigns the variable (source text, c-assigned.ts), a parameter's
 * register at entry (SDCC's sdcccall(1) registers), a copy of a register
 * that held it, or a pop of what a push saved. Any other write (a temporary, a call's clobber, an unknown stack)
 * makes the register hold "another value", and a variable not credited is
 * shown as not available rather than with a value that is not its own.
 */
import type { FunctionInfo, Variable } from '../debuginfo/model.js';
import { sizeOf } from '../debuginfo/values.js';
import { decodeZ80, type Z80Access, type Z80Reg } from '../cpu/z80-access.js';

const REGS: Z80Reg[] = ['A', 'B', 'C', 'D', 'E', 'H', 'L', 'IXH', 'IXL', 'IYH', 'IYL'];
const SLOT = new Map(REGS.map((r, i) => [r, i]));
/** Bit 0: a value of no variable; bit k: the k-th register variable (at most 30 are followed). */
const OTHER = 1;
/** a write that copies another register's value (and owner) */
const COPY = -1;
const MAX_VARIABLES = 30;
/** Lines between two pieces of code whose assignments the first piece may hold (see definitions). */
const MAX_MERGED_LINES = 8;
/** What a call leaves: SDCC's Z80 code keeps only IX across calls. */
const CLOBBERED = REGS.filter((r) => r !== 'IXH' && r !== 'IXL');

interface State {
  regs: number[];
  /** the stack pushed since entry, a mask per byte, top last; undefined when no longer followed */
  stack?: number[];
}

export interface OwnerSources {
  /** the C line of the code at `address` */
  lineAt(address: number): { file: string; line: number } | undefined;
  /** the names that C line assigns */
  assigned(file: string, line: number): Set<string>;
  /** bytes of arguments a called function removes from the stack itself (0 when the caller does or it is unknown) */
  cleanup(target: number): number;
}

/**
 * The registers `v` can be read from at `pc` (the debug info's, or the one
 * register that holds a one-byte variable the debug info places elsewhere,
 * as SDCC does for a parameter it uses where it was passed), or why it cannot.
 */
export type OwnerCheck = (v: Variable, pc: number, outer: boolean) => { registers: string[] } | { reason: string };

export function registerOwners(fn: FunctionInfo, code: Uint8Array, src: OwnerSources): OwnerCheck {
  const vars = [...fn.params, ...fn.locals].filter((v) => v.storage.kind === 'register').slice(0, MAX_VARIABLES);
  const bit = new Map(vars.map((v, i) => [v, 1 << (i + 1)]));
  const flow = follow(fn, code, src, vars, bit);
  return (v, pc, outer) => {
    const named = v.storage.kind === 'register' ? v.storage.registers.map((r) => r.toUpperCase()) : [];
    const mine = bit.get(v);
    if (!mine || !flow) return { reason: 'not available here: the code could not be followed' };
    let i = flow.index.get(pc);
    // a caller's frame: its registers as they are once the pops after the call have restored them
    while (outer && i !== undefined && restores(flow.code[i])) i++;
    const state = i === undefined ? undefined : flow.states[i];
    if (!state) return { reason: 'not available here' };
    const held = named.map((r) => state.regs[SLOT.get(r as Z80Reg) ?? -1] ?? OTHER);
    if (held.every((m) => m === mine)) return { registers: named };
    const elsewhere = REGS.filter((r) => state.regs[SLOT.get(r)!] === mine);
    if (sizeOf(v.type) === 1 && elsewhere.length === 1) return { registers: elsewhere };
    const at = held.findIndex((m) => m !== mine);
    const others = vars.filter((o) => o !== v && held[at] & bit.get(o)!).map((o) => o.name);
    return {
      reason: `not available here: ${named[at]} holds ${others.length ? others.join(' or ') : 'another value'}`,
    };
  };
}

const restores = (a: Z80Access) => a.stack?.kind === 'pop' || (a.stack?.kind === 'adjust' && a.stack.bytes > 0);

interface Flow {
  code: Z80Access[];
  index: Map<number, number>;
  states: (State | undefined)[];
}

/** The state before each instruction, over every path from the entry; undefined when the code cannot be followed. */
function follow(
  fn: FunctionInfo,
  bytes: Uint8Array,
  src: OwnerSources,
  vars: Variable[],
  bit: Map<Variable, number>,
): Flow | undefined {
  const code: Z80Access[] = [];
  const addr: number[] = [];
  const index = new Map<number, number>();
  for (let at = 0; at < bytes.length;) {
    const a = decodeZ80(bytes, at, fn.start + at);
    index.set(fn.start + at, code.length);
    code.push(a);
    addr.push(fn.start + at);
    at += a.length;
  }
  const defs = definitions(code, addr, src, vars, bit);
  const states: (State | undefined)[] = new Array(code.length);
  states[0] = { regs: entryRegs(fn.params, bit) as number[], stack: [] };
  const work = [0];
  while (work.length) {
    const i = work.pop()!;
    const a = code[i];
    const out = transfer(a, states[i]!, defs[i], src);
    const next: number[] = [];
    const f = a.flow;
    if (f.kind === 'next' || f.kind === 'call' || (f.kind !== 'indirect' && f.cond)) next.push(i + 1);
    if (f.kind === 'jump') {
      const t = index.get(f.target);
      if (t === undefined && f.target >= fn.start && f.target <= fn.end) return undefined; // into an instruction
      if (t !== undefined) next.push(t);
    }
    if (f.kind === 'indirect') {
      // a switch's table of jp nn right after jp (hl); otherwise jp (hl) returns (callee-cleaned arguments)
      for (let k = i + 1; k < code.length && isJpNn(code[k]); k++) next.push(k);
    }
    for (const n of next) {
      if (n >= code.length) continue;
      const merged = join(states[n], out);
      if (merged) {
        states[n] = merged;
        work.push(n);
      }
    }
  }
  return { code, index, states };
}

/**
 * Per instruction, per written register: the mask its write gives (the line's variable for its last write there).
 * SDCC names a line's code by file, line and block, so the second piece of a line (a for loop's increment after
 * its init) replaces the first in the debug info, whose code then counts as the line before's: a run of line M
 * followed by one of line N > M also counts the assignments of the lines between.
 */
function definitions(
  code: Z80Access[],
  addr: number[],
  src: OwnerSources,
  vars: Variable[],
  bit: Map<Variable, number>,
): Map<Z80Reg, number>[] {
  const defs: Map<Z80Reg, number>[] = [];
  let later = new Set<Z80Reg>();
  let run: { file: string; line: number } | undefined;
  let following: { file: string; line: number } | undefined;
  let assigned = new Set<string>();
  for (let i = code.length - 1; i >= 0; i--) {
    const line = src.lineAt(addr[i]);
    if (line?.file !== run?.file || line?.line !== run?.line) {
      if (run) following = run;
      run = line;
      later = new Set();
      assigned = new Set();
      const last =
        line && following?.file === line.file && following.line > line.line ? following.line : (line?.line ?? 0) + 1;
      for (let n = line?.line ?? 0; line && n < Math.min(last, line.line + MAX_MERGED_LINES); n++)
        for (const name of src.assigned(line.file, n)) assigned.add(name);
    }
    const mine = new Map<Z80Reg, number>();
    // a call writes what it returns (`x = f()`) and clobbers the rest
    for (const w of code[i].flow.kind === 'call' ? CLOBBERED : code[i].writes) {
      let mask = 0;
      if (!later.has(w))
        for (const v of vars)
          if (
            assigned.has(v.name) &&
            v.storage.kind === 'register' &&
            v.storage.registers.some((r) => r.toUpperCase() === w)
          )
            mask |= bit.get(v)!;
      mine.set(w, mask || (code[i].copy ? COPY : OTHER));
      later.add(w);
    }
    defs[i] = mine;
  }
  return defs;
}

function transfer(a: Z80Access, s: State, defs: Map<Z80Reg, number>, src: OwnerSources): State {
  const regs = [...s.regs];
  let stack = s.stack ? [...s.stack] : undefined;
  const get = (r: Z80Reg) => regs[SLOT.get(r)!];
  const set = (r: Z80Reg | undefined, mask: number) => r && (regs[SLOT.get(r)!] = mask);
  const pop = () => (stack?.length ? stack.pop()! : ((stack = undefined), OTHER));
  const swap = (x: Z80Reg, y: Z80Reg) => {
    const t = get(x);
    set(x, get(y));
    set(y, t);
  };
  const st = a.stack;
  if (a.swap === 'de-hl') {
    swap('D', 'H');
    swap('E', 'L');
  } else if (a.swap) for (const w of a.writes) set(w, OTHER);
  else if (st?.kind === 'push') for (const r of st.regs) stack?.push(r ? get(r) : OTHER);
  else if (st?.kind === 'pop') {
    const lo = pop();
    const hi = pop();
    set(st.regs[0], hi);
    set(st.regs[1], lo);
  } else if (st?.kind === 'adjust') {
    if (st.bytes > 0) pop();
    else stack?.push(OTHER);
  } else if (st?.kind === 'exchange') {
    const lo = pop();
    const hi = pop();
    stack?.push(get(st.regs[0]), get(st.regs[1]));
    set(st.regs[0], hi);
    set(st.regs[1], lo);
  } else if (st?.kind === 'reload') stack = undefined;
  else if (a.flow.kind === 'call') {
    for (const r of CLOBBERED) set(r, a.flow.cond ? get(r) | OTHER : OTHER);
    const n = src.cleanup(a.flow.target);
    if (n && a.flow.cond) stack = undefined;
    else for (let k = 0; k < n; k++) pop();
  } else {
    for (const [w, mask] of defs) set(w, mask === COPY ? get(a.copy!.from) : mask);
    return { regs, stack };
  }
  // a value moved, restored or returned into a variable's register as the last write of its assigning line is it
  for (const [w, mask] of defs) if (mask > OTHER) set(w, mask);
  return { regs, stack };
}

/** `old` widened by `add`; undefined when nothing changed. */
function join(old: State | undefined, add: State): State | undefined {
  if (!old) return add;
  const regs = old.regs.map((m, i) => m | add.regs[i]);
  const stack =
    old.stack && add.stack && old.stack.length === add.stack.length
      ? old.stack.map((m, i) => m | add.stack![i])
      : undefined;
  const same =
    regs.every((m, i) => m === old.regs[i]) && (stack ? stack.every((m, i) => m === old.stack![i]) : !old.stack);
  return same ? undefined : { regs, stack };
}

/**
 * The registers at entry: OTHER, but for the first two parameters where
 * SDCC's sdcccall(1) passes them (8 bits in A, 16 in HL, 32 in DE:HL; a
 * second one of 8 bits in L after A or in A after HL, of 16 in DE), from
 * where the code may copy them into the registers the debug info names.
 */
function entryRegs(params: Variable[], bit: Map<Variable, number>): number[] {
  const regs = REGS.map(() => OTHER);
  const [first, second] = params.map((p) => sizeOf(p.type));
  const passed: Z80Reg[][] = [];
  passed.push(first === 1 ? ['A'] : first === 2 ? ['L', 'H'] : first === 4 ? ['E', 'D', 'L', 'H'] : []);
  if (first === 1 || first === 2)
    passed.push(second === 1 ? (first === 1 ? ['L'] : ['A']) : second === 2 ? ['E', 'D'] : []);
  passed.forEach((registers, i) => {
    const mask = params[i] && bit.get(params[i]);
    if (mask) for (const r of registers) regs[SLOT.get(r)!] = mask;
  });
  return regs;
}

/** Bytes of arguments a function removes itself: SDCC returns from such a one by pop hl, inc sp / pop af …, jp (hl). */
export function calleeCleanup(bytes: Uint8Array, start: number): number {
  const code: Z80Access[] = [];
  for (let at = 0; at < bytes.length;) {
    const a = decodeZ80(bytes, at, start + at);
    code.push(a);
    at += a.length;
  }
  for (let i = code.length - 1; i > 0; i--) {
    if (code[i].flow.kind !== 'indirect' || code[i].reads[0] !== 'H') continue;
    let n = 0;
    let k = i - 1;
    for (; k > 0 && restores(code[k]) && !isPopHl(code[k]); k--) n += code[k].stack!.kind === 'pop' ? 2 : 1;
    if (isPopHl(code[k])) return n;
  }
  return 0;
}

const isPopHl = (a: Z80Access) => a.stack?.kind === 'pop' && a.stack.regs[0] === 'H';
const isJpNn = (a: Z80Access) => a.flow.kind === 'jump' && !a.flow.cond && a.length === 3;
