/**
 * `retro-debug demo`: a headless session on the built-in target, driven
 * through the same tool functions the MCP server exposes (no second copy of
 * their logic): build the demo ROM, start MAME, stop at main, break in the
 * loop, print backtrace and variables, save a screenshot, stop.
 */
import { sleep } from '../core/async.js';
import type { SessionManagerApi } from '../session/types.js';
import { unsupported, timedOut } from '../core/errors.js';
import { resolveMamePath } from '../connectors/mame/launcher.js';
import { buildDemo, checkSdcc } from './build-demo.js';
import { runC64Demo } from './demo-c64.js';
import { demoCaller, waitUntilReady, type DemoOptions } from './demo-tools.js';

export type { DemoOptions };

const where = (loc?: { file: string; line: number; function?: string }) =>
  loc ? `${loc.function ?? '?'} at ${loc.file}:${loc.line}` : 'no source location';

export async function runDemo(manager: SessionManagerApi, opts: DemoOptions): Promise<void> {
  if (opts.machine === 'c64') return runC64Demo(manager, opts);
  if (opts.machine !== 'spectrum') {
    throw unsupported(`The demo exists for the "spectrum" and "c64" machines only (asked: "${opts.machine}").`);
  }
  const { log } = opts;
  resolveMamePath({}); // fails with a clear launch_failed message when MAME is missing
  await checkSdcc();

  log(`Building the demo with SDCC into ${opts.outDir}/build …`);
  const build = await buildDemo(opts.outDir, opts.overwrite);

  const { connection, call } = demoCaller(manager, opts.outDir);
  try {
    const started = await call('start_session', {
      machine: 'spectrum',
      program: build.rom,
      debugInfo: build.cdb,
      cwd: build.dir,
      stopOnEntry: true,
    });
    log(`Session ${started.session_id} starting MAME …`);
    const status = await waitUntilReady(call, started.session_id, log);
    log(`Stopped at ${where(status.location)}.`);

    const bp = await call('set_breakpoint', { file: 'demo.c', line: build.paintLine });
    log(
      `Breakpoint ${bp.breakpoint.id} at demo.c:${bp.breakpoint.line} (${bp.breakpoint.verified ? 'verified' : 'not verified'}).`,
    );
    const hit = await call('resume', { wait: true, timeout_ms: 30_000 });
    if (hit.state !== 'stopped') throw timedOut('The demo did not reach its breakpoint within 30 s.');
    log(`Hit the breakpoint: ${where(hit.location)}.`);

    const bt = await call('backtrace');
    log('Backtrace:');
    for (const f of bt.frames)
      log(`  #${f.index} ${where(f.location ?? { file: f.pc_hex, line: 0, function: f.function })}`);
    for (const scope of ['locals', 'globals'] as const) {
      const vars = await call('list_variables', { scope, frame: 0 });
      log(`${scope[0].toUpperCase()}${scope.slice(1)}:`);
      for (const v of vars.variables) log(`  ${v.type} ${v.name} = ${v.value}`);
    }

    // Let the program paint a few passes so the screenshot shows the colour bands.
    await call('clear_breakpoint', { id: bp.breakpoint.id });
    await call('resume', { wait: false });
    await sleep(1500);
    const paused = await call('pause', { wait: true, timeout_ms: 10_000 });
    const passes = await call('evaluate', { expression: 'passes' });
    log(`Paused at ${where(paused.location)} after ${passes.result.value} passes.`);
    const shot = await call('screenshot', { output_path: 'screen.png', overwrite: opts.overwrite });
    log(`Screenshot ${shot.width}x${shot.height} saved to ${shot.path}`);

    await call('stop_session');
    log('Session stopped. Demo finished.');
  } finally {
    connection.close();
  }
}
