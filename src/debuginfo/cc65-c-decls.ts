/**
 * C types for cc65 programs, read from the C sources: cc65's .dbg names
 * variables but gives them no usable types, so each C file the .dbg names
 * is read with its includes (cc65's own headers too, for `FILE`, `clock_t`,
 * `DIR`) and its declarations parsed (c-declarations.ts). One parse per
 * file; a file that cannot be found leaves its variables as bytes.
 */
import { parseDeclarations, type CDeclarations, type DeclaredObject } from './c-declarations.js';
import { tokenizeSource, type CToken } from './c-source-tokens.js';
import { SMALL_TARGET } from './expr/c-types.js';
import type { CType } from './model.js';

export interface SourceFile {
  /** where it was found (includes are looked up beside it) */
  path: string;
  text: string;
}

/** Finds a source: a name from the .dbg (`from` undefined) or an #include of the file at `from`. */
export type SourceLocator = (name: string, opts: { system: boolean; from?: string }) => SourceFile | undefined;

/** Targets whose cc65 defines __CBM__ beside their own name. */
const CBM_TARGETS = ['c64', 'c128', 'c16', 'plus4', 'pet', 'vic20', 'cbm510', 'cbm610', 'cx16'];
/** Targets that define a family's name too. */
const FAMILY: Record<string, string> = { apple2enh: 'apple2', atarixl: 'atari' };

/**
 * What cc65 predefines for the target of a program linked with `libs` (the
 * .dbg's `lib` records, e.g. c64.lib: __C64__ and __CBM__) and in its default
 * (cc65) language mode, for the sources' `#if`s.
 */
export function cc65Predefined(libs: string[]): Map<string, CToken[]> {
  const value = (text: string): CToken[] => [{ kind: 'num', text, line: 0, file: '' }];
  const out = new Map<string, CToken[]>([
    ['__CC65__', value('0x0213')],
    ['__CC65_STD_C89__', value('0')],
    ['__CC65_STD_C99__', value('1')],
    ['__CC65_STD_CC65__', value('2')],
    ['__CC65_STD__', value('2')],
  ]);
  for (const lib of libs) {
    const target = /([a-z0-9]+)\.lib$/i.exec(lib)?.[1].toLowerCase();
    if (!target || target === 'none') continue;
    for (const name of [target, FAMILY[target], CBM_TARGETS.includes(target) ? 'cbm' : undefined])
      if (name) out.set(`__${name.toUpperCase()}__`, value('1'));
  }
  return out;
}

export class CSourceTypes {
  private readonly parsed = new Map<string, CDeclarations | undefined>();

  constructor(
    private readonly locate: SourceLocator,
    private readonly predefined?: ReadonlyMap<string, CToken[]>,
  ) {}

  /** The declarations of a C file named in the .dbg, or undefined when it cannot be read. */
  declarations(file: string): CDeclarations | undefined {
    if (!this.parsed.has(file)) this.parsed.set(file, this.parse(file));
    return this.parsed.get(file);
  }

  /** A function's parameter or body-level local by name (its own declarations, never another function's). */
  local(file: string, fn: string, name: string): DeclaredObject | undefined {
    const f = this.declarations(file)?.functions.get(fn);
    return f?.locals.find((l) => l.name === name && !l.block) ?? f?.params.find((p) => p.name === name);
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
    const { tokens, macros } = tokenizeSource(
      found.text,
      found.path,
      (name, system, from) => this.locate(name, { system, from: from || found.path }),
      this.predefined,
    );
    return parseDeclarations(tokens, macros, SMALL_TARGET);
  }
}
