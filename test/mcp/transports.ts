/**
 * One test body, both MCP transports: an official SDK Client connected to a
 * server on the test's SessionManager either over streamable HTTP (the
 * product's HTTP server, a bearer token) or over stdio (the product's
 * serveStdio with the SDK's StdioServerTransport on a pipe pair, the client
 * framing messages with the SDK's own stdio ReadBuffer/serializeMessage, as
 * StdioClientTransport does on a child's pipes). In-process, so a test can
 * look at the sessions it drives; the spawned CLI is covered by stdio.test.ts
 * and surface-budget.test.ts.
 */
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { SessionManagerApi } from '../../src/session/types.js';
import type { Profile } from '../../src/mcp/groups.js';
import { serveStdio } from '../../src/mcp/stdio.js';
import { TOOL_GROUPS } from '../../src/connectors/registry.js';
import { connectHttpClient, startHttpServerOn, REPO_ROOT } from './mcp-helpers.js';

export type Over = 'http' | 'stdio';
export const TRANSPORTS: readonly Over[] = ['http', 'stdio'];

export interface AgentOptions {
  name?: string;
  profile?: Profile;
  outputDir?: string;
}

export interface ConnectedAgent {
  client: Client;
  over: Over;
  /** closes the client and its server */
  close(): Promise<void>;
}

/** The client side of stdio on two streams, framed like the SDK's StdioClientTransport. */
class PipeClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly toServer: PassThrough,
    private readonly fromServer: PassThrough,
  ) {}

  async start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (err) {
          this.onerror?.(err as Error);
          continue;
        }
        if (!message) break;
        this.onmessage?.(message);
      }
    });
    this.fromServer.on('end', () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.toServer.write(serializeMessage(message)))
      await new Promise<void>((resolve) => this.toServer.once('drain', resolve));
  }

  async close(): Promise<void> {
    this.toServer.end(); // the server sees its stdin end, as when a client process exits
    this.onclose?.();
  }
}

export async function connectAgent(
  over: Over,
  manager: SessionManagerApi,
  opts: AgentOptions = {},
): Promise<ConnectedAgent> {
  const name = opts.name ?? `agent-${over}`;
  if (over === 'http') {
    const server = await startHttpServerOn(manager, { outputDir: opts.outputDir, profile: opts.profile });
    return connected(over, await connectHttpClient(server, name), () => server.close());
  }
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const server = await serveStdio({
    manager,
    groups: TOOL_GROUPS,
    outputDir: opts.outputDir ?? process.cwd(),
    roots: () => [REPO_ROOT],
    profile: opts.profile,
    stdin,
    stdout,
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new PipeClientTransport(stdin, stdout));
  await client.listTools(); // primes the client's output-schema validators, as connectHttpClient does
  return connected(over, client, async () => {
    await server.close();
    stdout.end();
  });
}

function connected(over: Over, client: Client, closeServer: () => Promise<void>): ConnectedAgent {
  return {
    client,
    over,
    async close() {
      await client.close().catch(() => undefined);
      await closeServer();
    },
  };
}
