/**
 * C declarations read from source tokens (c-source-tokens.ts) into the
 * debug-info model's types, for toolchains whose debug info names
 * variables without types (cc65): every declarator of a declaration,
 * typedef names, struct/union (nested, self-referencing through a tag),
 * enums and their constants, arrays sized by constant expressions (macros,
 * enum constants, sizeof) or by their initialiser, pointers to anything,
 * function parameters and each function's own locals. cc65 lays structs
 * out without padding. Anything not understood is skipped to the next `;`.
 */
import type { CField, CType } from './model.js';
import { pointerTo, scalarFromWords, type TargetModel } from './expr/c-types.js';
import { sizeOf } from './values.js';
import type { CToken } from './c-source-tokens.js';
import { ConstEval } from './c-const-expr.js';
import { TokenCursor } from './c-token-cursor.js';

export interface DeclaredObject {
  name: string;
  type: CType;
  /** 'extern': declared only; 'static': file scope, internal linkage */
  linkage: 'extern' | 'static' | 'global' | 'local' | 'local-static' | 'register';
  file: string;
  line: number;
  /** a local of a block inside the function's body (not of the body itself) */
  block?: DeclBlock;
  /** a local with an initialiser */
  initialised?: boolean;
}

/** A `{ … }` inside a function body by source lines: `body` is its first statement's; `depth` 1 is directly inside. */
export type DeclBlock = { open: number; close: number; body: number; depth: number };

export interface FunctionDecls {
  name: string;
  file: string;
  /** lines of the body's braces */
  bodyStart: number;
  bodyEnd: number;
  params: DeclaredObject[];
  locals: DeclaredObject[];
}

export interface CDeclarations {
  /** file-scope objects; a definition replaces an earlier extern declaration */
  objects: Map<string, DeclaredObject>;
  functions: Map<string, FunctionDecls>;
  typedefs: Map<string, CType>;
  /** `struct point`, `union word`, `enum colour` */
  tags: Map<string, CType>;
  constants: Map<string, number>;
}

const STORAGE = new Set(['typedef', 'extern', 'static', 'auto', 'register']);
const SCALAR_WORDS = new Set([
  'void',
  'char',
  'short',
  'int',
  'long',
  'float',
  'double',
  'signed',
  'unsigned',
  '_Bool',
]);
/** qualifiers and cc65's calling-convention and address-size keywords: no effect on layout */
const IGNORED = new Set(['const', 'volatile', 'restrict', '__restrict__', 'inline', '__inline__', '__fastcall__', 'fastcall', '__cdecl__', 'cdecl', '__near__', 'near', '__far__', 'far', '__huge__', 'huge']); // prettier-ignore
const MAX_ARRAY_LENGTH = 0x10000;

type Specifiers = { type: CType; storage?: string };
type RecordType = Extract<CType, { kind: 'struct' | 'union' }>;
interface Declarator {
  name?: string;
  line: number;
  apply: (base: CType) => CType;
  /** the parameters when the declarator declares a function */
  params?: DeclaredObject[];
}

export function parseDeclarations(tokens: CToken[], macros: Map<string, CToken[]>, target: TargetModel): CDeclarations {
  return new Parser(tokens, macros, target).run();
}

class Parser extends TokenCursor {
  private readonly out: CDeclarations = {
    objects: new Map(),
    functions: new Map(),
    typedefs: new Map(),
    tags: new Map(),
    constants: new Map(),
  };
  /** the blocks open inside the function body being read, innermost last */
  private blocks: DeclBlock[] = [];

  constructor(
    t: CToken[],
    private readonly macros: Map<string, CToken[]>,
    private readonly target: TargetModel,
  ) {
    super(t);
  }

  run(): CDeclarations {
    while (this.at < this.t.length) {
      const start = this.at;
      try {
        this.external();
      } catch {
        this.at = Math.max(this.at, start + 1);
        this.skipStatement();
      }
      if (this.at === start) this.at++;
    }
    return this.out;
  }

  // ---- declarations ----

  private external(): void {
    if (this.take(';')) return;
    if (this.is('__asm__') || this.is('asm')) return this.skipStatement();
    const spec = this.specifiers();
    if (!spec) return this.skipStatement();
    if (this.take(';')) return; // `struct s { … };`
    for (;;) {
      const d = this.declarator();
      this.skipAttributes();
      if (d.params && this.is('{')) return this.functionBody(d, spec);
      this.declare(d, spec, 'file');
      if (this.take('=')) this.initialiserInto(d, spec, 'file');
      if (this.take(',')) continue;
      this.expect(';');
      return;
    }
  }

