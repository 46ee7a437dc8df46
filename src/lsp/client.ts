/**
 * The extension's side of the language server: starts dist/lsp-server.js (plain Node,
 * --stdio) for C and the three assembler languages, tells it when build outputs change,
 * and answers its live-memory requests from the extension's sessions.
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind } from 'vscode-languageclient/node';
import { ASM_LANGUAGES } from './asm-dialect.js';
import { READ_MEMORY_REQUEST, type ReadMemoryParams, type ReadMemoryResult } from './protocol.js';

export async function startLanguageClient(
  context: vscode.ExtensionContext,
  readMemory: (p: ReadMemoryParams) => Promise<ReadMemoryResult>,
): Promise<LanguageClient> {
  const module = join(context.extensionPath, 'dist', 'lsp-server.js');
  const run = { module, transport: TransportKind.stdio };
  const languages = ['c', ...Object.values(ASM_LANGUAGES).map((l) => l.id)];
  const client = new LanguageClient(
    'retro-debug-lsp',
    'Retro Debug Language Server',
    { run, debug: run },
    {
      documentSelector: languages.flatMap((language) => [
        { scheme: 'file', language },
        { scheme: 'untitled', language },
      ]),
      synchronize: {
        fileEvents: vscode.workspace.createFileSystemWatcher(
          '**/*.{dbg,cdb,c,h,s,asm,inc,a65,ca65,s65,asz80,sdas,nasm}',
        ),
      },
    },
  );
  client.onRequest(READ_MEMORY_REQUEST, (p: ReadMemoryParams) => readMemory(p));
  await client.start();
  context.subscriptions.push({ dispose: () => void client.stop() });
  return client;
}
