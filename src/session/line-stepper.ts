import type { StopInfo, TargetBreakpoints, TargetRun } from '../core/target.js';
import type { DebugIndex } from '../debuginfo/index.js';

export type StepKind = 'into' | 'over' | 'out';

/** Bounds the follow-up steps of one C-line step (returns into mid-line code, helper calls). */
const MAX_LEGS = 64;

/**
 * Turns machine steps into C-line steps. Each leg is one emulator-side
 * `stepRange` (one round trip per line); follow-up legs happen only when PC
 * lands mid-line (e.g. after returning into the caller) or in code without
 * line info (runtime helpers), which we step out of.
 *
 * `armStop` must be called before issuing a command: it returns the promise
 * of the next stop, so a fast stop cannot slip past.
 */
export class LineStepper {
  constructor(
    /** the target's facets, refused by the session with 'unsupported' when it lacks them */
    private readonly target: () => { run: TargetRun; breakpoints: TargetBreakpoints },
    private readonly index: DebugIndex | undefined,
    private readonly armStop: (timeoutMs?: number) => Promise<StopInfo>,
    /** the innermost caller's resume address, from the unwinder; undefined when unknown */
    private readonly returnAddress: () => Promise<number | undefined>,
  ) {}

  /**
   * Runs until `address` with a temporary breakpoint. A stop there reads as
   * `reason`; any other stop (a user breakpoint, a pause) is returned as it is.
   */
  async runTo(address: number, reason: StopInfo['reason'], timeoutMs?: number): Promise<StopInfo> {
    const { run, breakpoints } = this.target();
    const bp = await breakpoints.set({ space: 'cpu', offset: address });
    try {
      const armed = this.armStop(timeoutMs);
      await run.resume();
      const stop = await armed;
      return stop.breakpointId === bp ? { ...stop, reason, breakpointId: undefined } : stop;
    } finally {
      await breakpoints.clear(bp).catch(() => undefined);
    }
  }

  /**
   * Step out through the call stack rather than the emulator's "out": SDCC
   * functions may return with `jp (hl)`, which an instruction-level out does
   * not see as a return.
   */
  async out(): Promise<StopInfo> {
    const ret = await this.returnAddress();
    return ret === undefined ? this.instruction('out') : this.runTo(ret, 'step');
  }

  async instruction(kind: StepKind): Promise<StopInfo> {
    const { run } = this.target();
    const stop = this.armStop();
    if (kind === 'into') await run.stepInstruction(1);
    else if (kind === 'over') await run.stepOver();
    else await run.stepOut();
    return stop;
  }

  async line(kind: StepKind, pc: number): Promise<StopInfo> {
    const index = this.index;
    if (kind === 'out') return this.out();
    if (!index || !index.lineAt(pc)) return this.instruction(kind);

    const { run } = this.target();
    let stop: StopInfo | undefined;
    for (let leg = 0; leg < MAX_LEGS; leg++) {
      const here = stop?.pc ?? pc;
      const armed = this.armStop();
      const line = index.lineAt(here);
      if (line) await run.stepRange(index.lineRanges(here), kind);
      else await run.stepOut(); // no line info: a helper or the startup code
      stop = await armed;
      if (stop.reason !== 'step') return stop; // breakpoint, watchpoint, pause win
      // Leaving the line's ranges at the start of a line is a finished C step;
      // anywhere else (mid-line in a caller, no line info) needs another leg.
      if (index.lineAt(stop.pc) && index.isLineStart(stop.pc)) return this.skipPrologue(kind, stop);
    }
    return stop!;
  }

  /** Stepping into a function lands on its first body line, not on its frame set-up. */
  private async skipPrologue(kind: StepKind, stop: StopInfo): Promise<StopInfo> {
    const fn = kind === 'into' ? this.index?.functionAt(stop.pc) : undefined;
    if (!fn || stop.pc !== fn.start) return stop;
    const body = this.index!.bodyStart(fn);
    if (body === fn.start) return stop;
    const armed = this.armStop();
    await this.target().run.stepRange([[fn.start, body - 1]], 'over');
    return armed;
  }
}
