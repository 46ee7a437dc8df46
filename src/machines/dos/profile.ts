/**
 * Program profiles: one JSON file describing one DOS program — how to
 * recognise its data segment (marker bytes + checks), where its mouse words
 * are, its screen and palette, named offsets (symbols), watch sets and known
 * code regions. The JSON schema is schemas/dos-profile.schema.json; this
 * validator gives the same verdicts with sentences a person understands.
 */
import { dirname, resolve } from 'node:path';
import { RetroError, badRequest } from '../../core/errors.js';
import { MAX_PROFILE_BYTES, MAX_PROGRAM_BYTES, readRegularFileSync } from '../../core/files.js';

export type SymbolType = 'u8' | 'u16' | 'i16' | 'u32' | 'bytes' | 'cstring';

export interface ProfileSymbol {
  offset: number;
  size: number;
  type: SymbolType;
  description?: string;
}

export type ProfileCheck =
  | { kind: 'equals'; offset: number; bytes: Uint8Array }
  | { kind: 'max'; offset: number; size: 1 | 2; max: number }
  | { kind: 'max_range'; offset: number; size: 1 | 2; min: number; max: number }
  | { kind: 'cstring_via_pointer'; pointer: number; value: string };

export interface DosProfile {
  name: string;
  /** program name as DOS lists it (optional: narrows the marker search) */
  program?: string;
  /** the data segment seen when the profile was written: a hint, the marker decides */
  dsSegmentHint?: number;
  marker: { bytes: Uint8Array; offset: number };
  checks: ProfileCheck[];
  mouse?: { buttons: number; x: number; y: number };
  screen?: { width: number; height: number };
  palette?: (string | number[])[];
  symbols: Record<string, ProfileSymbol>;
  watchSets: Record<string, string[]>;
  codeRegions: { name: string; start: number; end: number; description?: string }[];
}

type Json = Record<string, unknown>;

function bad(where: string, what: string): never {
  throw badRequest(`Profile ${where}: ${what}`, { where });
}

export function parseNumber(v: unknown, where: string): number {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^(0x[0-9a-f]+|\d+)$/i.test(v.trim())) return Number(v.trim());
  return bad(where, `expected a non-negative integer or "0x…" hex string, got ${JSON.stringify(v)}.`);
}

function hexBytes(v: unknown, where: string): Uint8Array {
  if (typeof v !== 'string' || !/^([0-9a-f]{2}\s*)+$/i.test(v.trim()))
    bad(where, 'expected hex byte pairs, e.g. "4B455945".');
  return Uint8Array.from(Buffer.from((v as string).replace(/\s+/g, ''), 'hex'));
}

