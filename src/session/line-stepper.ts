import type { StopInfo, Target } from '../targets/target.js';
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
    private readonly target: Target,
    private readonly index: DebugIndex | undefined,
    private readonly armStop: () => Promise<StopInfo>,
  ) {}

  async instruction(kind: StepKind): Promise<StopInfo> {
    const stop = this.armStop();
    if (kind === 'into') await this.target.stepInstruction(1);
    else if (kind === 'over') await this.target.stepOver();
    else await this.target.stepOut();
    return stop;
  }

  async line(kind: StepKind, pc: number): Promise<StopInfo> {
    const index = this.index;
    if (!index || !index.lineAt(pc)) return this.instruction(kind === 'into' ? 'into' : kind);
    if (kind === 'out') return this.instruction('out');

    let stop: StopInfo | undefined;
    for (let leg = 0; leg < MAX_LEGS; leg++) {
      const here = stop?.pc ?? pc;
      const armed = this.armStop();
      const line = index.lineAt(here);
      if (line) await this.target.stepRange(index.lineRanges(here), kind);
      else await this.target.stepOut();   // no line info: a helper or the startup code
      stop = await armed;
      if (stop.reason !== 'step') return stop;   // breakpoint, watchpoint, pause win
      // Leaving the line's ranges at the start of a line is a finished C step;
      // anywhere else (mid-line in a caller, no line info) needs another leg.
      if (index.lineAt(stop.pc) && index.isLineStart(stop.pc)) return stop;
    }
    return stop!;
  }
}
