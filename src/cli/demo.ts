/**
 * `retro-debug demo`: a headless session on the built-in target, driven
 * through the same tool functions the MCP server exposes (no second copy of
 * their logic): build the demo ROM, start MAME, stop at main, break in the
 * loop, print backtrace and variables, save a screenshot, stop.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SessionManagerApi } from '../session/types.js';
import { RetroError, type ErrorCode } from '../core/errors.js';
import { resolveMamePath } from '../connectors/mame/launcher.js';
import { McpConnection } from '../mcp/connection.js';
import { findTool, TOOL_GROUPS } from '../connectors/registry.js';
import { invokeTool, type ToolContext } from '../mcp/tool-kit.js';
import { buildDemo, checkSdcc } from './build-demo.js';
import { runC64Demo } from './demo-c64.js';

export interface DemoOptions {
  machine: string;
  outDir: string;
  overwrite: boolean;
  /** progress lines for people (stderr or stdout, the caller decides) */
  log: (line: string) => void;
}

const BOOT_TIMEOUT_MS = 120_000;

type Result = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The demo's MCP connection and a caller of the tools on it (every group loaded). */
export function demoCaller(manager: SessionManagerApi, outDir: string) {
  const connection = new McpConnection(manager, { label: () => 'retro-debug demo (CLI)', kind: 'cli' });
  const ctx: ToolContext = {
    manager,
    connection,
    outputDir: outDir,
    groups: () =>
      TOOL_GROUPS.map((g) => ({
        name: g.name,
        description: g.description,
        tools: g.tools.map((t) => t.name),
        loaded: true,
      })),
  };
  return { connection, call: toolCaller(ctx) };
}

export function toolCaller(ctx: ToolContext) {
  return async (name: string, args: Record<string, unknown> = {}): Promise<Result> => {
    const tool = findTool(name);
    if (!tool) throw new RetroError('internal', `No tool named ${name}.`);
    const result = await invokeTool(tool, args, ctx);
    const structured = result.structuredContent as Result;
    if (result.isError)
      throw new RetroError(
        structured.error.code as ErrorCode,
        `${name}: ${structured.error.message}`,
        structured.error.details,
      );
    return structured;
  };
}

const where = (loc?: { file: string; line: number; function?: string }) =>
  loc ? `${loc.function ?? '?'} at ${loc.file}:${loc.line}` : 'no source location';

export async function runDemo(manager: SessionManagerApi, opts: DemoOptions): Promise<void> {
  if (opts.machine === 'c64') return runC64Demo(manager, opts);
  if (opts.machine !== 'spectrum') {
    throw new RetroError(
      'unsupported',
      `The demo exists for the "spectrum" and "c64" machines only (asked: "${opts.machine}").`,
    );
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
    if (hit.state !== 'stopped') throw new RetroError('timeout', 'The demo did not reach its breakpoint within 30 s.');
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
    const passes = await call('read_variable', { name: 'passes' });
    log(`Paused at ${where(paused.location)} after ${passes.variable.value} passes.`);
    const shot = await call('screenshot', { output_path: 'screen.png', overwrite: opts.overwrite });
    log(`Screenshot ${shot.width}x${shot.height} saved to ${shot.path}`);

    await call('stop_session');
    log('Session stopped. Demo finished.');
  } finally {
    connection.close();
  }
}

export async function waitUntilReady(
  call: ReturnType<typeof toolCaller>,
  sessionId: string,
  log: (line: string) => void,
): Promise<Result> {
  const deadline = Date.now() + BOOT_TIMEOUT_MS;
  const shown = new Set<string>(); // status carries the latest progress lines; print each once
  for (;;) {
    const st = await call('session_status', { session_id: sessionId });
    for (const line of st.progress as string[])
      if (!shown.has(line)) {
        shown.add(line);
        log(`  … ${line}`);
      }
    if (st.phase === 'failed')
      throw new RetroError(
        (st.failure?.code ?? 'launch_failed') as ErrorCode,
        st.failure?.message ?? 'The session failed to start.',
      );
    if (st.phase === 'ready' && st.state === 'stopped') return st;
    if (Date.now() > deadline)
      throw new RetroError('timeout', `MAME did not reach main within ${BOOT_TIMEOUT_MS / 1000} s.`);
    await sleep(300);
  }
}
