/**
 * Where cc65 `register` variables are, frame by frame. cc65 keeps them in
 * the zero-page register bank; a function's prologue saves the caller's bank
 * bytes on the C stack (a register parameter's own stack slot takes the
 * caller's bytes in exchange for its value, in the opening line's code; a
 * register local's save is the code of its declaration), and its exit
 * restores them. So a register variable is its function's only from the end
 * of the line that saved it (parameters: the body's start) to the restoring
 * code, the last access of its bytes (or the copy loop holding it); outside
 * that the bank holds a caller's values. A caller's register variable is
 * wherever the nearest inner frame saved those bytes, else the bank itself.
 */
import type { DebugIndex } from '../../debuginfo/index.js';
import type { FunctionInfo, Variable } from '../../debuginfo/model.js';
import { CC65_FRAME_REGISTER } from '../../debuginfo/cc65-dbg.js';
import { LENGTH, Mode, OPCODES } from '../../cpu/6502/opcodes.js';
import { sizeOf } from '../../debuginfo/values.js';
import type { RawFrame, ReadMemory, RegvarPlace } from './frames.js';

/** Longer functions are not followed (their register variables show as not available). */
const MAX_FUNCTION_BYTES = 16384;
/** An indexed access this far below a variable may reach it (cc65's copy loops: `sta regbank+1,x`). */
const BANK_BYTES = 6;

interface Range {
  from: number;
  to: number;
}

type Ranges = Map<Variable, Range | undefined>;

const cache = new WeakMap<FunctionInfo, Promise<Ranges>>();

const registerVars = (fn: FunctionInfo) => [...fn.params, ...fn.locals].filter((v) => v.storage.kind === 'zp-register');

/** Fills each frame's `regvars`: where its function's register variables are, or why not. */
export async function placeRegvars(frames: RawFrame[], index: DebugIndex, read: ReadMemory): Promise<void> {
  const fns = frames.map((f) => index.functionAt(f.pc));
  const ranges = await Promise.all(
    fns.map((fn) => (fn && registerVars(fn).length ? rangesOf(fn, index, read) : undefined)),
  );
  // the address each frame executes at: a caller's is inside its call
  const at = (i: number) => (i === 0 ? frames[0].pc : frames[i].pc - 1);
  const live = (i: number, v: Variable) => {
    const r = ranges[i]?.get(v);
    return !!r && r.from <= at(i) && at(i) < r.to;
  };
  frames.forEach((frame, i) => {
    const fn = fns[i];
    if (!fn || !ranges[i]) return;
    const places = new Map<string, RegvarPlace>();
    for (const v of registerVars(fn))
      places.set(v.name, live(i, v) ? placeOf(v, i) : { reason: notLive(v, ranges[i]!.get(v), at(i), fn, index) });
    frame.regvars = places;
  });

  function placeOf(v: Variable, i: number): RegvarPlace {
    const s = v.storage as { address: number };
    const addresses: number[] = [];
    for (let k = 0; k < sizeOf(v.type); k++) {
      const byte = s.address + k;
      let where = byte;
      // the nearest inner frame that saved this byte holds the value this frame sees
      for (let j = i - 1; j >= 0; j--) {
        const w = fns[j] && ranges[j] ? registerVars(fns[j]!).find((x) => covers(x, byte) && live(j, x)) : undefined;
        if (!w) continue;
        const ws = w.storage as { address: number; save?: number };
        const csp = frames[j].frameRegs[CC65_FRAME_REGISTER];
        if (ws.save === undefined || csp === undefined)
          return { reason: `not available here: ${fns[j]!.name} saved it where its frame cannot be found` };
        where = (csp + ws.save + byte - ws.address) & 0xffff;
        break;
      }
      addresses.push(where);
    }
    return { addresses };
  }
}

function covers(v: Variable, byte: number): boolean {
  const s = v.storage as { address: number };
  return byte >= s.address && byte < s.address + sizeOf(v.type);
}

