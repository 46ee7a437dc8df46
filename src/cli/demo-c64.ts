/**
 * `retro-debug demo --machine c64`: builds examples/c64-demo with cc65 and
 * debugs it on the built-in C64 (no emulator installed), through the same
 * MCP tool functions: stop at main, break in square(), backtrace and
 * variables, step, type a key, capture the screen as an indexed PNG.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { RetroError, notFound, fileExists, launchFailed } from '../core/errors.js';
import type { SessionManagerApi } from '../session/types.js';
import { demoCaller, waitUntilReady, type DemoOptions } from './demo-tools.js';

const run = promisify(execFile);

interface C64Build {
  dir: string;
  prg: string;
  dbg: string;
  lines: Record<string, number>;
}

function findSources(from = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'examples', 'c64-demo');
    if (existsSync(join(candidate, 'demo.c'))) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw notFound(`The bundled C64 demo sources (examples/c64-demo) were not found above ${from}.`);
}

async function buildC64Demo(outDir: string, overwrite: boolean): Promise<C64Build> {
  const dir = join(outDir, 'build-c64');
  if (existsSync(dir) && !overwrite)
    throw fileExists(`${dir} already exists; use --overwrite or another --out folder.`, {
      path: dir,
    });
  await mkdir(outDir, { recursive: true });
  const tmp = join(outDir, `.build-c64-${randomBytes(4).toString('hex')}`);
  await mkdir(tmp);
  try {
    await copyFile(join(findSources(), 'demo.c'), join(tmp, 'demo.c'));
    await run(
      'cl65',
      ['-t', 'c64', '-g', '-O', '-Wl', '--dbgfile,demo.dbg', '-Ln', 'demo.lbl', '-o', 'demo.prg', 'demo.c'],
      {
        cwd: tmp,
        timeout: 60_000,
      },
    );
    if (overwrite) await rm(dir, { recursive: true, force: true });
    await rename(tmp, dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw launchFailed(
        '"cl65" was not found on PATH: install cc65 (e.g. apt-get install cc65) to build the C64 demo.',
      );
    if (err instanceof RetroError) throw err;
    const e = err as { stderr?: string; message: string };
    throw launchFailed(`Building the C64 demo failed: ${(e.stderr || e.message).trim().slice(0, 2000)}`);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const lines: Record<string, number> = {};
  (await readFile(join(dir, 'demo.c'), 'utf8')).split('\n').forEach((text, i) => {
    const m = /DEMO:(\w+)/.exec(text);
    if (m) lines[m[1]] = i + 1;
  });
  return { dir, prg: join(dir, 'demo.prg'), dbg: join(dir, 'demo.dbg'), lines };
}

const where = (loc?: { file: string; line: number; function?: string }) =>
  loc ? `${loc.function ?? '?'} at ${loc.file}:${loc.line}` : 'no source location';

export async function runC64Demo(manager: SessionManagerApi, opts: DemoOptions): Promise<void> {
  const { log } = opts;
  log(`Building the C64 demo with cc65 into ${opts.outDir}/build-c64 …`);
  const build = await buildC64Demo(opts.outDir, opts.overwrite);
  const { connection, call } = demoCaller(manager, opts.outDir);
  try {
    const started = await call('start_session', {
      machine: 'c64',
      emulator: 'builtin',
      program: build.prg,
      debugInfo: build.dbg,
      cwd: build.dir,
    });
    log(`Session ${started.session_id} starting the built-in C64 …`);
    const ready = await waitUntilReady(call, started.session_id, log);
    log(`Stopped at ${where(ready.location)}.`);

    const bp = await call('set_breakpoint', { file: 'demo.c', line: build.lines.square });
    log(`Breakpoint ${bp.breakpoint.id} at demo.c:${bp.breakpoint.line}.`);
    for (let pass = 0; pass < 4; pass++) await call('resume', { wait: true, timeout_ms: 30_000 });
    const hit = await call('session_status');
    log(`Hit it for the 4th time: ${where(hit.location)}.`);
    const bt = await call('backtrace');
    log('Backtrace:');
    for (const f of bt.frames)
      log(`  #${f.index} ${where(f.location ?? { file: f.pc_hex, line: 0, function: f.function })}`);
    const n = await call('evaluate', { expression: 'n' });
    log(`n = ${n.result.value} (${n.result.type})`);
    await call('step', { kind: 'over', wait: true, timeout_ms: 10_000 });
    const result = await call('evaluate', { expression: 'result' });
    log(`After one line: result = ${result.result.value}`);
    await call('clear_breakpoint', { id: bp.breakpoint.id });

    const keyBp = await call('set_breakpoint', { file: 'demo.c', line: build.lines.key });
    await call('resume', { wait: false });
    await call('vice_connect', {});
    await call('vice_type_keys', { text: 'x' });
    log('Typed the key X.');
    const atKey = await call('wait_for_stop', { timeout_ms: 30_000 });
    log(`Stopped at ${where(atKey.location)}.`);
    const squares = await call('evaluate', { expression: 'squares' });
    log(`squares = ${squares.result.value}`);
    await call('clear_breakpoint', { id: keyBp.breakpoint.id });
    await call('step', { kind: 'over', wait: true, timeout_ms: 10_000 });
    const shot = await call('vice_capture_screen', { output_path: 'c64-screen.png', overwrite: opts.overwrite });
    log(`Screen ${shot.width}x${shot.height} (${shot.distinct_index_count} colours) saved to ${shot.output_path}`);

    await call('stop_session');
    log('Session stopped. Demo finished.');
  } finally {
    connection.close();
  }
}
