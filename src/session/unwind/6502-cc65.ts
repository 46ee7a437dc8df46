import type { DebugIndex } from '../../debuginfo/index.js';
import type { FunctionInfo } from '../../debuginfo/model.js';
import { CC65_FRAME_REGISTER } from '../../debuginfo/cc65-dbg.js';
import type { Register } from '../../core/target.js';
import { instructionLength } from '../../cpu/6502/cpu6502.js';
import { registerValue, type RawFrame, type ReadMemory } from './frames.js';
import { fastcallBytes, localBytes, paramBytes } from './cc65-frame-sizes.js';
import { pushedBeforeCall, pushedSince } from './cc65-pushes.js';
import { placeRegvars } from './cc65-regvars.js';
import { depthAt, inBlock, settledDepth } from './cc65-blocks.js';

const MAX_DEPTH = 32;
const OP_JSR = 0x20;
/** the symbol the cc65 parser records for the zero-page C stack pointer */
const SP_SYMBOL = '__cc65_sp__';

/** What one unwinding reads through: the debug info, the memory, and where cc65's `sp` is (when the info names it). */
interface Unwinding {
  index: DebugIndex;
  read: ReadMemory;
  spAddress: number | undefined;
}

/**
 * Call stack of cc65-compiled 6502 code. Return addresses are on the
 * hardware stack (page 1): a word w is one when the byte at w-2 is a JSR and
 * w+1 lies in a C function. Locals live on cc65's software stack, addressed
 * by the zero-page `sp`; each frame gets CSP = the C stack pointer at its
 * function's entry (locals are at negative offsets, parameters at positive
 * ones). At a statement boundary the function's locals are allocated, so
 * entry = sp + their size. A caller's sp at its call is the callee's entry
 * less the fastcall parameter the callee pushed itself; above it are what the
 * caller pushed in that statement before the call (operands of the
 * expression, the callee's other arguments: cc65-pushes.ts counts them), then
 * its locals. Where that cannot be told, the callee's entry + the parameters
 * it pops stands in (right when the statement pushed nothing else).
 */
export async function unwind6502Cc65(
  regs: Register[],
  index: DebugIndex,
  read: ReadMemory,
  depth = MAX_DEPTH,
): Promise<RawFrame[]> {
  const pc = registerValue(regs, 'PC') ?? 0;
  const s = registerValue(regs, 'SP') ?? 0xff;
  const spAddress = index.info.symbols.find((x) => x.name === SP_SYMBOL)?.address;
  const cspBytes = spAddress !== undefined ? await read(spAddress, 2) : undefined;
  const csp = cspBytes ? cspBytes[0] | (cspBytes[1] << 8) : undefined;

  const frames: RawFrame[] = [];
  const fn = index.functionAt(pc);
  const allocated = fn && csp !== undefined ? await allocatedAt(fn, pc, index, read, spAddress, csp) : undefined;
  const entry = allocated !== undefined ? csp! + allocated : undefined;
  frames.push({
    pc,
    sp: s,
    frameRegs: entry !== undefined ? { [CC65_FRAME_REGISTER]: entry } : {},
    registersValid: true,
    localsDepth: allocated,
  });
  // at a runtime routine's first instruction (a breakpoint on `tosmula0`) sp is still its C caller's at the JSR
  const routineEntry = !fn && index.symbolAt(pc) !== undefined ? csp : undefined;
  if (depth > 1) await callers(frames, fn, entry, regs, { index, read, spAddress }, routineEntry);
  // only cc65's own debug info has register variables (assembly listings have no C)
  if (index.info.format === 'cc65-dbg') await placeRegvars(frames, index, read);
  return frames;
}

/** The calling frames, pushed onto `frames`: JSR return addresses on the hardware stack above S. */
async function callers(
  frames: RawFrame[],
  fn: FunctionInfo | undefined,
  entry: number | undefined,
  regs: Register[],
  u: Unwinding,
  /** the C stack pointer at the JSR of the caller directly above, when known */
  spAtCall?: number,
): Promise<void> {
  const s = registerValue(regs, 'SP') ?? 0xff;
  const { index, read } = u;
  const stack = await read(0x100, 0x100);
  for (let at = s + 1; at < 0xff && frames.length < MAX_DEPTH; at++) {
    const word = stack[at] | (stack[at + 1] << 8);
    const ret = (word + 1) & 0xffff;
    const caller = index.functionAt(ret);
    if (!caller || word < 2 || (await read(word - 2, 1))[0] !== OP_JSR) continue;
    if (entry !== undefined && fn) entry = await callerEntry(u, fn, entry, caller, word - 2);
    else if (spAtCall !== undefined && at === s + 1) entry = await entryAbove(u, spAtCall, caller, word - 2);
    else entry = undefined;
    frames.push({
      pc: ret,
      sp: (at + 1) & 0xff,
      frameRegs: entry !== undefined ? { [CC65_FRAME_REGISTER]: entry } : {},
      registersValid: false,
      localsDepth: settledDepth(caller, word - 2, index),
    });
    fn = caller;
    at++;
  }
}

