/**
 * The Retro Debug language server: hardware hovers (with the live value from a stopped
 * session, asked of the client), definitions, references and symbols for assembly labels,
 * C functions and globals from the debug info, code lens with code sizes, and diagnostics
 * from the toolchains. Runs under plain Node (src/lsp/main.ts, `--stdio`).
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type CodeLens,
  CodeLensRefreshRequest,
  DiagnosticSeverity,
  Location,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type DocumentSymbol,
  type SymbolInformation,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { dialectOfLanguage } from './asm-dialect.js';
import { checkCommandFor, checkFile } from './check-build.js';
import { cDefinitionsOf, declarationHover } from './c-definition.js';
import { codeLenses, cSymbolsOfFile, debugInfoHover, workspaceCSymbols } from './c-symbols.js';
import { definitionsOf, referencesOf, asmDocumentSymbols, workspaceAsmSymbols } from './label-navigation.js';
import { hardwareAt, liveValueText } from './hover.js';
import { READ_MEMORY_REQUEST, type ReadMemoryParams, type ReadMemoryResult } from './protocol.js';
import { isCSource, machineOf } from './source-scan.js';
import { WorkspaceIndex } from './workspace-index.js';

const LIVE_READ_TIMEOUT_MS = 1500;

const pathOf = (uri: string): string | undefined => (uri.startsWith('file:') ? fileURLToPath(uri) : undefined);

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const byPath = (path: string) =>
    documents
      .all()
      .find((d) => pathOf(d.uri) === path)
      ?.getText();
  let index = new WorkspaceIndex([], byPath);
  let canRefreshLenses = false;

  connection.onInitialize((params) => {
    canRefreshLenses = params.capabilities.workspace?.codeLens?.refreshSupport === true;
    const roots = (params.workspaceFolders ?? []).map((f) => pathOf(f.uri)).filter((p): p is string => !!p);
    if (!roots.length && params.rootUri && pathOf(params.rootUri)) roots.push(pathOf(params.rootUri)!);
    index = new WorkspaceIndex(roots, byPath);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        documentSymbolProvider: true,
        workspaceSymbolProvider: true,
        codeLensProvider: { resolveProvider: false },
      },
      serverInfo: { name: 'retro-debug-lsp' },
    };
  });
  let scanned: Promise<void> = Promise.resolve();
  connection.onInitialized(() => {
    scanned = index.rescan();
  });
  connection.onDidChangeWatchedFiles(({ changes }) => {
    scanned = index.rescan();
    // a build wrote new debug info: the code sizes shown above C functions change with it
    if (canRefreshLenses && changes.some((c) => /\.(dbg|cdb)$/i.test(c.uri)))
      void scanned.then(() => connection.sendRequest(CodeLensRefreshRequest.type)).catch(() => undefined);
  });

  const readLive = async (p: ReadMemoryParams): Promise<ReadMemoryResult> => {
    const timeout = new Promise<null>((r) => setTimeout(() => r(null), LIVE_READ_TIMEOUT_MS).unref());
    const answer = connection.sendRequest<ReadMemoryResult>(READ_MEMORY_REQUEST, p).catch(() => null);
    return Promise.race([answer, timeout]);
  };

  connection.onHover(async ({ textDocument, position }) => {
    const doc = documents.get(textDocument.uri);
    if (!doc) return null;
    await scanned;
    const hardware = hardwareAt(doc.languageId, doc.getText(), position.line, position.character);
    if (hardware) {
      const live = hardware.info.memory
        ? await readLive({ machine: hardware.info.machine, ...hardware.info.memory })
        : null;
      return { contents: { kind: 'markdown', value: liveValueText(hardware, live) }, range: hardware.range };
    }
    const c = await debugInfoHover(index, doc.getText(), position.line, position.character);
    if (c) return { contents: { kind: 'markdown', value: c } };
    const path = pathOf(textDocument.uri);
    if (!path || !isCSource(path)) return null;
    const found = await cDefinitionsOf(index, path, doc.getText(), position.line, position.character);
    const decl = found.defines[0] ?? found.declares[0];
    return decl ? { contents: { kind: 'markdown', value: declarationHover(decl) } } : null;
  });

  connection.onDefinition(async ({ textDocument, position }) => {
    const doc = documents.get(textDocument.uri);
    const path = pathOf(textDocument.uri);
    if (!doc || !path) return null;
    await scanned;
    const asm = () => definitionsOf(index, path, doc.getText(), position.line, position.character);
    if (!isCSource(path)) return toLocations(await asm());
    // a C definition, else an assembly label (C's `f` is ca65's `_f`), else a prototype or extern
    const c = await cDefinitionsOf(index, path, doc.getText(), position.line, position.character);
    if (c.defines.length) return toLocations(c.defines);
    const labels = await asm();
    return toLocations(labels.length ? labels : c.declares);
  });

  connection.onReferences(async ({ textDocument, position }) => {
    const doc = documents.get(textDocument.uri);
    if (!doc) return null;
    await scanned;
    return toLocations(await referencesOf(index, doc.getText(), position.line, position.character));
  });

  connection.onDocumentSymbol(async ({ textDocument }): Promise<DocumentSymbol[] | SymbolInformation[]> => {
    const doc = documents.get(textDocument.uri);
    const path = pathOf(textDocument.uri);
    if (!doc || !path) return [];
    const dialect = dialectOfLanguage(doc.languageId);
    if (dialect) return asmDocumentSymbols(doc.getText(), dialect);
    await scanned;
    return cSymbolsOfFile(index, path, doc.getText());
  });

  connection.onWorkspaceSymbol(async ({ query }) => {
    await scanned;
    const all = [...(await workspaceAsmSymbols(index)), ...(await workspaceCSymbols(index))];
    const q = query.toLowerCase();
    return all
      .filter((s) => s.name.toLowerCase().includes(q))
      .map((s) => ({
        name: s.name,
        kind: s.kind,
        containerName: s.detail,
        location: Location.create(pathToFileURL(s.path).href, lineRange(s.line, s.character, s.name.length)),
      }));
  });

  connection.onCodeLens(async ({ textDocument }) => {
    const doc = documents.get(textDocument.uri);
    const path = pathOf(textDocument.uri);
    if (!doc || !path || dialectOfLanguage(doc.languageId)) return [];
    await scanned;
    // a lens without a command is only shown; '' keeps VS Code from running anything on click
    return (await codeLenses(index, path, doc.getText())).map((l): CodeLens => ({
      range: lineRange(l.line, 0, 0),
      command: { title: l.title, command: '' },
    }));
  });

  const check = async (doc: TextDocument) => {
    const path = pathOf(doc.uri);
    if (!path) return;
    const text = doc.getText();
    const command = checkCommandFor(path, dialectOfLanguage(doc.languageId), machineOf(doc.languageId, text));
    if (!command) return;
    try {
      const result = await checkFile(path, command);
      if ('skipped' in result) {
        connection.console.info(`No diagnostics for ${path}: ${result.skipped}.`);
        return;
      }
      connection.sendDiagnostics({
        uri: doc.uri,
        diagnostics: result.messages.map((m) => ({
          range: lineRange(m.line - 1, 0, Number.MAX_SAFE_INTEGER >>> 11),
          severity:
            m.severity === 'error'
              ? DiagnosticSeverity.Error
              : m.severity === 'warning'
                ? DiagnosticSeverity.Warning
                : DiagnosticSeverity.Information,
          source: m.source,
          message: m.message,
        })),
      });
    } catch (err) {
      connection.console.warn(`Checking ${path} failed: ${(err as Error).message}`);
    }
  };
  documents.onDidOpen((e) => void check(e.document));
  documents.onDidSave((e) => void check(e.document));

  documents.listen(connection);
  connection.listen();
}

function lineRange(line: number, character: number, length: number) {
  return { start: { line, character }, end: { line, character: character + length } };
}

function toLocations(found: { path: string; line: number; character: number; length: number }[]): Location[] {
  return found.map((f) => Location.create(pathToFileURL(f.path).href, lineRange(f.line, f.character, f.length)));
}
