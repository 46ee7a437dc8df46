/**
 * A language-server client for tests: starts dist/lsp-server.js with --stdio under plain
 * Node, speaks LSP over its pipes, answers the server's retro/readMemory requests with
 * what the test says, and collects published diagnostics.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';
import { READ_MEMORY_REQUEST, type ReadMemoryParams, type ReadMemoryResult } from '../../src/lsp/protocol.js';
import { REPO_ROOT } from './zx-fixture.js';

export interface LspClient {
  connection: MessageConnection;
  uri(path: string): string;
  open(path: string, languageId: string): Promise<void>;
  save(path: string): Promise<void>;
  diagnostics(path: string, timeoutMs: number): Promise<PublishDiagnosticsParams>;
  readMemory: (p: ReadMemoryParams) => ReadMemoryResult;
  /** resolves at the server's next workspace/codeLens/refresh request (the client says it supports them) */
  nextLensRefresh(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startLspServer(workspace: string): Promise<LspClient> {
  const child: ChildProcess = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'lsp-server.js'), '--stdio'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout!),
    new StreamMessageWriter(child.stdin!),
  );
  const published = new Map<string, PublishDiagnosticsParams>();
  const waiters: (() => void)[] = [];
  const refreshWaiters: (() => void)[] = [];
  const client: LspClient = {
    connection,
    uri: (path) => pathToFileURL(path).href,
    readMemory: () => null,
    async open(path, languageId) {
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: client.uri(path), languageId, version: 1, text: readFileSync(path, 'utf8') },
      });
    },
    async save(path) {
      await connection.sendNotification('textDocument/didSave', { textDocument: { uri: client.uri(path) } });
    },
    async diagnostics(path, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = published.get(client.uri(path));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no diagnostics for ${path} within ${timeoutMs} ms`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
    nextLensRefresh(timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no codeLens refresh within ${timeoutMs} ms`)), timeoutMs);
        refreshWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    async close() {
      await connection.sendRequest('shutdown').catch(() => undefined);
      await connection.sendNotification('exit').catch(() => undefined);
      connection.dispose();
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
  connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    published.set(p.uri, p);
    waiters.splice(0).forEach((w) => w());
  });
  connection.onRequest(READ_MEMORY_REQUEST, (p: ReadMemoryParams) => client.readMemory(p));
  connection.onRequest('workspace/codeLens/refresh', () => {
    refreshWaiters.splice(0).forEach((w) => w());
    return null;
  });
  connection.listen();
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(workspace).href,
    workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: 'ws' }],
    capabilities: { workspace: { codeLens: { refreshSupport: true } } },
  });
  await connection.sendNotification('initialized', {});
  return client;
}
