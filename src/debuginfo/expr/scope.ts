/**
 * What names mean at one place in the program: the frame's visible locals
 * and parameters, then file statics and globals, the registers the target
 * reports, and struct/union tags collected from the debug info's types.
 */
import type { CType, DebugInfo, Variable } from '../model.js';
import type { DebugIndex } from '../index.js';
import { SMALL_TARGET, type TargetModel } from './c-types.js';

export interface ExprScope {
  target: TargetModel;
  variable(name: string): Variable | undefined;
  /** width in bits of a register the target reports by this name (case-insensitive), else undefined */
  registerBits(name: string): number | undefined;
  /** `struct point`, `union word`: by keyword and tag */
  tagged(keyword: 'struct' | 'union' | 'enum', tag: string): CType | undefined;
  typedef(name: string): CType | undefined;
}

const tagCache = new WeakMap<DebugInfo, Map<string, CType>>();

/** Every struct/union reachable from the program's variables, by spelling (`struct point`). */
export function taggedTypes(info: DebugInfo): Map<string, CType> {
  let found = tagCache.get(info);
  if (found) return found;
  found = new Map();
  const seen = new Set<CType>();
  const walk = (t: CType | undefined): void => {
    if (!t || seen.has(t)) return;
    seen.add(t);
    if ((t.kind === 'struct' || t.kind === 'union') && t.fields.length && !found!.has(t.name)) found!.set(t.name, t);
    if (t.kind === 'pointer') walk(t.to);
    else if (t.kind === 'array') walk(t.of);
    else if (t.kind === 'function') walk(t.returns);
    else if (t.kind === 'struct' || t.kind === 'union') for (const f of t.fields) walk(f.type);
  };
  for (const v of info.globals) walk(v.type);
  for (const f of info.functions) {
    walk(f.returnType);
    for (const v of [...f.params, ...f.locals]) walk(v.type);
  }
  tagCache.set(info, found);
  return found;
}

export interface ScopeOptions {
  /** names and bit widths of the target's registers */
  registers?: { name: string; bits: number }[];
  target?: TargetModel;
  typedefs?: Map<string, CType>;
}

/** The scope at `pc` (undefined: globals only) of a program's debug index. */
export function scopeAt(index: DebugIndex, pc: number | undefined, opts: ScopeOptions = {}): ExprScope {
  const fn = pc === undefined ? undefined : index.functionAt(pc);
  const locals = fn && pc !== undefined ? index.locals(fn, pc) : [];
  // walked on the first tag an expression names (`(struct point *)p`): it builds every function's variables
  let tags: Map<string, CType> | undefined;
  const regs = new Map((opts.registers ?? []).map((r) => [r.name.toLowerCase(), r.bits]));
  return {
    target: opts.target ?? SMALL_TARGET,
    variable: (name) =>
      locals.find((v) => v.name === name) ?? index.global(name, fn?.file) ?? functionNamed(index, name),
    registerBits: (name) => regs.get(name.toLowerCase()),
    tagged: (keyword, tag) => (tags ??= taggedTypes(index.info)).get(`${keyword} ${tag}`),
    typedef: (name) => opts.typedefs?.get(name) ?? ownValue(index.info.typedefs, name),
  };
}

function ownValue<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A function's name is an object in code: `&main`, `$pc == main`, `(unsigned char *)main`. */
function functionNamed(index: DebugIndex, name: string): Variable | undefined {
  const fn = index.functionByName(name);
  if (!fn) return undefined;
  const returns: CType = fn.returnType ?? { kind: 'int', size: 2, signed: true, name: 'int' };
  return {
    name: fn.name,
    type: { kind: 'function', returns, name: `${returns.name} ()` },
    storage: { kind: 'static', address: fn.start, ...(fn.bank !== undefined ? { bank: fn.bank } : {}) },
  };
}
