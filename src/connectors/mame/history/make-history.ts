/** The MAME target's time travel: its budget from the launch options, and the target's parts a replay uses. */
import { join } from 'node:path';
import type { LaunchConfig } from '../../../core/launch.js';
import type { Address, Register, TargetEmitter, WatchSpec } from '../../../core/target.js';
import type { MameRaw } from '../mame-raw.js';
import { MameTimeTravel } from './mame-travel.js';
import type { QuietRuns } from './quiet-runs.js';

/** the history's bounds unless the launch options set them (a Spectrum state is about 1 KB, a Sprinter's 140 KB) */
const DEFAULT_HISTORY = { seconds: 60, maxMegabytes: 64 };

export interface HistoryTarget {
  readonly events: TargetEmitter;
  isRunning(): boolean;
  setBreakpoint(address: Address, condition?: string): Promise<number>;
  clearBreakpoint(id: number): Promise<void>;
  setWatchpoint(spec: WatchSpec): Promise<number>;
  clearWatchpoint(id: number): Promise<void>;
  readMemory(address: Address, length: number): Promise<Uint8Array>;
  readRegisters(): Promise<Register[]>;
  /** MAME keeps its screen as it stands (the bridge's screen_keep), whichever moment that is */
  keepScreen(): Promise<void>;
}

export function makeMameHistory(
  target: HistoryTarget,
  parts: {
    raw: MameRaw;
    quiet: QuietRuns;
    hello: Record<string, unknown>;
    runDir: string;
    /** where the CPU is held at the start */
    entry: { pc: number; registers: Record<string, number> };
  },
  h: NonNullable<LaunchConfig['history']>,
): MameTimeTravel {
  const { hello, raw, quiet } = parts;
  const clock = typeof hello.clock === 'number' && hello.clock > 0 ? hello.clock : 3_500_000;
  const budget = {
    seconds: h.seconds ?? DEFAULT_HISTORY.seconds,
    maxBytes: Math.floor((h.maxMegabytes ?? DEFAULT_HISTORY.maxMegabytes) * 2 ** 20),
  };
  const cpu = (offset: number): Address => ({ space: 'cpu', offset });
  const host = {
    running: () => target.isRunning(),
    cpuTag: String(hello.cpu ?? ':maincpu'),
    events: target.events,
    console: (command: string) => raw.console(command),
    quietly: quiet.run.bind(quiet),
    setBreakpoint: (address: number, condition: string) => target.setBreakpoint(cpu(address), condition),
    clearBreakpoint: (id: number) => target.clearBreakpoint(id),
    setWriteWatch: (address: number, length: number) =>
      target.setWatchpoint({ address: cpu(address), length, kind: 'write' }),
    clearWatch: (id: number) => target.clearWatchpoint(id),
    read: (address: number, length: number) => target.readMemory(cpu(address), length),
    keepPicture: () => target.keepScreen(),
    registers: async () => Object.fromEntries((await target.readRegisters()).map((r) => [r.name, r.value])),
  };
  // 50 frames a second: the Spectrum's and the Sprinter's
  const frame = Math.round(clock / 50);
  return new MameTimeTravel(host, join(parts.runDir, 'history'), budget, clock, frame, parts.entry);
}