function notLive(v: Variable, r: Range | undefined, pc: number, fn: FunctionInfo, index: DebugIndex): string {
  if (!r) return `not available here: ${fn.name}'s code could not be followed`;
  if (pc < r.from) {
    const line = index.lineAt(r.from)?.line;
    return `not available here: the register bank still holds the caller's value (${v.name} has it from line ${line ?? '?'})`;
  }
  return `not available here: ${fn.name} has given the register bank back to its caller`;
}

function rangesOf(fn: FunctionInfo, index: DebugIndex, read: ReadMemory): Promise<Ranges> {
  let ranges = cache.get(fn);
  if (!ranges) {
    const size = fn.end - fn.start + 1;
    ranges =
      size > 0 && size <= MAX_FUNCTION_BYTES
        ? read(fn.start, size).then((code) => regvarRanges(fn, code, index))
        : Promise.resolve(new Map(registerVars(fn).map((v) => [v, undefined])));
    ranges.catch(() => cache.delete(fn));
    cache.set(fn, ranges);
  }
  return ranges;
}

interface Access {
  address: number;
  /** the zero-page or absolute operand; `indexed`: the base of an indexed one */
  operand?: number;
  indexed?: boolean;
  /** a relative branch's target */
  branch?: number;
}

/** Each register variable's live range in `fn`, from its code (`code`: the bytes from fn.start). */
export function regvarRanges(fn: FunctionInfo, code: Uint8Array, index: DebugIndex): Ranges {
  const ins = decode(fn.start, code);
  const out: Ranges = new Map();
  const body = index.bodyStart(fn);
  for (const v of registerVars(fn)) {
    const touches = ins.map((a, k) => (touchesVar(a, v) ? k : -1)).filter((k) => k >= 0);
    if (!touches.length) {
      out.set(v, undefined);
      continue;
    }
    const from = fn.params.includes(v) ? body : lineEnd(ins, touches[0], index);
    const last = touches[touches.length - 1];
    // a restoring copy loop: from its start, the branch back's target
    let to = ins[last].address;
    for (const a of ins.slice(last + 1))
      if (a.branch !== undefined && a.branch <= ins[last].address) to = Math.min(to, a.branch);
    out.set(v, from < to ? { from, to } : undefined);
  }
  return out;
}

/** The address after the code of the C line that instruction k belongs to. */
function lineEnd(ins: Access[], k: number, index: DebugIndex): number {
  const line = index.lineAt(ins[k].address);
  for (let n = k + 1; n < ins.length; n++) {
    const here = index.lineAt(ins[n].address);
    if (here?.line !== line?.line || here?.file !== line?.file) return ins[n].address;
  }
  return Infinity;
}

function touchesVar(a: Access, v: Variable): boolean {
  if (a.operand === undefined) return false;
  const s = v.storage as { address: number };
  const last = s.address + sizeOf(v.type) - 1;
  if (a.indexed) return a.operand <= last && a.operand >= s.address - BANK_BYTES;
  return a.operand >= s.address && a.operand <= last;
}

function decode(start: number, code: Uint8Array): Access[] {
  const out: Access[] = [];
  for (let at = 0; at < code.length;) {
    const op = OPCODES[code[at]];
    const mode = op?.mode ?? Mode.IMP;
    const length = LENGTH[mode] ?? 1;
    const address = start + at;
    const a: Access = { address };
    const b1 = code[at + 1] ?? 0;
    const word = b1 | ((code[at + 2] ?? 0) << 8);
    if (mode === Mode.ZP || mode === Mode.IZX || mode === Mode.IZY) a.operand = b1;
    else if (mode === Mode.ABS && op.mnemonic !== 'JSR' && op.mnemonic !== 'JMP') a.operand = word;
    else if (mode === Mode.ZPX || mode === Mode.ZPY) Object.assign(a, { operand: b1, indexed: true });
    else if (mode === Mode.ABX || mode === Mode.ABY) Object.assign(a, { operand: word, indexed: true });
    else if (mode === Mode.REL) a.branch = (address + 2 + ((b1 << 24) >> 24)) & 0xffff;
    out.push(a);
    at += length;
  }
  return out;
}
