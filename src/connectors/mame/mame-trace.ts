/**
 * Every instruction MAME runs, for an InstructionObserver: the debugger's
 * `trace` with a `tracelog` of `totalcycles` and SP before each line, read
 * back at each stop. MAME logs an instruction in its hook before it runs —
 * also the one it then stops at — so a trace opened at a stop misses the
 * instruction the CPU is held at only when no trace was open as it arrived
 * there (the caller says so, and that one is reported from the CPU's state).
 */
import { readFile, rm } from 'node:fs/promises';
import type { InstructionObserver } from '../../core/headless.js';
import type { MameRaw } from './mame-raw.js';

export class MameTrace {
  /** a trace was open while the CPU ran to where it is held */
  private arrivedTraced = false;

  constructor(
    private readonly raw: Pick<MameRaw, 'console'>,
    private readonly file: string,
    private readonly cpuTag: string,
  ) {}

  /** The CPU was put somewhere new without running there (a start): its instruction is not in any trace. */
  moved(): void {
    this.arrivedTraced = false;
  }

  /** Before the CPU runs: `held` is where it is held now, for the instruction no trace logged. */
  async open(observer: InstructionObserver, held: { pc: number; sp: number; cycles: number }): Promise<void> {
    if (!this.arrivedTraced) observer(held.pc, held.cycles, held.sp);
    await this.raw.console(`trace "${this.file}",${this.cpuTag},noloop,{tracelog "%X %X ",totalcycles,sp}`);
  }

  /** At a stop: closes the trace (MAME flushes it) and gives each logged instruction to `observer`. */
  async close(observer: InstructionObserver, cyclesBase: number): Promise<void> {
    await this.raw.console('trace off');
    this.arrivedTraced = true;
    const text = await readFile(this.file, 'latin1').catch(() => '');
    await rm(this.file, { force: true });
    feedTrace(text, cyclesBase, observer);
  }
}

/** Lines `<cycles hex> <sp hex> <pc hex>: <disassembly>`; anything else (MAME's loop notes) is skipped. */
export function feedTrace(text: string, cyclesBase: number, observer: InstructionObserver): void {
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const a = text.indexOf(' ', at);
    const b = a < 0 ? -1 : text.indexOf(' ', a + 1);
    const c = b < 0 ? -1 : text.indexOf(':', b + 1);
    if (c > 0 && c < end) {
      const cycles = parseInt(text.slice(at, a), 16);
      const sp = parseInt(text.slice(a + 1, b), 16);
      const pc = parseInt(text.slice(b + 1, c), 16);
      if (!Number.isNaN(cycles + sp + pc)) observer(pc, cycles - cyclesBase, sp);
    }
    at = end + 1;
  }
}
