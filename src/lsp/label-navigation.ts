/**
 * Go to definition, references and symbols for assembly labels across the workspace,
 * including the C side of a label (`set_border` in C is `_set_border` in ca65/sdas).
 */
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import { detectAsmDialect, type AsmDialect } from './asm-dialect.js';
import { asmNameOfC, asmSymbols, cNameOfAsm, occurrencesOf, type AsmSymbolKind } from './asm-symbols.js';
import { isCSource, wordAt } from './source-scan.js';
import type { WorkspaceIndex } from './workspace-index.js';

export interface FoundName {
  path: string;
  line: number;
  character: number;
  length: number;
}

export interface WorkspaceSymbol {
  name: string;
  kind: SymbolKind;
  detail?: string;
  path: string;
  line: number;
  character: number;
}

const KINDS: Record<AsmSymbolKind, SymbolKind> = {
  label: SymbolKind.Function,
  proc: SymbolKind.Function,
  macro: SymbolKind.Operator,
  constant: SymbolKind.Constant,
};

interface AsmFile {
  path: string;
  text: string;
  dialect: AsmDialect;
}

async function asmFiles(index: WorkspaceIndex): Promise<AsmFile[]> {
  const out: AsmFile[] = [];
  for (const path of index.sourceFiles()) {
    if (isCSource(path)) continue;
    const text = await index.text(path);
    const dialect = text === undefined ? undefined : detectAsmDialect(path, text);
    if (dialect) out.push({ path, text: text!, dialect });
  }
  return out;
}

/** The name at the position and the names it goes by in the other language. */
function namesAt(text: string, line: number, character: number): string[] {
  const word = wordAt(text.split('\n')[line] ?? '', character);
  if (!word) return [];
  const c = cNameOfAsm(word.text);
  return [word.text, asmNameOfC(word.text), ...(c ? [c] : [])];
}

export async function definitionsOf(
  index: WorkspaceIndex,
  path: string,
  text: string,
  line: number,
  character: number,
): Promise<FoundName[]> {
  const names = namesAt(text, line, character);
  if (!names.length) return [];
  const files = await asmFiles(index);
  // the file itself first: a local label shadows one elsewhere
  files.sort((a, b) => Number(b.path === path) - Number(a.path === path));
  const found: FoundName[] = [];
  for (const f of files)
    for (const s of asmSymbols(f.path === path ? text : f.text, f.dialect))
      if (names.includes(s.name))
        found.push({ path: f.path, line: s.line, character: s.character, length: s.name.length });
  return found;
}

export async function referencesOf(
  index: WorkspaceIndex,
  text: string,
  line: number,
  character: number,
): Promise<FoundName[]> {
  const names = namesAt(text, line, character);
  const found: FoundName[] = [];
  for (const path of index.sourceFiles()) {
    const body = await index.text(path);
    if (body === undefined) continue;
    for (const name of names)
      for (const o of occurrencesOf(body, name, isCSource(path) ? '//' : ';'))
        found.push({ path, line: o.line, character: o.character, length: name.length });
  }
  return found;
}

export function asmDocumentSymbols(text: string, dialect: AsmDialect): DocumentSymbol[] {
  return asmSymbols(text, dialect).map((s) => {
    const range = {
      start: { line: s.line, character: s.character },
      end: { line: s.line, character: s.character + s.name.length },
    };
    return { name: s.name, kind: KINDS[s.kind], detail: s.kind, range, selectionRange: range };
  });
}

export async function workspaceAsmSymbols(index: WorkspaceIndex): Promise<WorkspaceSymbol[]> {
  return (await asmFiles(index)).flatMap((f) =>
    asmSymbols(f.text, f.dialect).map((s) => ({
      name: s.name,
      kind: KINDS[s.kind],
      detail: s.kind,
      path: f.path,
      line: s.line,
      character: s.character,
    })),
  );
}
