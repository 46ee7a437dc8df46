/**
 * Breakpoint changes wait for a line step in flight. On VICE (and the built-in C64 behind its monitor) each change
 * while the machine runs is a hidden stop and a resume; clients setting and clearing breakpoints back to back kept
 * the machine stopped for their commands, so another client's step into never reached its stop (issue 30: 10,000
 * hidden stops at one PC in 5 s). A change that comes during a step waits for the step's stop, or for the next
 * window boundary of a long step (every WINDOW_MS from its start), so the machine runs a window between batches.
 */
const WINDOW_MS = 250;

export class StepGate {
  private current?: { done: Promise<void>; started: number };

  /** A step runs until `run` settles. */
  during(run: Promise<unknown>): void {
    const done = run.then(
      () => undefined,
      () => undefined,
    );
    const current = { done, started: Date.now() };
    this.current = current;
    void done.then(() => {
      if (this.current === current) this.current = undefined;
    });
  }

  /** Resolves when the emulator's breakpoints may be touched: no step in flight, its stop, or its next window. */
  wait(): Promise<void> {
    const current = this.current;
    if (!current) return Promise.resolve();
    const left = WINDOW_MS - ((Date.now() - current.started) % WINDOW_MS);
    let timer: NodeJS.Timeout | undefined;
    const window = new Promise<void>((resolve) => (timer = setTimeout(resolve, left)));
    return Promise.race([current.done, window]).finally(() => clearTimeout(timer));
  }
}
