/** How a session stop reads in VS Code: the DAP `reason` and a short description. */
import { basename } from 'node:path';
import type { SourceLocation } from '../session/types.js';
import type { StopInfo, StopReason } from '../core/target.js';

const REASONS: Record<StopReason, string> = {
  entry: 'entry',
  breakpoint: 'breakpoint',
  watchpoint: 'data breakpoint',
  step: 'step',
  pause: 'pause',
  goto: 'goto',
  exception: 'exception',
  unknown: 'pause',
};

const WORDS: Record<StopReason, string> = {
  entry: 'Stopped at entry',
  breakpoint: 'Paused on breakpoint',
  watchpoint: 'Paused on data breakpoint',
  step: 'Stepped',
  pause: 'Paused',
  goto: 'Went back in time', // a time-travel move (the only stops with this reason); the present: below
  exception: 'Stopped on exception',
  unknown: 'Stopped',
};

export function dapStopReason(reason: StopReason): string {
  return REASONS[reason] ?? 'pause';
}

export function describeStop(stop: StopInfo, location?: SourceLocation): string {
  const pc = `0x${stop.pc.toString(16).toUpperCase().padStart(4, '0')}`;
  const where = location
    ? `${location.function ? `${location.function}, ` : ''}${basename(location.path ?? location.file)}:${location.line}`
    : `PC ${pc}`;
  const frame = stop.pastFrame ? `, frame ${stop.pastFrame.frame} of ${stop.pastFrame.present}` : '';
  const past = stop.inPast
    ? ` — time travel: in the past${frame}, read-only (resuming discards the later history)`
    : '';
  const words = stop.reason === 'goto' && stop.inPast === false ? 'Back at the present' : WORDS[stop.reason];
  return `${words ?? 'Stopped'} (${where})${past}`;
}
