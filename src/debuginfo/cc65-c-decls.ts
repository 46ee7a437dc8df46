/**
 * C types for cc65 programs, read from the C sources: cc65's .dbg names
 * variables but gives them no usable types, so each C file the .dbg names
 * is read with its includes (cc65's own headers too, for `FILE`, `clock_t`,
 * `DIR`) and its declarations parsed (c-declarations.ts). One parse per
 * file; a file that cannot be found leaves its variables as bytes.
 */
import { parseDeclarations, type CDeclarations, type DeclaredObject } from './c-declarations.js';
import { tokenizeSource } from './c-source-tokens.js';
import { SMALL_TARGET } from './expr/c-types.js';
import type { CType } from './model.js';

export interface SourceFile {
  /** where it was found (includes are looked up beside it) */
  path: string;
  text: string;
}

/** Finds a source: a name from the .dbg (`from` undefined) or an #include of the file at `from`. */
export type SourceLocator = (name: string, opts: { system: boolean; from?: string }) => SourceFile | undefined;

export class CSourceTypes {
  private readonly parsed = new Map<string, CDeclarations | undefined>();

  constructor(private readonly locate: SourceLocator) {}

  /** The declarations of a C file named in the .dbg, or undefined when it cannot be read. */
  declarations(file: string): CDeclarations | undefined {
    if (!this.parsed.has(file)) this.parsed.set(file, this.parse(file));
    return this.parsed.get(file);
  }

  /** A function's parameter or local by name (its own declarations, never another function's). */
  local(file: string, fn: string, name: string): DeclaredObject | undefined {
    const f = this.declarations(file)?.functions.get(fn);
    return f?.locals.find((l) => l.name === name) ?? f?.params.find((p) => p.name === name);
  }

  /** A file-scope object of `file` (its statics, its definitions, the externs it declares). */
  global(file: string, name: string): DeclaredObject | undefined {
    return this.declarations(file)?.objects.get(name);
  }

  typedefs(files: string[]): Map<string, CType> {
    const out = new Map<string, CType>();
    for (const f of files) for (const [k, v] of this.declarations(f)?.typedefs ?? []) if (!out.has(k)) out.set(k, v);
    return out;
  }

  private parse(file: string): CDeclarations | undefined {
    const found = this.locate(file, { system: false });
    if (!found) return undefined;
    const { tokens, macros } = tokenizeSource(found.text, found.path, (name, system, from) =>
      this.locate(name, { system, from: from || found.path }),
    );
    return parseDeclarations(tokens, macros, SMALL_TARGET);
  }
}
