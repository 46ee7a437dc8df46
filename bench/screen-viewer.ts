/**
 * What every machine's screen bench shares: the panel as VS Code runs it,
 * alone/watched rounds that alternate (so a load drifting on a shared
 * machine falls on both), and captures with reads overlapping while running.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { SessionManager } from '../src/session/manager.js';
import type { SessionApi } from '../src/session/types.js';
import { ScreenController } from '../src/ui/screen-controller.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The panel: the screen controller on the session, its post() a structured
 * clone of each message (what the extension host's postMessage costs on its
 * thread: the copy), acknowledged on the next turn.
 */
export function panelViewer(manager: SessionManager, warp: boolean): { frames: () => number; close: () => void } {
  let posted = 0;
  const controller = new ScreenController({
    sessions: manager,
    fps: 30,
    post: (message) => {
      structuredClone(message);
      if (message.type === 'raw') posted++;
      return new Promise((r) => setImmediate(r));
    },
  });
  void controller.handleMessage({ type: 'warp', on: warp });
  void controller.handleMessage({ type: 'ready' });
  return { frames: () => posted, close: () => controller.dispose() };
}

export interface Rate {
  /** the machine's emulated speed (its own measure, per wall-clock second) */
  speed: number;
  /** frames the panel posted a second */
  fps: number;
  /** CPU seconds a wall-clock second of this process (the built-in C64 and the viewer) and of `opts.cpu`'s */
  cpu: number;
}

export interface Ratio {
  alone: number;
  watched: number;
  ratio: number;
  fps: number;
  each: string;
  /** emulated speed per CPU second (the machine's and the viewer's), watched / alone */
  perCpu: number;
  /** CPU seconds a second, alone and watched */
  cpuAlone: number;
  cpuWatched: number;
}

/** `rounds` alone/watched pairs, alternating which goes first; the ratio of the summed speeds, the viewer's frames/s. */
export async function alternate(rounds: number, measure: (watch: boolean) => Promise<Rate>): Promise<Ratio> {
  let alone = 0;
  let watched = 0;
  let fps = 0;
  const cpu = [0, 0];
  const each: string[] = [];
  for (let i = 0; i < rounds; i++) {
    const pair: number[] = [];
    for (const watch of i % 2 ? [true, false] : [false, true]) {
      const r = await measure(watch);
      pair[watch ? 1 : 0] = r.speed;
      cpu[watch ? 1 : 0] += r.cpu / rounds;
      if (watch) fps += r.fps / rounds;
    }
    alone += pair[0] / rounds;
    watched += pair[1] / rounds;
    each.push((pair[1] / pair[0]).toFixed(2));
  }
  const perCpu = watched / cpu[1] / (alone / cpu[0]);
  return {
    alone,
    watched,
    ratio: watched / alone,
    fps,
    each: each.join(' '),
    perCpu,
    cpuAlone: cpu[0],
    cpuWatched: cpu[1],
  };
}

/**
 * Over `seconds`, the change of the machine's own counter (`reading`, in its
 * units per emulated second `hz`) per wall-clock second, with the panel
 * watching or not.
 */
export async function emulatedRate(
  manager: SessionManager,
  opts: {
    watch: boolean;
    warp: boolean;
    seconds: number;
    hz: number;
    reading: () => Promise<number>;
    /** CPU seconds used so far by the emulator's own process, where it is another one */
    cpu?: () => number;
  },
): Promise<Rate> {
  const viewer = opts.watch ? panelViewer(manager, opts.warp) : undefined;
  const cpu = () => process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6 + (opts.cpu?.() ?? 0);
  await sleep(300);
  const n0 = await opts.reading();
  const r0 = viewer?.frames() ?? 0;
  const c0 = cpu();
  const t0 = performance.now();
  await sleep(opts.seconds * 1000);
  const n1 = await opts.reading();
  const seconds = (performance.now() - t0) / 1000;
  const fps = ((viewer?.frames() ?? 0) - r0) / seconds;
  const used = cpu() - c0;
  viewer?.close();
  return { speed: (n1 - n0) / opts.hz / seconds, fps, cpu: used / seconds };
}

/** 200 screenshots and 200 reads issued overlapping while the machine runs, with a viewer on: how many are refused. */
export async function overlapping(session: SessionApi, offset: number): Promise<{ done: number; refused: number }> {
  const viewer = session.watchScreen({ fps: 30 }, () => undefined);
  let refused = 0;
  let done = 0;
  const work: Promise<unknown>[] = [];
  for (let i = 0; i < 200; i++) {
    work.push(
      session.screenshot().then(
        () => done++,
        () => refused++,
      ),
    );
    work.push(
      session.readMemory({ space: 'cpu', offset }, 256).then(
        () => done++,
        () => refused++,
      ),
    );
    await new Promise((r) => (i % 2 ? setImmediate(r) : setTimeout(r, 1)));
  }
  await Promise.all(work);
  viewer();
  return { done, refused };
}

export function report(name: string, r: Ratio, unit: string): string {
  return (
    `  ${name}: ${r.ratio.toFixed(3)}  (target >= 0.9; ${r.alone.toFixed(2)}${unit} alone, ${r.watched.toFixed(2)}${unit} watched; rounds ${r.each})\n` +
    `  ${' '.repeat(name.length)}  per CPU second: ${r.perCpu.toFixed(3)}  (CPU seconds a second ${r.cpuAlone.toFixed(2)} alone, ${r.cpuWatched.toFixed(2)} watched)`
  );
}

/**
 * The machine's frame counter at the moment (a screenshot's frame number: the
 * built-in's frame clock, MAME's screen; neither stops the machine), with a
 * 2-fps subscription that holds real time or warp alone as while watched. (The
 * number the subscription's last frame carried lagged up to half a second of
 * wall time, more than the difference measured.)
 */
export function frameProbe(
  session: SessionApi,
  realtime: boolean,
): { reading: () => Promise<number>; close: () => void } {
  const close = session.watchScreen({ fps: 2, realtime }, () => undefined);
  return { reading: async () => (await session.screenshot()).frame ?? 0, close };
}

/** Fields of /proc/PID/stat after the command (which may hold spaces). */
function procStat(pid: number): string[] {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/**
 * CPU seconds used so far by this process's children called `name` (the
 * emulator: MAME), from /proc; undefined where there is no /proc (then the
 * per-CPU figure counts this process alone).
 */
export function childCpu(name: string): (() => number) | undefined {
  const tick = 100; // USER_HZ on Linux
  try {
    const pids = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number)
      .filter((pid) => {
        try {
          return Number(procStat(pid)[1]) === process.pid && readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name;
        } catch {
          return false;
        }
      });
    if (!pids.length) return undefined;
    return () => pids.reduce((sum, pid) => sum + (Number(procStat(pid)[11]) + Number(procStat(pid)[12])) / tick, 0);
  } catch {
    return undefined;
  }
}
