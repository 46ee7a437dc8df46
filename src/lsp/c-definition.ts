/**
 * Go to Definition for C names, from the source text read as the compiler reads it: an
 * `#include` opens the file the compiler would; a name is looked up in the locals and
 * parameters of the function the cursor is in, then in the file with the headers it
 * includes (functions, globals, struct/union/enum tags, typedefs, enum constants, macros),
 * then in the C file the debug info says defines it, then in the workspace's other C files.
 * A prototype or an `extern` is given only when nothing defines the name.
 */
import { basename } from 'node:path';
import { parseDeclarations, type CDeclarations } from '../debuginfo/c-declarations.js';
import { tokenizeSource } from '../debuginfo/c-source-tokens.js';
import { SMALL_TARGET } from '../debuginfo/expr/c-types.js';
import { sourceLocator } from '../debuginfo/source-near.js';
import { namePlaces, type NamePlace } from './c-names.js';
import { codeOnlyLines } from './c-symbols.js';
import type { FoundName } from './label-navigation.js';
import { isCSource, wordAt } from './source-scan.js';
import { sameSource, type WorkspaceIndex } from './workspace-index.js';

export interface CFound extends FoundName {
  /** the source line that declares it, trimmed (for a hover) */
  source: string;
}

export interface CDefinitions {
  /** where the name is defined (or the file an #include names) */
  defines: CFound[];
  /** where it is only declared: prototypes, externs */
  declares: CFound[];
}

/** Workspace C files read after the current one's unit, at most (each is tokenized once per request). */
const MAX_OTHER_FILES = 64;
const INCLUDE = /^(\s*#\s*include\s*)([<"])([^>"]+)[>"]/;

/** One C file with the headers it includes, parsed. */
class Unit {
  readonly texts = new Map<string, string>();
  private readonly code = new Map<string, string[]>();
  readonly decls: CDeclarations;
  readonly names: NamePlace[];

  constructor(path: string, text: string, root: string | undefined) {
    this.texts.set(path, text);
    const locate = sourceLocator(path, root);
    const { tokens, macros } = tokenizeSource(
      text,
      path,
      // the headers too: a parameter of a typedef'd type is no declaration to a reader that lacks the typedef
      (name, system, from) => {
        const found = locate(name, { system, from: from || path });
        if (found) this.texts.set(found.path, found.text);
        return found;
      },
    );
    this.decls = parseDeclarations(tokens, macros, SMALL_TARGET);
    this.names = namePlaces(tokens);
  }

  private codeLines(file: string): string[] {
    let lines = this.code.get(file);
    if (!lines) this.code.set(file, (lines = codeOnlyLines(this.texts.get(file) ?? '')));
    return lines;
  }

  /** `name` on 1-based `line` of `file`, as a result. */
  found(file: string, line: number, name: string): CFound {
    const at = this.codeLines(file)[line - 1]?.search(new RegExp(`\\b${name}\\b`)) ?? -1;
    const source = (this.texts.get(file)?.split('\n')[line - 1] ?? '').trim();
    return { path: file, line: line - 1, character: Math.max(0, at), length: name.length, source };
  }

  /** The 1-based line of a function's name: the nearest line above its body's brace that names it. */
  functionLine(file: string, name: string, bodyStart: number): number {
    const lines = this.codeLines(file);
    const re = new RegExp(`\\b${name}\\s*\\(`);
    for (let l = bodyStart; l > 0 && l > bodyStart - 16; l--) if (re.test(lines[l - 1] ?? '')) return l;
    return bodyStart;
  }

  /** A parameter or the nearest local above the cursor of the function whose lines hold it. */
  local(file: string, line: number, name: string): CFound | undefined {
    for (const fn of this.decls.functions.values()) {
      if (fn.file !== file || line > fn.bodyEnd || line < this.functionLine(file, fn.name, fn.bodyStart)) continue;
      const local = fn.locals.filter((l) => l.name === name && l.line <= line).pop();
      const decl = local ?? fn.params.find((p) => p.name === name);
      if (decl) return this.found(file, decl.line, name);
    }
    return undefined;
  }

  lookUp(name: string): CDefinitions {
    const out: CDefinitions = { defines: [], declares: [] };
    const fn = this.decls.functions.get(name);
    if (fn) out.defines.push(this.found(fn.file, this.functionLine(fn.file, name, fn.bodyStart), name));
    const obj = this.decls.objects.get(name);
    if (obj) (obj.linkage === 'extern' ? out.declares : out.defines).push(this.found(obj.file, obj.line, name));
    for (const p of this.names)
      if (p.name === name) (p.defines ? out.defines : out.declares).push(this.found(p.file, p.line, name));
    const define = new RegExp(`^\\s*#\\s*define\\s+${name}\\b`);
    for (const [file, text] of this.texts) {
      const line = text.split('\n').findIndex((l) => define.test(l));
      if (line >= 0) out.defines.push(this.found(file, line + 1, name));
    }
    return out;
  }
}

/** The file an `#include` on the line names, when the cursor is on its name. */
function includedFile(path: string, text: string, root: string | undefined, line: number, character: number) {
  const m = INCLUDE.exec(text.split('\n')[line] ?? '');
  if (!m || character < m[1].length || character > m[1].length + m[3].length + 2) return undefined;
  const found = sourceLocator(path, root)(m[3], { system: m[2] === '<', from: path });
  return found ? { path: found.path, line: 0, character: 0, length: 0, source: `#include ${m[2]}${m[3]}` } : undefined;
}

export async function cDefinitionsOf(
  index: WorkspaceIndex,
  path: string,
  text: string,
  line: number,
  character: number,
): Promise<CDefinitions> {
  const root = index.rootOf(path);
  const include = includedFile(path, text, root, line, character);
  if (include) return { defines: [include], declares: [] };
  const word = wordAt(text.split('\n')[line] ?? '', character);
  if (!word || !/^[A-Za-z_]\w*$/.test(word.text)) return { defines: [], declares: [] };
  const name = word.text;
  const unit = new Unit(path, text, root);
  const local = unit.local(path, line + 1, name);
  if (local) return { defines: [local], declares: [] };
  const here = unit.lookUp(name);
  if (here.defines.length) return here;
  // the file the debug info names for a function or global first, then the others
  const named = new Set<string>();
  for (const { info } of await index.debugInfos())
    for (const f of [...info.functions, ...info.globals]) if (f.name === name && f.file) named.add(f.file);
  const others = index
    .sourceFiles()
    .filter((p) => isCSource(p) && p !== path)
    .sort(
      (a, b) => Number([...named].some((n) => sameSource(n, b))) - Number([...named].some((n) => sameSource(n, a))),
    );
  for (const other of others.slice(0, MAX_OTHER_FILES)) {
    const body = await index.text(other);
    if (body === undefined || !new RegExp(`\\b${name}\\b`).test(body)) continue;
    const there = new Unit(other, body, root).lookUp(name);
    if (there.defines.length) return { defines: there.defines, declares: here.declares };
  }
  return here;
}

/** A hover for a C name without debug-info facts: the line that declares it and where. */
export function declarationHover(found: CFound): string {
  return `\`\`\`c\n${found.source}\n\`\`\`\n${basename(found.path)}:${found.line + 1}`;
}
