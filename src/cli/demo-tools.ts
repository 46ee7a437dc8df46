/** The demo's pieces both demos share: options, a caller of the MCP tool functions, the wait for boot. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SessionManagerApi } from '../session/types.js';
import { RetroError, type ErrorCode, internalError, timedOut } from '../core/errors.js';
import { McpConnection } from '../mcp/connection.js';
import { findTool, TOOL_GROUPS } from '../connectors/registry.js';
import { invokeTool, type ToolContext } from '../mcp/tool-kit.js';

export interface DemoOptions {
  machine: string;
  outDir: string;
  overwrite: boolean;
  /** progress lines for people (stderr or stdout, the caller decides) */
  log: (line: string) => void;
}

const BOOT_TIMEOUT_MS = 120_000;

export type Result = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

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
    if (!tool) throw internalError(`No tool named ${name}.`);
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
    if (Date.now() > deadline) throw timedOut(`MAME did not reach main within ${BOOT_TIMEOUT_MS / 1000} s.`);
    await sleep(300);
  }
}
