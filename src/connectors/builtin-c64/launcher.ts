/**
 * emulator "builtin": starts the built-in C64 in this process and connects
 * the same VICE client that drives a real x64sc to its monitor, in process
 * (no port); a loopback TCP monitor for one outside client only on request.
 */
import { dirname, resolve } from 'node:path';
import { unsupported } from '../../core/errors.js';
import type { LaunchConfig } from '../../core/launch.js';
import type { Target } from '../../core/target.js';
import { MonitorClient } from '../vice/monitor-client.js';
import { startConfiguredProgram } from '../vice/start-program.js';
import { fitsMonitor, stagingRoot } from '../vice/monitor-path.js';
import { ViceTarget } from '../vice/vice-target.js';
import { BUILTIN_FRAME_SOURCE } from './frame-source.js';
import { BuiltinMonitorServer } from './monitor-server.js';
import { TIME_TRAVEL_FEATURE } from '../../core/time-travel.js';
import { BuiltinTimeTravel } from './history/feature.js';
import { DEFAULT_HISTORY, type HistoryBudget } from './history/recorder.js';
import { ViceLifecycle } from '../vice/vice-lifecycle.js';
import { builtinStateFormat } from './snapshot.js';

const START_TIMEOUT_MS = 30_000;

export async function launchBuiltinTarget(
  config: LaunchConfig,
  opts: { onProgress?: (message: string) => void } = {},
): Promise<Target> {
  if (config.machine !== 'c64')
    throw unsupported(`The built-in emulator is a C64; machine "${config.machine}" needs another emulator.`, {
      machine: config.machine,
    });
  const logs = new Set<(text: string) => void>();
  const messages = new Set<(text: string) => void>();
  const cwd = config.cwd ?? process.cwd();
  const program = config.program ? resolve(cwd, config.program) : undefined;
  // a path too long for the monitor is autostarted from a copy (monitor-path.ts); drive 8 stays the program's folder
  const staged = program !== undefined && !fitsMonitor(program);
  const server = new BuiltinMonitorServer({
    realtime: config.throttle === true,
    drive8: config.drive8 ? resolve(cwd, config.drive8) : staged ? dirname(program) : undefined,
    // only the session's own program (and its folder) can be autostarted
    autostartRoots: [cwd, ...(program ? [dirname(program)] : []), ...(staged ? [stagingRoot()] : [])],
    history: historyBudget(config),
    onLog: (text) => {
      for (const l of logs) l(text);
    },
    onMachineMessage: (text) => {
      for (const l of messages) l(text);
    },
  });
  // The session's connection is in process: nothing else on this machine can reach it.
  const client = MonitorClient.over(server.connectInProcess());
  opts.onProgress?.('Built-in C64 started (monitor connection in process)');
  if (config.builtinMonitorPort !== undefined) {
    const port = await server.listen(config.builtinMonitorPort);
    opts.onProgress?.(`Built-in C64 also serves the VICE binary monitor on 127.0.0.1:${port} (one client)`);
  }
  let target: ViceTarget | undefined;
  try {
    target = await ViceTarget.open(client, {
      kind: 'builtin',
      shutdown: () => server.close(),
      logSource: (l) => logs.add(l),
      messageSource: (l) => messages.add(l),
      frames: {
        info: BUILTIN_FRAME_SOURCE,
        subscribe: (request, listener, running) => server.frames.subscribe(request, listener, running),
        stopped: () => server.frames.stopped(),
        current: (stale, source) => server.frames.current(stale, source),
      },
    });
    target.features.provide(TIME_TRAVEL_FEATURE, new BuiltinTimeTravel(server, target.vice, target.events));
    target.lifecycle = new ViceLifecycle(target, config, builtinStateFormat(server.machine));
    await startConfiguredProgram(target, config, START_TIMEOUT_MS, opts.onProgress);
    return target;
  } catch (err) {
    await (target ? target.close() : server.close()).catch(() => undefined);
    throw err;
  }
}

/** The launch options' history bounds (`history.seconds`, `history.maxMegabytes`), defaults filled in. */
function historyBudget(config: LaunchConfig): HistoryBudget {
  const h = config.history ?? {};
  return {
    seconds: h.seconds ?? DEFAULT_HISTORY.seconds,
    maxBytes: Math.floor((h.maxMegabytes ?? DEFAULT_HISTORY.maxMegabytes) * 2 ** 20),
  };
}

/** The monitor server behind a built-in target, for tests and tools that attach a second client. */
export { BuiltinMonitorServer };
