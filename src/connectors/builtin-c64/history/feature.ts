/**
 * The built-in C64's TIME_TRAVEL_FEATURE: its monitor server's history,
 * used while the machine is stopped. After a move the registers go to the
 * VICE client as an event (so its cache is the past's), a round trip makes
 * sure it took them, and a 'goto' stop is published on the target's events.
 */
import { notStopped, unsupported } from '../../../core/errors.js';
import type { TargetEmitter } from '../../../core/target.js';
import type { InstructionTrace, RecordedStop, TimeTravel, WriteRecord } from '../../../core/time-travel.js';

const MAX_STOPS = 200;
import type { ViceConnection } from '../../vice/vice-connection.js';
import type { BuiltinMonitorServer } from '../monitor-server.js';
import { SNAPSHOT_FRAMES } from './recorder.js';

export class BuiltinTimeTravel implements TimeTravel {
  readonly granularity = `exact to the cycle: the built-in C64 keeps a snapshot every ${SNAPSHOT_FRAMES} frames (and at each change made at a stop) and replays from one to any instruction boundary with the same cycles, registers and memory`;

  /** stops as they happened (bounded); a stop before later ones means the future was dropped, so they go */
  private readonly recorded: RecordedStop[] = [];

  constructor(
    private readonly server: BuiltinMonitorServer,
    private readonly vice: ViceConnection,
    private readonly events: TargetEmitter,
  ) {
    events.on((e) => {
      if (e.type !== 'stopped' || e.stop.reason === 'goto') return;
      const cycle = server.machine.cpu.cycles;
      while (this.recorded.length && this.recorded[this.recorded.length - 1].cycle >= cycle) this.recorded.pop();
      this.recorded.push({ cycle, reason: e.stop.reason, pc: e.stop.pc });
      if (this.recorded.length > MAX_STOPS) this.recorded.shift();
    });
  }

  stops(): RecordedStop[] {
    const span = this.span();
    return this.recorded.filter((s) => s.cycle >= span.startCycle && s.cycle <= span.endCycle);
  }

  span() {
    this.requireOn();
    return this.server.history.travel.span();
  }

  async goTo(cycle: number, quiet = false): Promise<void> {
    this.requireStopped('travel in time');
    const travel = this.server.history.travel;
    travel.goTo(cycle);
    this.server.announceRegisters();
    await this.vice.listCheckpoints(); // in order after the event: the client holds the new registers
    if (quiet) return;
    const pc = this.server.machine.cpu.pc;
    const span = travel.span();
    const frame = (c: number) => Math.floor(c / span.cyclesPerFrame);
    const pastFrame = travel.inPast ? { frame: frame(span.nowCycle), present: frame(span.endCycle) } : undefined;
    this.events.emit({ type: 'stopped', stop: { reason: 'goto', pc, inPast: travel.inPast, pastFrame } });
  }

  async trace(before: number): Promise<InstructionTrace | undefined> {
    this.requireStopped('read the history');
    return this.server.history.travel.trace(before);
  }

  async lastWrite(address: number, length: number, before: number): Promise<WriteRecord | undefined> {
    this.requireStopped('search the history');
    return this.server.history.travel.lastWrite(address, length, before);
  }

  private requireOn(): void {
    const off = this.server.history.recorder.off;
    if (off) throw unsupported(`No time travel: ${off}.`, { history: 'off' });
  }

  private requireStopped(what: string): void {
    this.requireOn();
    if (this.server.isRunning) throw notStopped('running', { action: what });
  }
}
