/**
 * The built-in C64's history as its monitor server keeps it: the monitor
 * commands that change the machine at a stop are inputs (a snapshot there),
 * a reset or autostart starts the history again, and any resume leaves the
 * past (the recorded future is dropped).
 */
import { Cmd } from '../../vice/protocol.js';
import { CYCLES_PER_FRAME, type BuiltinC64 } from '../c64.js';
import { DEFAULT_HISTORY, HistoryRecorder, type HistoryBudget } from './recorder.js';
import { MachineTravel } from './travel.js';

/** Commands whose effect on the machine a replay could not repeat by running. */
const INPUTS = new Set<number>([Cmd.MEM_SET, Cmd.REGISTERS_SET, Cmd.KEYBOARD_FEED, Cmd.JOYPORT_SET, Cmd.RESOURCE_SET]);
/** a loaded snapshot is a past the history never recorded: it starts again there, as after a reset */
const RESTARTS = new Set<number>([Cmd.RESET, Cmd.AUTOSTART, Cmd.UNDUMP]);

export const DEFAULT_BUDGET: HistoryBudget = {
  seconds: DEFAULT_HISTORY.seconds,
  maxBytes: DEFAULT_HISTORY.maxMegabytes * 2 ** 20,
};

export class MachineHistory {
  readonly recorder: HistoryRecorder;
  readonly travel: MachineTravel;

  constructor(machine: BuiltinC64, budget: HistoryBudget = DEFAULT_BUDGET) {
    this.recorder = new HistoryRecorder(machine, budget, CYCLES_PER_FRAME);
    this.travel = new MachineTravel(machine, this.recorder);
    this.recorder.restart();
  }

  /** A monitor command was handled (the machine is stopped, or resumed by it). */
  commandDone(command: number): void {
    if (RESTARTS.has(command)) {
      this.travel.forget();
      this.recorder.restart();
    } else if (INPUTS.has(command)) {
      this.travel.leavePast();
      this.recorder.changed();
    }
  }

  /** The machine runs again from where it is. */
  resumed(): void {
    this.travel.leavePast();
  }
}
