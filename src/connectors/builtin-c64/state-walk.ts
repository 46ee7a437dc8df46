/**
 * Captures and restores the mutable fields of a tree of objects: numbers,
 * booleans, strings, typed arrays, and plain arrays and objects of them;
 * class instances are walked into (once each), so a field added to a chip
 * later is in the snapshot without anyone listing it. Functions, Maps,
 * Sets, plain objects holding a function (wiring, not state) and the
 * objects in `skip` are left out. Restoring writes into the live objects
 * in place, so references between them (the editor's view of RAM) stay.
 */

/** One object's captured fields; nested objects are nodes of their own. */
export interface StateNode {
  readonly fields: Record<string, unknown>;
  readonly nodes: Record<string, StateNode>;
}

type AnyTyped = Uint8Array | Uint16Array | Uint32Array | Int8Array | Int16Array | Int32Array | Float64Array;

function isTyped(v: unknown): v is AnyTyped {
  return ArrayBuffer.isView(v) && !(v instanceof DataView);
}

function isPlain(v: object): boolean {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || Array.isArray(v);
}

/** A deep copy of plain data, or undefined when it holds anything else (a function, a class instance). */
function copyData(v: unknown): { value: unknown } | undefined {
  if (v === null || typeof v !== 'object')
    return typeof v === 'function' || typeof v === 'symbol' ? undefined : { value: v };
  if (isTyped(v)) return { value: v.slice() };
  if (!isPlain(v)) return undefined;
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const item of v) {
      const c = copyData(item);
      if (!c) return undefined;
      out.push(c.value);
    }
    return { value: out };
  }
  const out: Record<string, unknown> = {};
  for (const [k, item] of Object.entries(v)) {
    const c = copyData(item);
    if (!c) return undefined;
    out[k] = c.value;
  }
  return { value: out };
}

/**
 * Captures `root`'s state; `skip` names objects that are not state (breakpoint
 * maps, picture buffers), `skipKeys` fields of given objects that are not (run
 * control; callbacks that may be unset, whose `undefined` a restore would
 * otherwise write over the one set since).
 */
export function captureState(
  root: object,
  skip: ReadonlySet<object>,
  skipKeys: ReadonlyMap<object, ReadonlySet<string>>,
): StateNode {
  return walk(root, new Set<object>(skip), skipKeys);
}

function walk(obj: object, seen: Set<object>, skipKeys: ReadonlyMap<object, ReadonlySet<string>>): StateNode {
  seen.add(obj);
  const fields: Record<string, unknown> = {};
  const nodes: Record<string, StateNode> = {};
  const skipped = skipKeys.get(obj);
  for (const [key, value] of Object.entries(obj)) {
    if (skipped?.has(key)) continue;
    if (value !== null && typeof value === 'object') {
      if (seen.has(value) || value instanceof Map || value instanceof Set) continue;
      if (!isTyped(value) && !isPlain(value)) {
        nodes[key] = walk(value, seen, skipKeys);
        continue;
      }
      seen.add(value);
    }
    const c = copyData(value);
    if (c) fields[key] = c.value;
  }
  return { fields, nodes };
}

/** Writes a captured state back into the same tree of objects. */
export function restoreState(root: object, node: StateNode): void {
  const target = root as Record<string, unknown>;
  for (const [key, value] of Object.entries(node.fields)) restoreField(target, key, value);
  for (const [key, child] of Object.entries(node.nodes)) {
    const live = target[key];
    if (live !== null && typeof live === 'object') restoreState(live, child);
  }
}

/** In place where the live value is the same kind of container (others may hold a reference to it). */
function restoreField(target: Record<string, unknown>, key: string, value: unknown): void {
  const live = target[key];
  if (isTyped(value) && isTyped(live) && live.length === value.length && live.constructor === value.constructor) {
    (live as Uint8Array).set(value as Uint8Array);
  } else if (Array.isArray(value) && Array.isArray(live)) {
    live.length = 0;
    for (const item of value) live.push(copyData(item)?.value);
  } else if (isPlainRecord(value) && isPlainRecord(live)) {
    for (const k of Object.keys(live)) if (!(k in value)) delete live[k];
    for (const [k, item] of Object.entries(value)) restoreField(live, k, item);
  } else target[key] = copyData(value)?.value;
}

function isPlainRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !isTyped(v) && isPlain(v);
}

/** The bytes a captured state holds (typed arrays exactly, other fields at 16 bytes each). */
export function stateBytes(node: StateNode): number {
  let bytes = 64;
  for (const value of Object.values(node.fields)) bytes += isTyped(value) ? value.byteLength + 64 : 16;
  for (const child of Object.values(node.nodes)) bytes += stateBytes(child);
  return bytes;
}
