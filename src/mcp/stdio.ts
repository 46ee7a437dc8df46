/**
 * MCP over stdio (the headless CLI): one connection for the life of the
 * process. stdout carries only the protocol; the connection ends when stdin
 * closes or close() is called.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { SessionManagerApi } from '../session/types.js';
import type { LaunchPolicy } from '../session/launch-policy.js';
import type { Profile } from './groups.js';
import { createMcpServer } from './server.js';
import type { ToolGroup } from './tool-kit.js';

export interface StdioMcpOptions {
  manager: SessionManagerApi;
  outputDir: string;
  /** see McpServerOptions.roots */
  roots?: () => readonly string[];
  /** see ToolContext.launchPolicy */
  launchPolicy?: LaunchPolicy;
  profile?: Profile;
  /** see McpServerOptions.groups */
  groups: readonly ToolGroup[];
  heartbeatMs?: number;
  stdin?: NodeJS.ReadableStream & { on(event: 'end' | 'close', listener: () => void): unknown };
  stdout?: NodeJS.WritableStream;
}

export interface StdioMcpServer {
  /** resolves when the client went away (stdin closed) or close() was called */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(opts: StdioMcpOptions): Promise<StdioMcpServer> {
  const stdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  const cs = createMcpServer(opts.manager, {
    transport: 'stdio',
    outputDir: opts.outputDir,
    roots: opts.roots,
    launchPolicy: opts.launchPolicy,
    profile: opts.profile,
    groups: opts.groups,
    heartbeatMs: opts.heartbeatMs,
  });
  const transport = new StdioServerTransport(stdin as NodeJS.ReadStream, stdout as NodeJS.WriteStream);
  await cs.connect(transport);
  // The SDK transport does not notice end of input: a client that exits only closes our stdin.
  const onGone = () => {
    void cs.close();
  };
  stdin.on('end', onGone);
  stdin.on('close', onGone);
  return { closed: cs.closed, close: () => cs.close() };
}
