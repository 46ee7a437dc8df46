/**
 * Gives .s/.asm/.inc files the assembler language their content shows (ca65, sdas, nasm, ACME, 64tass)
 * when VS Code opened them as Plain Text — or always, or never (setting retro.assembly.detect).
 * An explicit `files.associations` entry for the file's extension is never overridden.
 */
import { extname } from 'node:path';
import * as vscode from 'vscode';
import { ASM_LANGUAGES, detectAsmDialect, dialectOfLanguage } from '../lsp/asm-dialect.js';
import { SETTINGS } from './manifest.js';

function explicitlyAssociated(fileName: string): boolean {
  const associations = vscode.workspace.getConfiguration('files').get<Record<string, string>>('associations') ?? {};
  const ext = extname(fileName).toLowerCase();
  return Object.keys(associations).some((glob) => glob.toLowerCase().endsWith(`*${ext}`));
}

async function associate(document: vscode.TextDocument): Promise<void> {
  if (document.uri.scheme !== 'file' && document.uri.scheme !== 'untitled') return;
  const mode = vscode.workspace.getConfiguration().get<string>(SETTINGS.assemblyDetect, 'plaintext');
  if (mode === 'off' || dialectOfLanguage(document.languageId)) return;
  if (mode === 'plaintext' && document.languageId !== 'plaintext') return;
  if (explicitlyAssociated(document.fileName)) return;
  const dialect = detectAsmDialect(document.fileName, document.getText());
  if (dialect) await vscode.languages.setTextDocumentLanguage(document, ASM_LANGUAGES[dialect].id);
}

export function registerAsmAssociation(context: vscode.ExtensionContext, warn: (message: string) => void): void {
  const run = (document: vscode.TextDocument) =>
    associate(document).catch((err: unknown) => warn(`assembly language detection: ${String(err)}`));
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(run));
  for (const document of vscode.workspace.textDocuments) void run(document);
}
