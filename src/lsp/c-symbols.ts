/**
 * C functions and globals from the debug info the toolchain wrote (cc65 .dbg, SDCC .cdb):
 * document and workspace symbols with their addresses and sizes, code lens with each
 * function's code size, and hovers on a global's name.
 */
import { dirname, resolve } from 'node:path';
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import type { DebugInfo, FunctionInfo, Variable } from '../debuginfo/model.js';
import { sizeOf } from '../debuginfo/values.js';
import type { WorkspaceSymbol } from './label-navigation.js';
import { wordAt } from './source-scan.js';
import { sameSource, type WorkspaceIndex } from './workspace-index.js';

function addressText(info: DebugInfo, address: number): string {
  const digits = address.toString(16).toUpperCase().padStart(4, '0');
  return info.cpu === '6502' ? `$${digits}` : `0x${digits}`;
}

const codeSize = (f: FunctionInfo) => f.end - f.start + 1;

function functionDetail(info: DebugInfo, f: FunctionInfo): string {
  return `${codeSize(f)} bytes at ${addressText(info, f.start)}`;
}

function globalDetail(info: DebugInfo, g: Variable): string | undefined {
  if (g.storage.kind !== 'static') return undefined;
  return `${g.type.name}, ${sizeOf(g.type)} bytes at ${addressText(info, g.storage.address)}`;
}

/**
 * C text's lines with comments (and string and character literals) blanked out, line count kept: a
 * comment that mentions a function, e.g. `/* paint(x) draws … *\/`, is no definition.
 */
export function codeOnlyLines(text: string): string[] {
  let inBlock = false;
  return text.split('\n').map((line) => {
    let out = '';
    for (let i = 0; i < line.length; i++) {
      if (inBlock) {
        if (line.startsWith('*/', i)) {
          inBlock = false;
          i++;
        }
        out += ' ';
        continue;
      }
      if (line.startsWith('/*', i)) {
        inBlock = true;
        out += ' ';
        i++;
        continue;
      }
      if (line.startsWith('//', i)) break;
      const quote = line[i];
      if (quote === '"' || quote === "'") {
        let j = i + 1;
        while (j < line.length && line[j] !== quote) j += line[j] === '\\' ? 2 : 1;
        out += quote + ' '.repeat(Math.max(0, Math.min(j, line.length) - i - 1)) + quote;
        i = j;
        continue;
      }
      out += line[i];
    }
    return out;
  });
}

/** Debug infos newest first, so that of two builds of the same sources (F5's build/ beside one's own) the newer wins. */
async function newestFirst(index: WorkspaceIndex) {
  return (await index.debugInfos()).sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/** The 0-based line where `name` is defined in C text: `name(` on a line not ending in `;`, or a declaration. */
function definitionLine(
  text: string,
  name: string,
  isFunction: boolean,
): { line: number; character: number } | undefined {
  const lines = codeOnlyLines(text);
  const re = isFunction
    ? new RegExp(`^[^;#/]*\\b${name}\\s*\\([^;]*$`)
    : new RegExp(`^\\s*(?!return\\b)[A-Za-z_][\\w\\s*]*\\b${name}\\s*(\\[[^\\]]*\\]\\s*)?(=|;)`);
  for (let i = 0; i < lines.length; i++) {
    if (re.test(lines[i])) return { line: i, character: lines[i].search(new RegExp(`\\b${name}\\b`)) };
  }
  return undefined;
}

export async function cSymbolsOfFile(index: WorkspaceIndex, path: string, text: string): Promise<DocumentSymbol[]> {
  const out: DocumentSymbol[] = [];
  const seen = new Set<string>(); // each name once, from the newest build
  for (const { info } of await newestFirst(index)) {
    for (const f of info.functions.filter((fn) => fn.file && sameSource(fn.file, path) && !seen.has(fn.name))) {
      const at = definitionLine(text, f.name, true);
      if (at) out.push(symbol(f.name, SymbolKind.Function, functionDetail(info, f), at));
      seen.add(f.name);
    }
    for (const g of info.globals.filter((v) => !seen.has(v.name))) {
      const detail = globalDetail(info, g);
      const at = detail && definitionLine(text, g.name, false);
      if (detail && at) out.push(symbol(g.name, SymbolKind.Variable, detail, at));
      if (detail && at) seen.add(g.name);
    }
  }
  return out;
}

function symbol(
  name: string,
  kind: SymbolKind,
  detail: string,
  at: { line: number; character: number },
): DocumentSymbol {
  const range = { start: at, end: { line: at.line, character: at.character + name.length } };
  return { name, kind, detail, range, selectionRange: range };
}

export async function workspaceCSymbols(index: WorkspaceIndex): Promise<WorkspaceSymbol[]> {
  const out: WorkspaceSymbol[] = [];
  for (const { path: dbgPath, info } of await index.debugInfos()) {
    for (const f of info.functions) {
      const source = f.file ? resolve(dirname(dbgPath), f.file) : dbgPath;
      // the function's lines: a range of the address-sorted table
      const line: number[] = [];
      for (let i = info.lines.lowerBound(f.start); i < info.lines.length && info.lines.address(i) <= f.end; i++)
        line.push(info.lines.line(i));
      out.push({
        name: f.name,
        kind: SymbolKind.Function,
        detail: functionDetail(info, f),
        path: source,
        line: line.length ? Math.min(...line) - 1 : 0,
        character: 0,
      });
    }
    for (const g of info.globals) {
      const detail = globalDetail(info, g);
      if (detail) out.push({ name: g.name, kind: SymbolKind.Variable, detail, path: dbgPath, line: 0, character: 0 });
    }
  }
  return out;
}

export interface SizeLens {
  line: number;
  title: string;
}

/** One lens per C function of this file that the debug info knows. Cycle counts are not measured yet. */
export async function codeLenses(index: WorkspaceIndex, path: string, text: string): Promise<SizeLens[]> {
  const out: SizeLens[] = [];
  const seen = new Set<string>(); // one lens per function, from the newest build of this file
  for (const { info } of await newestFirst(index))
    for (const f of info.functions.filter((fn) => fn.file && sameSource(fn.file, path) && !seen.has(fn.name))) {
      seen.add(f.name);
      const at = definitionLine(text, f.name, true);
      if (at) out.push({ line: at.line, title: functionDetail(info, f) });
    }
  return out.sort((a, b) => a.line - b.line);
}

/** A C global or function named under the cursor: where it lives and how big it is. */
export async function debugInfoHover(
  index: WorkspaceIndex,
  text: string,
  line: number,
  character: number,
): Promise<string | undefined> {
  const word = wordAt(text.split('\n')[line] ?? '', character);
  if (!word) return undefined;
  for (const { path, info } of await index.debugInfos()) {
    const f = info.functions.find((fn) => fn.name === word.text);
    if (f) return `**${f.name}()** — ${functionDetail(info, f)} (${info.format}, ${path})`;
    const g = info.globals.find((v) => v.name === word.text);
    const detail = g && globalDetail(info, g);
    if (detail) return `**${g!.name}** — ${detail} (${info.format}, ${path})`;
  }
  return undefined;
}
