/**
 * One session on the ZX fixture with three clients: VS Code's debug adapter
 * (over TCP, launched and stopped at main) and two MCP agents over HTTP.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { serveDap, type DapServer } from '../../src/dap/serve.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { buildZxFixture, type ZxFixture } from './zx-fixture.js';
import { RecordingClient } from '../dap/dap-client.js';
import { connectHttpClient, startHttpServerOn } from '../mcp/mcp-helpers.js';

export interface ThreeClients {
  fx: ZxFixture;
  manager: SessionManager;
  vscode: RecordingClient;
  alice: Client;
  bob: Client;
  close(): Promise<void>;
}

export async function startThreeClients(leaseMs: number): Promise<ThreeClients> {
  const fx = await buildZxFixture();
  const manager = new SessionManager({ connectors: CONNECTORS, leaseMs });
  let dap: DapServer | undefined;
  let mcp: HttpMcpServer | undefined;
  const vscode = new RecordingClient();
  const clients: Client[] = [];
  const close = async () => {
    await vscode.stop().catch(() => undefined);
    for (const c of clients) await c.close().catch(() => undefined);
    await mcp?.close();
    await dap?.close();
    await manager.closeAll();
  };
  try {
    dap = await serveDap(manager);
    mcp = await startHttpServerOn(manager, { heartbeatMs: 300 });
    await vscode.start(dap.port);
    await vscode.initialize();
    await vscode.launchAndConfigure({
      machine: 'spectrum',
      emulator: 'mame',
      program: fx.rom,
      debugInfo: fx.cdb,
      cwd: fx.dir,
      stopOnEntry: true,
    });
    await vscode.next('stopped', 60_000);
    clients.push(await connectHttpClient(mcp, 'alice'), await connectHttpClient(mcp, 'bob'));
  } catch (err) {
    await close();
    throw err;
  }
  return { fx, manager, vscode, alice: clients[0], bob: clients[1], close };
}