  /** After `=`: counts the initialiser's elements so `T a[] = {…}` gets its length. */
  private initialiserInto(d: Declarator, spec: Specifiers, scope: 'file' | FunctionDecls): void {
    const count = this.initialiser();
    const declared = d.apply(spec.type);
    if (declared.kind === 'array' && declared.length === 0 && count > 0 && d.name) {
      const sized: CType = { ...declared, length: count, name: arrayName(declared.of, count) };
      this.declare({ ...d, apply: () => sized }, spec, scope);
    }
  }

  private declare(d: Declarator, spec: Specifiers, scope: 'file' | FunctionDecls): void {
    if (!d.name) return;
    const type = d.apply(spec.type);
    if (spec.storage === 'typedef') {
      this.out.typedefs.set(d.name, named(type, d.name));
      return;
    }
    if (type.kind === 'function') return; // a prototype
    const file = this.t[Math.max(0, this.at - 1)]?.file ?? '';
    if (scope === 'file') {
      const linkage = spec.storage === 'extern' ? 'extern' : spec.storage === 'static' ? 'static' : 'global';
      const prior = this.out.objects.get(d.name);
      if (linkage === 'extern' && prior && prior.linkage !== 'extern') return;
      this.out.objects.set(d.name, { name: d.name, type, linkage, file, line: d.line });
      return;
    }
    const linkage = spec.storage === 'static' ? 'local-static' : spec.storage === 'register' ? 'register' : 'local';
    const existing = scope.locals.findIndex((l) => l.name === d.name && l.line === d.line);
    const entry: DeclaredObject = { name: d.name, type, linkage, file, line: d.line };
    if (this.blocks.length) entry.block = this.blocks[this.blocks.length - 1];
    // called before `=` is taken (and again after the initialiser when it sizes an array)
    if (this.is('=') || scope.locals[existing]?.initialised) entry.initialised = true;
    if (existing >= 0) scope.locals[existing] = entry;
    else scope.locals.push(entry);
  }

  /** Declaration specifiers, or undefined (this.at unchanged) when the tokens do not start a declaration. */
  private specifiers(): Specifiers | undefined {
    const start = this.at;
    const words: string[] = [];
    let storage: string | undefined;
    let type: CType | undefined;
    for (;;) {
      this.skipAttributes();
      const tok = this.peek();
      if (!tok || tok.kind !== 'id') break;
      if (STORAGE.has(tok.text)) {
        if (tok.text !== 'auto') storage = tok.text;
        this.at++;
      } else if (IGNORED.has(tok.text)) this.at++;
      else if (SCALAR_WORDS.has(tok.text)) {
        words.push(tok.text);
        this.at++;
      } else if ((tok.text === 'struct' || tok.text === 'union') && !type && !words.length) {
        this.at++;
        type = this.record(tok.text);
      } else if (tok.text === 'enum' && !type && !words.length) {
        this.at++;
        type = this.enumeration();
      } else if (!type && !words.length && this.out.typedefs.has(tok.text)) {
        type = this.out.typedefs.get(tok.text);
        this.at++;
      } else break;
    }
    if (!type && !words.length) {
      if (storage && storage !== 'typedef') return { type: scalarOrThrow(['int'], this.target), storage }; // implicit int
      this.at = start;
      return undefined;
    }
    return { type: type ?? scalarOrThrow(words, this.target), storage };
  }

  private record(keyword: 'struct' | 'union'): CType {
    this.skipAttributes();
    const tagTok = this.peek()?.kind === 'id' ? this.t[this.at++] : undefined;
    const spelled = `${keyword} ${tagTok?.text ?? '<anonymous>'}`;
    let type = (tagTok ? this.out.tags.get(spelled) : undefined) as RecordType | undefined;
    if (!type) {
      type = { kind: keyword, size: 0, name: spelled, fields: [] };
      if (tagTok) this.out.tags.set(spelled, type);
    }
    if (!this.take('{')) return type;
    const fields: CField[] = [];
    let offset = 0;
    let size = 0;
    let bits: { unit: number; used: number; at: number } | undefined;
    while (!this.is('}') && this.at < this.t.length) {
      const spec = this.specifiers();
      if (!spec) {
        this.skipStatement();
        continue;
      }
      if (this.take(';')) {
        // an anonymous struct/union member: its fields join this one
        const inner = spec.type as Extract<CType, { kind: 'struct' | 'union' }>;
        for (const f of inner.fields ?? [])
          fields.push({ ...f, offset: f.offset + (keyword === 'struct' ? offset : 0) });
        const s = sizeOf(spec.type);
        offset = keyword === 'struct' ? offset + s : 0;
        size = Math.max(size, keyword === 'struct' ? offset : s);
        continue;
      }
      for (;;) {
        const d = this.is(':')
          ? { name: undefined, line: this.peek()!.line, apply: (t: CType) => t }
          : this.declarator();
        const fieldType = d.apply(spec.type);
        if (this.take(':')) {
          const width = this.constant([',', ';']);
          const unit = sizeOf(fieldType) || 1;
          if (!bits || bits.unit !== unit || bits.used + width > unit * 8 || width === 0) {
            if (keyword === 'struct' && bits) offset += bits.unit;
            bits = { unit, used: 0, at: keyword === 'struct' ? offset : 0 };
          }
          if (d.name)
            fields.push({ name: d.name, offset: bits.at, type: fieldType, bitOffset: bits.used, bitWidth: width });
          bits.used += width;
          size = Math.max(size, bits.at + bits.unit);
        } else {
          if (bits && keyword === 'struct') offset += bits.unit;
          bits = undefined;
          const at = keyword === 'struct' ? offset : 0;
          if (d.name) fields.push({ name: d.name, offset: at, type: fieldType });
          const s = sizeOf(fieldType);
          if (keyword === 'struct') offset += s;
          size = Math.max(size, at + s);
        }
        if (!this.take(',')) break;
      }
      this.expect(';');
    }
    this.expect('}');
    if (bits && keyword === 'struct') size = Math.max(size, offset + bits.unit);
    type.fields.splice(0, type.fields.length, ...fields); // in place: typedef copies share the array
    type.size = size;
    return type;
  }