/**
 * The C stack pointer at `caller`'s entry from its own (`atCall`) at its JSR `call` into a routine without C. A call
 * in the first body line shares that line's code with the prologue's allocations: all pushed since the entry counts.
 */
async function entryAbove(
  u: Unwinding,
  atCall: number,
  caller: FunctionInfo,
  call: number,
): Promise<number | undefined> {
  if (call > prologueEnd(caller, u.index)) return entryFromCall(u, atCall, atCall, caller, call);
  if (u.spAddress === undefined) return undefined;
  const pushed = await pushedSince(caller.start, call, u.index, u.read, u.spAddress, atCall);
  return pushed === undefined ? undefined : atCall + pushed - fastcallBytes(caller);
}

/** The last byte of the first body line's code, where cc65's prologue allocates the locals. */
function prologueEnd(fn: FunctionInfo, index: DebugIndex): number {
  const body = index.bodyStart(fn);
  return Math.max(body, ...index.lineRanges(body).map((r) => r[1]));
}

/** The C stack pointer at `caller`'s entry, from its callee's entry and the call at `call`. */
async function callerEntry(
  u: Unwinding,
  callee: FunctionInfo,
  calleeEntry: number,
  caller: FunctionInfo,
  call: number,
): Promise<number> {
  // the statement pushed nothing but the arguments, unless its count says more
  const atCall = calleeEntry + fastcallBytes(callee);
  return entryFromCall(u, atCall, calleeEntry + paramBytes(callee), caller, call);
}

/** The C stack pointer at `caller`'s entry from its own at the call (`atCall`) and a first guess of the statement's start. */
async function entryFromCall(
  { index, read, spAddress }: Unwinding,
  atCall: number,
  guess: number,
  caller: FunctionInfo,
  call: number,
): Promise<number> {
  let start = guess;
  if (spAddress !== undefined) {
    // run the statement again from where its own count says it started: its code may read locals through sp
    for (let tries = 0; tries < 2; tries++) {
      const pushed = await pushedBeforeCall(call, index, read, spAddress, start);
      if (pushed === undefined || atCall + pushed === start) break;
      start = atCall + pushed;
    }
  }
  return start + settledDepth(caller, call, index);
}

/**
 * Bytes of locals already allocated at `pc`. cc65 allocates them at the
 * start of the function (push0/pushax for initialised ones, decspN for the
 * others, the saves of register variables), after the JSR that pushes the
 * fastcall parameter (the one at offset 0); that code belongs to the `{`
 * line and the first body lines, so a stop there may come before some of
 * it: the prologue is run up to `pc` (cc65-pushes.ts). Inside the body, the
 * blocks' locals count too (cc65-blocks.ts).
 */
async function allocatedAt(
  fn: FunctionInfo,
  pc: number,
  index: DebugIndex,
  read: ReadMemory,
  spAddress: number | undefined,
  sp: number,
): Promise<number | undefined> {
  const all = localBytes(fn);
  const end = prologueEnd(fn, index);
  // past the prologue, or in a block (a `for` line's code may come after its block's)
  if (all === 0 || pc > end || inBlock(fn, pc, index)) return depthAt(fn, pc, index, read, spAddress, sp);
  // the prologue run from the entry on a scratch copy: what it pushed less the fastcall parameter's push
  if (spAddress !== undefined && pc > fn.start) {
    const pushed = await pushedSince(fn.start, pc, index, read, spAddress, sp);
    if (pushed !== undefined) return Math.min(all, Math.max(0, pushed - fastcallBytes(fn)));
  }
  // else one JSR a declaration (a register parameter's swap through the runtime would count too)
  const code = await read(fn.start, end - fn.start + 1);
  const jsrs: number[] = [];
  for (let at = 0; at < code.length;) {
    if (code[at] === OP_JSR) jsrs.push(fn.start + at);
    at += instructionLength(code[at]);
  }
  if (fn.params.some((p) => p.storage.kind === 'frame' && p.storage.offset === 0)) jsrs.shift(); // the fastcall push
  // each auto local's bytes and each register local's saved bank bytes (pushax after lda/ldx regbank)
  const locals = fn.locals
    .map((v) =>
      v.storage.kind === 'frame' && v.storage.offset < 0 && !v.lines
        ? -v.storage.offset
        : v.storage.kind === 'zp-register' && v.storage.save !== undefined
          ? -v.storage.save
          : 0,
    )
    .filter((depth) => depth > 0)
    .sort((a, b) => a - b);
  let allocated = 0;
  locals.forEach((depth, i) => {
    const jsr = jsrs[i];
    if (jsr !== undefined && jsr < pc) allocated = depth;
  });
  return allocated;
}
