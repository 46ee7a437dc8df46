/**
 * `retro-debug demo`: a headless session driven through the same tool
 * functions the MCP server exposes (no second copy of their logic). On MAME
 * (spectrum, sprinter): build the SDCC demo, start MAME, stop at main, break
 * in the loop, print backtrace and variables, save a screenshot, stop. The
 * C64's runs on the built-in C64 (demo-c64.ts).
 */
import { sleep } from '../core/async.js';
import type { SessionManagerApi } from '../session/types.js';
import { unsupported, timedOut } from '../core/errors.js';
import { resolveMamePath } from '../connectors/mame/launcher.js';
import { buildDemo, checkSdcc, isSdccDemoMachine } from './build-demo.js';
import { runC64Demo } from './demo-c64.js';
import { demoCaller, waitUntilReady, type DemoOptions } from './demo-tools.js';

export type { DemoOptions };

const where = (loc?: { file: string; line: number; function?: string }) =>
  loc ? `${loc.function ?? '?'} at ${loc.file}:${loc.line}` : 'no source location';

export async function runDemo(manager: SessionManagerApi, opts: DemoOptions): Promise<void> {
  if (opts.machine === 'c64') return runC64Demo(manager, opts);
  const machine = opts.machine;
  if (!isSdccDemoMachine(machine)) {
    throw unsupported(
      `The demo exists for the "spectrum", "sprinter" and "c64" machines only (asked: "${opts.machine}").`,
    );
  }
  const { log } = opts;
  resolveMamePath({}); // fails with a clear launch_failed message when MAME is missing
  await checkSdcc();

  log(`Building the demo with SDCC into ${opts.outDir}/build …`);
  const build = await buildDemo(opts.outDir, opts.overwrite, machine);

  const { connection, call } = demoCaller(manager, opts.outDir);
  try {
    const started = await call('start_session', {
      machine,
      program: build.program,
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

    // Let the program run a little so the screenshot shows its work (ZX: colour bands; Sprinter: printed passes).
    await call('clear_breakpoint', { id: bp.breakpoint.id });
    await call('resume', { wait: false });
    await sleep(1500);
    const paused = await call('pause', { wait: true, timeout_ms: 10_000 });
    const passes = await call('evaluate', { expression: 'passes' });
    const at = paused.location ? where(paused.location) : `${paused.stop?.pc_hex} (no C source there: a ROM call)`;
    log(`Paused at ${at} after ${passes.result.value} passes.`);
    const shot = await call('screenshot', { output_path: 'screen.png', overwrite: opts.overwrite });
    log(`Screenshot ${shot.width}x${shot.height} saved to ${shot.path}`);

    await call('stop_session');
    log('Session stopped. Demo finished.');
  } finally {
    connection.close();
  }
}