  private enumeration(): CType {
    this.skipAttributes();
    const tagTok = this.peek()?.kind === 'id' ? this.t[this.at++] : undefined;
    const spelled = `enum ${tagTok?.text ?? '<anonymous>'}`;
    const type: CType = { kind: 'int', size: this.target.intSize, signed: true, name: spelled };
    if (!this.take('{')) return this.out.tags.get(spelled) ?? type;
    let next = 0;
    while (!this.is('}') && this.at < this.t.length) {
      const name = this.t[this.at++];
      if (this.take('=')) next = this.constant([',', '}']);
      this.out.constants.set(name.text, next++);
      if (!this.take(',')) break;
    }
    this.expect('}');
    if (tagTok) this.out.tags.set(spelled, type);
    return type;
  }

  private declarator(): Declarator {
    let stars = 0;
    for (;;) {
      this.skipAttributes();
      if (this.take('*')) stars++;
      else if (this.peek()?.kind === 'id' && IGNORED.has(this.peek()!.text)) this.at++;
      else break;
    }
    const direct = this.directDeclarator();
    return {
      ...direct,
      apply: (base) => {
        let t = base;
        for (let i = 0; i < stars; i++) t = pointerTo(t, this.target);
        return direct.apply(t);
      },
    };
  }

  private directDeclarator(): Declarator {
    let inner: Declarator | undefined;
    let name: string | undefined;
    const line = this.peek()?.line ?? 0;
    if (this.peek()?.kind === 'id' && !SCALAR_WORDS.has(this.peek()!.text)) name = this.t[this.at++].text;
    else if (this.is('(') && (this.is('*', 1) || this.is('(', 1) || this.is('__fastcall__', 1))) {
      this.at++;
      inner = this.declarator();
      this.expect(')');
    }
    const suffixes: ((t: CType) => CType)[] = [];
    let params: DeclaredObject[] | undefined;
    for (;;) {
      if (this.take('[')) {
        const length = this.is(']') ? 0 : this.constant([']']);
        this.expect(']');
        if (length < 0 || length > MAX_ARRAY_LENGTH) throw new Error('array length');
        suffixes.push((t) => ({ kind: 'array', length, of: t, name: arrayName(t, length) }));
      } else if (this.is('(')) {
        const list = this.parameters();
        if (!params && !inner) params = list;
        suffixes.push((t) => ({ kind: 'function', returns: t, name: `${t.name} ()` }));
      } else break;
    }
    const applySuffixes = (base: CType) => suffixes.reduceRight((t, wrap) => wrap(t), base);
    return {
      name: inner?.name ?? name,
      line: inner?.line ?? line,
      params: inner ? inner.params : params,
      apply: (base) => (inner ? inner.apply(applySuffixes(base)) : applySuffixes(base)),
    };
  }

  private parameters(): DeclaredObject[] {
    this.expect('(');
    const out: DeclaredObject[] = [];
    while (!this.is(')') && this.at < this.t.length) {
      if (this.take('...')) continue;
      const spec = this.specifiers();
      if (!spec) {
        this.at++; // K&R identifier list
      } else {
        const d = this.declarator();
        const type = d.apply(spec.type);
        if (d.name && type.kind !== 'void') {
          const adjusted = type.kind === 'array' ? pointerTo(type.of, this.target) : type;
          out.push({ name: d.name, type: adjusted, linkage: 'local', file: this.peek()?.file ?? '', line: d.line });
        }
      }
      if (!this.take(',')) break;
    }
    this.expect(')');
    return out;
  }