const SIZES: Record<SymbolType, number> = { u8: 1, u16: 2, i16: 2, u32: 4, bytes: 0, cstring: 0 };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates parsed JSON; `baseDir` resolves a marker's source_dump, which must lie in `roots` when given. */
export function validateProfile(json: unknown, baseDir = process.cwd(), roots?: readonly string[]): DosProfile {
  if (!json || typeof json !== 'object' || Array.isArray(json)) bad('root', 'must be a JSON object.');
  const o = json as Json;
  if (typeof o.name !== 'string' || !o.name) bad('name', 'is required (a string).');
  const m = o.marker as Json | undefined;
  if (!m || typeof m !== 'object')
    bad(
      'marker',
      'is required: { "bytes": "hex", "offset": "0x…" } or { "source_dump": "file", "offset": "0x…", "length": n }.',
    );
  const offset = parseNumber(m.offset, 'marker.offset');
  let bytes: Uint8Array;
  if (m.bytes !== undefined) bytes = hexBytes(m.bytes, 'marker.bytes');
  else if (typeof m.source_dump === 'string') {
    const length = parseNumber(m.length, 'marker.length');
    const dumpOffset = m.dump_offset === undefined ? offset : parseNumber(m.dump_offset, 'marker.dump_offset');
    let dump: Buffer;
    try {
      dump = readRegularFileSync(resolve(baseDir, m.source_dump), { maxBytes: MAX_PROGRAM_BYTES, what: 'dump', roots });
    } catch (err) {
      if (err instanceof RetroError && err.code === 'outside_roots') throw err;
      return bad('marker.source_dump', `cannot read ${resolve(baseDir, m.source_dump)}: ${(err as Error).message}`);
    }
    if (dumpOffset + length > dump.length)
      bad('marker', `the dump has ${dump.length} bytes; offset+length runs past it.`);
    bytes = Uint8Array.from(dump.subarray(dumpOffset, dumpOffset + length));
  } else return bad('marker', 'needs "bytes" or "source_dump".');
  if (bytes.length < 4) bad('marker', `has ${bytes.length} bytes; use at least 4 (50–100 stable bytes are best).`);
  const checks = (
    Array.isArray(o.checks) ? o.checks : o.checks === undefined ? [] : bad('checks', 'must be an array.')
  ).map((c, i) => parseCheck(c, `checks[${i}]`));
  const symbols: Record<string, ProfileSymbol> = {};
  if (o.symbols !== undefined && !isObject(o.symbols)) bad('symbols', 'must be an object of name: { offset, … }.');
  for (const [name, s] of Object.entries((o.symbols ?? {}) as Json)) {
    if (!/^[A-Za-z_][\w.]*$/.test(name))
      bad(`symbols.${name}`, 'names are letters, digits, "_" and "." and start with a letter.');
    if (!isObject(s)) bad(`symbols.${name}`, 'must be an object: { "offset": …, "type": … }.');
    const sj = s;
    const given = sj.size === undefined ? undefined : parseNumber(sj.size, `symbols.${name}.size`);
    const type = (sj.type ??
      ({ 1: 'u8', 2: 'u16', 4: 'u32' } as Record<number, SymbolType>)[given ?? 1] ??
      'bytes') as SymbolType;
    if (!(type in SIZES)) bad(`symbols.${name}.type`, `must be one of ${Object.keys(SIZES).join(', ')}.`);
    const size = given ?? (SIZES[type] || bad(`symbols.${name}.size`, `is required for type ${type}.`));
    if (size < 1 || size > 4096) bad(`symbols.${name}.size`, 'must be 1..4096.');
    symbols[name] = {
      offset: parseNumber(sj.offset, `symbols.${name}.offset`),
      size,
      type,
      description: typeof sj.description === 'string' ? sj.description : undefined,
    };
  }
  const watchSets: Record<string, string[]> = {};
  if (o.watch_sets !== undefined && !isObject(o.watch_sets)) bad('watch_sets', 'must be an object of name: [symbols].');
  for (const [set, list] of Object.entries((o.watch_sets ?? {}) as Json)) {
    if (!Array.isArray(list)) bad(`watch_sets.${set}`, 'must be an array of symbol names.');
    for (const n of list)
      if (typeof n !== 'string' || !Object.hasOwn(symbols, n))
        bad(`watch_sets.${set}`, `names "${n}", which is not in symbols.`);
    watchSets[set] = list as string[];
  }
  const mj = o.mouse as Json | undefined;
  let mouse: DosProfile['mouse'];
  if (mj !== undefined && !isObject(mj)) bad('mouse', 'must be an object: { "buttons", "x", "y" }.');
  if (mj) {
    const buttons = parseNumber(mj.buttons, 'mouse.buttons');
    if (mj.position !== undefined) {
      const p = parseNumber(mj.position, 'mouse.position');
      mouse = { buttons, x: p, y: p + 2 };
    } else mouse = { buttons, x: parseNumber(mj.x, 'mouse.x'), y: parseNumber(mj.y, 'mouse.y') };
  }
  const sj = o.screen as Json | undefined;
  if (sj !== undefined && !isObject(sj)) bad('screen', 'must be an object: { "width", "height" }.');
  const palette =
    o.palette === undefined
      ? undefined
      : Array.isArray(o.palette) && o.palette.length >= 1 && o.palette.length <= 256
        ? (o.palette as (string | number[])[])
        : bad('palette', 'must be an array of 1..256 "RRGGBB" strings or [r,g,b] 6-bit DAC triples.');
  const codeRegions = (Array.isArray(o.code_regions) ? o.code_regions : []).map((r, i) => {
    if (!isObject(r)) bad(`code_regions[${i}]`, 'must be an object: { "name", "start", "end" }.');
    const rj = r;
    return {
      name: String(rj.name ?? `region${i}`),
      start: parseNumber(rj.start, `code_regions[${i}].start`),
      end: parseNumber(rj.end, `code_regions[${i}].end`),
      description: typeof rj.description === 'string' ? rj.description : undefined,
    };
  });
  return {
    name: o.name as string,
    program: typeof o.program === 'string' ? o.program : undefined,
    dsSegmentHint: o.ds_segment === undefined ? undefined : parseNumber(o.ds_segment, 'ds_segment'),
    marker: { bytes, offset },
    checks,
    mouse,
    screen: sj
      ? { width: parseNumber(sj.width, 'screen.width'), height: parseNumber(sj.height, 'screen.height') }
      : undefined,
    palette,
    symbols,
    watchSets,
    codeRegions,
  };
}

