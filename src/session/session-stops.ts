/**
 * Stops the host judges before anyone sees them: a breakpoint's C condition,
 * hit count or logpoint (bp-hits.ts), a watchpoint's old → new value, accessor
 * and change-only rule (watch-hits.ts). Clients still see the CPU running
 * while a stop is decided; it is then published or resumed as if the CPU had
 * never paused.
 */
import { asRetroError } from '../core/errors.js';
import type { StopInfo } from '../core/target.js';
import { SessionCore } from './session-core.js';
import { judgeWatchStop } from './watch-hits.js';

export abstract class SessionStops extends SessionCore {
  protected override async decideStop(stop: StopInfo, ids: number[]): Promise<void> {
    const inspector = this.inspector;
    await this.settle(stop, async () => {
      const decision = await this.hits
        .decide(
          ids,
          {
            // the place whose last reads are replayed: this address with these breakpoints
            machine: async () => inspector!.conditionMachine(`${stop.pc}:${ids.join(',')}`),
            show: async (expression) => (await inspector!.evaluate(expression, 0)).value,
          },
          this.breakpoints.provenBy(stop.breakpointId),
        )
        .catch((err: unknown) => ({ stopping: ids, counted: ids, logs: [], errors: [asRetroError(err).message] }));
      for (const id of decision.counted) this.breakpoints.countHit(id);
      const tell = () => {
        const location = inspector?.location(stop.pc);
        for (const log of decision.logs) {
          const owner = this.breakpoints.get(log.id).owner.id;
          this.emit({ type: 'output', text: log.text });
          this.emit({ type: 'logpoint', breakpoint_id: log.id, owner, text: log.text, location });
        }
        for (const text of decision.errors) this.emit({ type: 'output', text });
      };
      return { tell, publish: decision.stopping.length ? () => this.publishStop(stop, decision.stopping) : undefined };
    });
  }

  /** A watchpoint's stop: old → new and the accessor; a change-only watch whose bytes did not change resumes. */
  protected override async decideWatch(stop: StopInfo): Promise<void> {
    const target = this.target!;
    await this.settle(stop, async () => {
      const { stopping } = await judgeWatchStop(stop, this.watchpoints, {
        cpu: target.info.cpu,
        read: (address, length) => target.memory.read(address, length),
        registers: () => this.facet('run').registers(),
        location: (pc) => this.inspector?.location(pc),
      });
      return { publish: stopping.length ? () => this.publishStop(stop, [], stopping) : undefined };
    });
  }

  /**
   * Decides a stop the host must judge while clients still see the CPU
   * running (conditions, change-only watches), then publishes it or resumes
   * as if the CPU had never paused. A pause asked for meanwhile takes the stop.
   */
  private async settle(
    stop: StopInfo,
    judge: () => Promise<{ publish?: () => void; tell?: () => void }>,
  ): Promise<void> {
    this.busy = true;
    this.deciding = true;
    const { publish, tell } = await judge();
    const paused = this.pauseWanted;
    this.deciding = false;
    // settled only now: nobody may see a stop that is about to be resumed
    if (!publish && !paused) {
      this.state = 'running';
      this.inspector?.invalidate();
    }
    this.busy = false;
    tell?.();
    if (publish) return publish();
    if (paused) return this.publishStop({ reason: 'pause', pc: stop.pc }, []);
    await (this.resuming = Promise.resolve()
      .then(() => this.facet('run').resume())
      .catch((err: unknown) => {
        this.emit({
          type: 'output',
          text: `Resuming after a stop nobody wanted failed: ${asRetroError(err).message}`,
        });
        void this.refreshStop();
      }));
  }
}