  private functionBody(d: Declarator, spec: Specifiers): void {
    const open = this.peek()!;
    const fn: FunctionDecls = {
      name: d.name ?? '',
      file: open.file,
      bodyStart: open.line,
      bodyEnd: open.line,
      params: d.params ?? [],
      locals: [],
    };
    void spec;
    this.at++;
    let depth = 1;
    this.blocks = [];
    // a block's declarations end at the first token of anything else
    const statement = () => {
      const top = this.blocks[this.blocks.length - 1];
      if (top && !top.body) top.body = this.peek()?.line ?? top.open;
    };
    while (this.at < this.t.length && depth > 0) {
      if (this.is('{')) {
        statement();
        const line = this.t[this.at++].line;
        this.blocks.push({ open: line, close: line, body: 0, depth: this.blocks.length + 1 });
        depth++;
        continue;
      }
      if (this.is('}')) {
        statement();
        fn.bodyEnd = this.t[this.at++].line;
        const done = depth > 1 ? this.blocks.pop() : undefined;
        if (done) done.close = fn.bodyEnd;
        depth--;
        continue;
      }
      if (this.take(';')) continue;
      const spec = this.peek()?.kind === 'id' && !this.is(':', 1) ? this.specifiers() : undefined;
      if (!spec) {
        statement();
        this.skipInBody();
        continue;
      }
      try {
        if (this.take(';')) continue;
        for (;;) {
          const local = this.declarator();
          this.declare(local, spec, fn);
          if (this.take('=')) this.initialiserInto(local, spec, fn);
          if (!this.take(',')) break;
        }
        this.expect(';');
      } catch {
        this.skipInBody();
      }
    }
    this.blocks = [];
    if (fn.name) this.out.functions.set(fn.name, fn);
  }

  // ---- constant expressions ----

  /** An integer constant expression up to one of `stops` (not consumed). */
  private constant(stops: string[]): number {
    const tokens: CToken[] = [];
    let depth = 0;
    while (this.at < this.t.length) {
      const tok = this.peek()!;
      if (tok.kind === 'p' && depth === 0 && stops.includes(tok.text)) break;
      if (tok.kind === 'p' && (tok.text === '(' || tok.text === '[')) depth++;
      if (tok.kind === 'p' && (tok.text === ')' || tok.text === ']')) depth--;
      tokens.push(tok);
      this.at++;
    }
    return new ConstEval(this.expand(tokens, 0), this).value();
  }

  expand(tokens: CToken[], depth: number): CToken[] {
    if (depth > 16) throw new Error('macro depth');
    const out: CToken[] = [];
    for (const tok of tokens) {
      const body = tok.kind === 'id' ? this.macros.get(tok.text) : undefined;
      if (body) out.push(...this.expand(body, depth + 1));
      else out.push(tok);
    }
    return out;
  }

  constantOf(name: string): number | undefined {
    return this.out.constants.get(name);
  }

  /** sizeof(type-name), or of a file-scope object's name when `objects`; undefined when neither. */
  sizeOfTypeName(tokens: CToken[], objects = true): number | undefined {
    const sub = new Parser(tokens, this.macros, this.target);
    Object.assign(sub.out, { typedefs: this.out.typedefs, tags: this.out.tags, constants: this.out.constants });
    const spec = sub.specifiers();
    if (spec) return sizeOf(sub.declarator().apply(spec.type));
    const named = objects && tokens.length === 1 ? this.out.objects.get(tokens[0].text) : undefined;
    return named ? sizeOf(named.type) : undefined;
  }
}

function scalarOrThrow(words: string[], target: TargetModel): CType {
  const t = scalarFromWords(words, target);
  if (typeof t === 'string') throw new Error(t);
  return t;
}

/**
 * A typedef keeps its target's shape under its own name (`clock_t`,
 * `FILE`), so values show the name people wrote. An anonymous struct takes
 * the name itself; a tagged one is copied sharing its field array, so fields
 * completed later are seen through the typedef too.
 */
function named(type: CType, name: string): CType {
  if ((type.kind === 'struct' || type.kind === 'union') && type.name.endsWith('<anonymous>')) {
    type.name = name;
    return type;
  }
  return { ...type, name } as CType;
}

/** `char[4][8]` for 4 of `char[8]`: the new dimension goes first. */
function arrayName(of: CType, length: number): string {
  const at = of.kind === 'array' ? of.name.indexOf('[') : -1;
  return at >= 0 ? `${of.name.slice(0, at)}[${length}]${of.name.slice(at)}` : `${of.name}[${length}]`;
}
