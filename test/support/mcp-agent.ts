/**
 * An agent as it finds the extension's embedded MCP server: the discovery file the extension host wrote under
 * the code-server's private HOME (~/.retro-debug/mcp-<pid>.json), its URL and session secret, and a real MCP
 * client connected with them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { waitUntil } from './workbench.js';

export interface DiscoveredServer {
  file: string;
  url: string;
  token: string;
  workspace: string[];
}

/** Waits for the discovery file in the code-server's HOME (`root` is the code-server's root folder). */
export async function discoveredServer(root: string, timeoutMs = 30_000): Promise<DiscoveredServer> {
  const dir = join(root, 'home', '.retro-debug');
  const file = await waitUntil('the MCP discovery file', timeoutMs, async () => {
    const name = existsSync(dir) ? readdirSync(dir).find((n) => /^mcp-\d+\.json$/.test(n)) : undefined;
    return name && join(dir, name);
  });
  const info = JSON.parse(readFileSync(file, 'utf8')) as Omit<DiscoveredServer, 'file'>;
  return { file, url: info.url, token: info.token, workspace: info.workspace };
}

/** An MCP client named `name` (the name the server shows people), connected with the discovered secret. */
export async function connectAgent(server: DiscoveredServer, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
    }),
  );
  return client;
}
