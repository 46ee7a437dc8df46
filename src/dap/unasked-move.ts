/**
 * A time-travel move VS Code did not ask for as a run (a custom request such as "Who Last Wrote This?", the screen
 * panel's timeline): VS Code takes its own step requests as running the thread, but not these, and then shows the
 * last stop's words over the move's stop. So it hears the thread run first; a move that fails reports the stop again,
 * so VS Code does not show it running.
 */
import type { DapNotifier } from './dap-notifier.js';

export async function unaskedMove(
  notify: DapNotifier,
  binding: { reportCurrentStop(): Promise<void> },
  move: () => Promise<void>,
): Promise<void> {
  notify.continuedAhead();
  try {
    await move();
  } catch (err) {
    await binding.reportCurrentStop();
    throw err;
  }
}