function parseCheck(c: unknown, where: string): ProfileCheck {
  if (!isObject(c)) bad(where, 'must be an object with a "kind".');
  const j = c;
  const size = (v: unknown) => {
    const n = v === undefined ? 1 : parseNumber(v, `${where}.size`);
    return n === 1 || n === 2 ? n : bad(`${where}.size`, 'must be 1 or 2.');
  };
  switch (j?.kind) {
    case 'equals':
      return {
        kind: 'equals',
        offset: parseNumber(j.offset, `${where}.offset`),
        bytes: hexBytes(j.bytes ?? j.value, `${where}.bytes`),
      };
    case 'max':
      return {
        kind: 'max',
        offset: parseNumber(j.offset, `${where}.offset`),
        size: size(j.size),
        max: parseNumber(j.max, `${where}.max`),
      };
    case 'max_range':
      return {
        kind: 'max_range',
        offset: parseNumber(j.offset, `${where}.offset`),
        size: size(j.size),
        min: parseNumber(j.min ?? 0, `${where}.min`),
        max: parseNumber(j.max, `${where}.max`),
      };
    case 'cstring_via_pointer':
      if (typeof j.value !== 'string') bad(`${where}.value`, 'is the expected string.');
      return {
        kind: 'cstring_via_pointer',
        pointer: parseNumber(j.pointer, `${where}.pointer`),
        value: j.value as string,
      };
    default:
      return bad(
        `${where}.kind`,
        `must be cstring_via_pointer, max, max_range or equals, not ${JSON.stringify(j?.kind)}.`,
      );
  }
}

/** Reads and validates a profile file (a regular file, size-capped; inside `roots` when given). */
export function loadProfileFile(path: string, roots?: readonly string[]): DosProfile {
  const text = readRegularFileSync(path, { maxBytes: MAX_PROFILE_BYTES, what: 'profile', roots }).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // the parser's message quotes the file's text: never echo a file's content back to a client
    throw badRequest(`Profile ${path} is not valid JSON.`, { path });
  }
  return validateProfile(json, dirname(path), roots);
}

/** Does a check hold for the DS segment bytes (64 KB from DS:0)? Returns a sentence when not. */
export function failedCheck(check: ProfileCheck, ds: Uint8Array): string | undefined {
  const val = (o: number, s: number) => (s === 1 ? ds[o] : ds[o] | (ds[o + 1] << 8));
  switch (check.kind) {
    case 'equals': {
      const got = ds.subarray(check.offset, check.offset + check.bytes.length);
      return Buffer.from(got).equals(Buffer.from(check.bytes))
        ? undefined
        : `equals at 0x${check.offset.toString(16)}: found ${Buffer.from(got).toString('hex')}`;
    }
    case 'max':
      return val(check.offset, check.size) <= check.max
        ? undefined
        : `max at 0x${check.offset.toString(16)}: ${val(check.offset, check.size)} > ${check.max}`;
    case 'max_range': {
      const v = val(check.offset, check.size);
      return v >= check.min && v <= check.max
        ? undefined
        : `max_range at 0x${check.offset.toString(16)}: ${v} outside ${check.min}..${check.max}`;
    }
    case 'cstring_via_pointer': {
      const p = val(check.pointer, 2);
      let s = '';
      for (let i = p; i < ds.length && ds[i] !== 0 && s.length <= check.value.length; i++)
        s += String.fromCharCode(ds[i]);
      return s === check.value
        ? undefined
        : `cstring_via_pointer at 0x${check.pointer.toString(16)} → 0x${p.toString(16)}: "${s}" is not "${check.value}"`;
    }
  }
}
