/**
 * Helpers for MCP tests (and the lead's multi-client test): an HTTP MCP server
 * on a given SessionManager, SDK clients with the bearer header, tool calls
 * that unwrap structured results or assert a tool error code, raw HTTP
 * requests for the security checks, and polling until a session is ready.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SessionManagerApi } from '../../src/session/types.js';
import { startHttpMcpServer, type HttpMcpOptions, type HttpMcpServer } from '../../src/mcp/http.js';
import { TOOL_GROUPS } from '../../src/connectors/registry.js';

export type Structured = Record<string, any>;

/** The repository: the suite's built fixtures (.test-work) and examples lie in it, like a user's workspace. */
export const REPO_ROOT = resolve(__dirname, '..', '..');

/** An HTTP MCP server whose roots are the repository unless the test gives its own (as VS Code gives the workspace). */
export function startHttpServerOn(
  manager: SessionManagerApi,
  opts: Omit<HttpMcpOptions, 'manager' | 'groups'> & Partial<Pick<HttpMcpOptions, 'groups'>> = {},
): Promise<HttpMcpServer> {
  return startHttpMcpServer({ manager, groups: TOOL_GROUPS, roots: () => [REPO_ROOT], ...opts });
}

export async function connectHttpClient(server: { url: string; token: string }, name = 'test-client'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
    }),
  );
  await client.listTools(); // also primes the client's output-schema validators
  return client;
}

export async function callRaw(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  timeoutMs = 90_000,
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs })) as CallToolResult;
}

/** Calls a tool that must succeed; returns its structuredContent after checking the envelope. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  timeoutMs?: number,
): Promise<Structured> {
  const result = await callRaw(client, name, args, timeoutMs);
  const sc = result.structuredContent as Structured | undefined;
  assert.ok(!result.isError, `${name} failed: ${JSON.stringify(sc?.error ?? result.content)}`);
  assert.ok(sc, `${name} returned no structuredContent`);
  assert.equal(result.content[0]?.type, 'text', `${name} has no text block`);
  for (const key of ['session_id', 'build_id', 'generation', 'state'])
    assert.ok(key in sc, `${name} result lacks ${key}`);
  return sc;
}

/** Calls a tool that must fail with `code`; returns the error object. */
export async function callExpectingError(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  code: string,
): Promise<Structured> {
  const result = await callRaw(client, name, args);
  const sc = result.structuredContent as Structured | undefined;
  assert.equal(result.isError, true, `${name} should have failed with ${code}, got ${JSON.stringify(sc)}`);
  assert.equal(sc?.error?.code, code, `${name}: expected ${code}, got ${JSON.stringify(sc?.error ?? result.content)}`);
  assert.ok(typeof sc.error.message === 'string' && sc.error.message.length > 10, 'error has a sentence for people');
  return sc.error;
}

/** Polls session_status until the session is ready and stopped (at main with the fixture). */
export async function waitUntilReady(client: Client, sessionId: string, timeoutMs = 120_000): Promise<Structured> {
  const deadline = Date.now() + timeoutMs;
  const phases = new Set<string>();
  for (;;) {
    const st = await call(client, 'session_status', { session_id: sessionId });
    phases.add(st.phase);
    if (st.phase === 'failed')
      assert.fail(`session failed: ${JSON.stringify(st.failure)} progress=${JSON.stringify(st.progress)}`);
    if (st.phase === 'ready' && st.state === 'stopped') return { ...st, seen_phases: [...phases] };
    if (Date.now() > deadline) assert.fail(`session not ready after ${timeoutMs} ms: ${JSON.stringify(st)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request (node:http lets us set Host, which fetch does not). */
export function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'POST', headers: opts.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

export const INITIALIZE_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

export const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
