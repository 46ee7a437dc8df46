/**
 * The built-in C64's machine state as one value: CPU, RAM, colour RAM,
 * VIC-II (registers and raster sequencer), both CIAs, SID voice 3, the
 * KERNAL stand-in's and screen editor's state, the keyboard queue. Not in
 * it: checkpoints, watch flags and run control (the debugger's, not the
 * machine's), the picture buffers (redrawn by running), and device 8's
 * open files (host files: history/replay.ts documents the limit). The
 * history's snapshots use it; a save-state format can serialize it
 * (typed arrays and plain data only: `v8.serialize` takes it as is).
 */
import type { BuiltinC64 } from './c64.js';
import { captureState, restoreState, stateBytes, type StateNode } from './state-walk.js';

export interface MachineState {
  readonly cycle: number;
  readonly root: StateNode;
  /** what the state holds in memory, in bytes */
  readonly bytes: number;
}

/**
 * Fields of the machine itself that are the debugger's: checkpoint numbering, run mode, the replay flag; and the
 * optional callbacks (viewers' and the history's frame clocks), wiring that a restore must leave as it is.
 */
const RUN_CONTROL = new Set([
  'nextCheckpoint',
  'mode',
  'resumeAtStop',
  'quiet',
  'checkpoints',
  'breaks',
  'trapBreaks',
  'onFrame',
  'onHistoryFrame',
]);
/** the CPU's instruction observer (a profiler's): wiring too */
const CPU_WIRING = new Set(['onInstruction']);

function notState(m: BuiltinC64): Set<object> {
  const raster = m.bus.raster as unknown as Record<string, object>;
  return new Set<object>([m.bus.watch, m.bus.watchHits, m.bus.written, m.checkpoints, raster.live, raster.last]);
}

export function captureMachine(m: BuiltinC64): MachineState {
  const skipKeys = new Map<object, ReadonlySet<string>>([
    [m, RUN_CONTROL],
    [m.cpu, CPU_WIRING],
  ]);
  const root = captureState(m, notState(m), skipKeys);
  return { cycle: m.cpu.cycles, root, bytes: stateBytes(root) };
}

/** Puts the machine back as captured; it is left stopped there (resuming runs the instruction at pc). */
export function restoreMachine(m: BuiltinC64, state: MachineState): void {
  restoreState(m, state.root);
  m.continueRunning();
  m.noteStopped();
}
