// The opening of a C64 MCP test: a session manager, the HTTP MCP server (VICE profile) writing to `outputDir`, and
// one agent connected to it; `close` ends them in the reverse order.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { connectHttpClient, startHttpServerOn } from '../mcp/mcp-helpers.js';

export interface C64Mcp {
  manager: SessionManager;
  http: HttpMcpServer;
  agent: Client;
  close(): Promise<void>;
}

export async function openC64Mcp(outputDir: string, agentName: string): Promise<C64Mcp> {
  const manager = new SessionManager({ connectors: CONNECTORS });
  const http = await startHttpServerOn(manager, { outputDir, profile: 'vice' });
  const agent = await connectHttpClient(http, agentName);
  return {
    manager,
    http,
    agent,
    close: async () => {
      await agent.close().catch(() => undefined);
      await http.close();
      await manager.closeAll();
    },
  };
}
