/**
 * Runs a suite's tests one by one on a HeadlessMachine: each test starts from
 * a freshly started program (so a test that crashes or corrupts memory harms
 * no other), is called from retro_test.h's loop, and is measured from its
 * first instruction to its return in machine cycles. What goes wrong in one
 * test (no return within the limits, a crash, a corrupted mailbox) is that
 * test's result; the rest still run.
 */
import type { HeadlessMachine, HeadlessStop } from '../core/headless.js';
import { hex } from '../core/hex.js';
import type { DebugIndex } from '../debuginfo/index.js';
import { cString, failureMessage, MAILBOX_BYTES, readMailbox, RUN_OFFSET, type CharDecoder } from './mailbox.js';
import { callStack, describePlace, returnAddress } from './stack.js';
import type { TestCase, TestSuite } from './suite.js';

export type TestStatus = 'passed' | 'failed' | 'error';

export interface TestResult {
  name: string;
  functionName: string;
  /** where the test is defined */
  file?: string;
  line?: number;
  status: TestStatus;
  /** what failed or went wrong; absent when passed */
  message?: string;
  /** the first failing expectation's place and values */
  failure?: { file: string; line: number; expected?: number; actual?: number };
  /** machine cycles from the test's first instruction to its return (RTS included) */
  cycles?: number;
  budget?: number;
  checks?: number;
  /** wall time of this test, start-up included */
  ms: number;
  /** innermost first, for a timeout or crash */
  stack?: string[];
}

export interface RunLimits {
  /** machine cycles one test may take before it is a timeout */
  maxCycles: number;
  /** wall-clock seconds one test may take */
  maxSeconds: number;
}

export const DEFAULT_LIMITS: RunLimits = { maxCycles: 50_000_000, maxSeconds: 10 };
/** cycles for the program's start-up (C runtime init) to reach retro_test_ready */
const BOOT_CYCLES = 5_000_000;

export interface RunContext {
  machine: HeadlessMachine;
  program: Uint8Array;
  index: DebugIndex;
  suite: TestSuite;
  decode: CharDecoder;
  limits?: RunLimits;
  /** called after each test */
  onResult?: (result: TestResult) => void;
}

export async function runSuite(ctx: RunContext, filter?: (t: TestCase) => boolean): Promise<TestResult[]> {
  const tests = filter ? ctx.suite.tests.filter(filter) : ctx.suite.tests;
  const out: TestResult[] = [];
  for (const test of tests) {
    const started = Date.now();
    const result = { ...(await runOne(ctx, test)), ms: Date.now() - started };
    out.push(result);
    ctx.onResult?.(result);
  }
  return out;
}

type Outcome = Omit<TestResult, 'ms'>;

async function runOne(ctx: RunContext, test: TestCase): Promise<Outcome> {
  const base = { name: test.name, functionName: test.functionName, file: test.file, line: test.line };
  const error = (message: string, stack?: string[]): Outcome => ({ ...base, status: 'error', message, stack });
  const harness = ctx.suite.harness;
  if (!harness) return error(ctx.suite.missing ?? 'the program has no retro_test.h runner');
  const { machine: m, index } = ctx;
  const limits = ctx.limits ?? DEFAULT_LIMITS;
  const deadline = Date.now() + limits.maxSeconds * 1000;
  await m.start(ctx.program);
  const boot = await m.runUntil([harness.ready], BOOT_CYCLES, deadline);
  if (boot.kind !== 'reached') return error(`the program did not reach retro_test_ready: ${stopText(boot, index)}`);
  const before = readMailbox(await m.read(harness.mailbox, MAILBOX_BYTES));
  if (!before.ok) return error(before.reason);
  const budget = test.budgetAddress === undefined ? undefined : u32(await m.read(test.budgetAddress, 4));
  await m.write(harness.mailbox + RUN_OFFSET, new Uint8Array([test.address & 0xff, test.address >> 8]));
  const enter = await m.runUntil([test.address], BOOT_CYCLES, deadline);
  if (enter.kind !== 'reached') return error(`the test was not called: ${stopText(enter, index)}`);
  const entry = await m.state();
  const back = await returnAddress(m, entry.sp);
  let leave: HeadlessStop;
  let now = entry;
  // the return address may also be reached deeper down (a recursive test): only the return to our caller counts
  do {
    leave = await m.runUntil([back], limits.maxCycles - (now.cycles - entry.cycles), deadline);
    now = await m.state();
  } while (leave.kind === 'reached' && now.sp <= entry.sp);
  const cycles = now.cycles - entry.cycles;
  if (leave.kind === 'limit') {
    const what = leave.reason === 'cycles' ? `${limits.maxCycles} cycles` : `${limits.maxSeconds} s`;
    return { ...error(`timeout: the test did not return within ${what}`, await callStack(m, index)), cycles };
  }
  if (leave.kind === 'crash')
    return { ...error(`crash: ${stopText(leave, index)}`, await callStack(m, index, leave.pc)), cycles };
  const after = await m.runUntil([harness.ready], BOOT_CYCLES, deadline);
  if (after.kind !== 'reached') return error(`after the test returned: ${stopText(after, index)}`);
  const read = readMailbox(await m.read(harness.mailbox, MAILBOX_BYTES));
  if (!read.ok) return { ...error(read.reason), cycles };
  const box = read.mailbox;
  const measured = { ...base, cycles, budget, checks: box.checks };
  if (box.failures) {
    const str = async (p: number) => cString(await m.read(p, 160), ctx.decode);
    return {
      ...measured,
      status: 'failed',
      message: failureMessage(box, await str(box.textPointer)),
      failure: { file: await str(box.filePointer), line: box.line, expected: box.expected, actual: box.actual },
    };
  }
  if (budget !== undefined && cycles > budget)
    return { ...measured, status: 'failed', message: `over budget: ${cycles} cycles, the budget is ${budget}` };
  return { ...measured, status: 'passed' };
}

function stopText(stop: HeadlessStop, index: DebugIndex): string {
  if (stop.kind === 'crash') return `${stop.reason} at ${describePlace(index, stop.pc)}`;
  if (stop.kind === 'limit') return `no progress within the ${stop.reason} limit (at ${describePlace(index, stop.pc)})`;
  return `stopped at ${hex(stop.pc, 4, '$')}`;
}

function u32(b: Uint8Array): number {
  return (b[0] | (b[1] << 8) | (b[2] << 16)) + b[3] * 0x1000000;
}
