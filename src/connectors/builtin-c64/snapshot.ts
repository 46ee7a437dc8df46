/**
 * The built-in C64's snapshots (the monitor's DUMP/UNDUMP): the machine state the history captures
 * (machine-state.ts: CPU, RAM, colour RAM, VIC-II, CIAs, SID, KERNAL stand-in; never checkpoints or watch flags,
 * which the session arms again after a load), serialized. The file names the layout it was written from (a hash of
 * every field's path): a snapshot of another build whose machine has other fields, of another format version, or
 * damaged (SHA-256 over the whole file) is refused before one field is touched.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { checkInsideRoots, readRegularFileSync, realPathLoose } from '../../core/files.js';
import { deserialize, serialize } from 'node:v8';
import type { BuiltinC64 } from './c64.js';
import { captureMachine, restoreMachine } from './machine-state.js';
import type { StateNode } from './state-walk.js';
import { ErrCode } from '../vice/protocol.js';
import type { Answer } from './monitor-commands.js';

/** the machine's state is well under this (RAM, raster buffers, chips) */
const MAX_SNAPSHOT_BYTES = 4 * 1024 * 1024;
const MAGIC = Buffer.from('RDC64SNAP', 'latin1');
export const SNAPSHOT_VERSION = 2;
/** magic, version, layout hash, then the state (v8 serialization), then the SHA-256 of all before */
const HEAD = MAGIC.length + 2 + 32;

export class SnapshotError extends Error {}

/** The names of every field and object of a captured state, in walk order, hashed: the machine's layout. */
function layoutOf(node: StateNode): Buffer {
  const paths: string[] = [];
  const walk = (n: StateNode, at: string) => {
    for (const key of Object.keys(n.fields)) paths.push(`${at}.${key}`);
    for (const [key, child] of Object.entries(n.nodes)) walk(child, `${at}.${key}`);
  };
  walk(node, 'c64');
  return createHash('sha256').update(paths.join('\n')).digest();
}

/** The payload format a session checks before loading: the version and this build's machine layout. */
export function builtinStateFormat(machine: BuiltinC64): string {
  const layout = layoutOf(captureMachine(machine).root);
  return `builtin-c64/${SNAPSHOT_VERSION}/${layout.toString('hex').slice(0, 16)}`;
}

export function encodeMachine(machine: BuiltinC64): Buffer {
  const { root } = captureMachine(machine);
  const head = Buffer.alloc(HEAD);
  MAGIC.copy(head);
  head.writeUInt16LE(SNAPSHOT_VERSION, MAGIC.length);
  layoutOf(root).copy(head, MAGIC.length + 2);
  const body = Buffer.concat([head, serialize(root)]);
  return Buffer.concat([body, createHash('sha256').update(body).digest()]);
}

/** Checks the whole file first; only a snapshot that fits this machine exactly is put back. */
export function decodeMachine(machine: BuiltinC64, file: Buffer): void {
  if (file.length < HEAD + 32 || !file.subarray(0, MAGIC.length).equals(MAGIC))
    throw new SnapshotError('not a built-in C64 snapshot');
  const version = file.readUInt16LE(MAGIC.length);
  if (version !== SNAPSHOT_VERSION)
    throw new SnapshotError(`snapshot format ${version}; this build reads format ${SNAPSHOT_VERSION}`);
  const body = file.subarray(0, file.length - 32);
  if (
    !createHash('sha256')
      .update(body)
      .digest()
      .equals(file.subarray(file.length - 32))
  )
    throw new SnapshotError('the snapshot is damaged (its SHA-256 does not match)');
  const now = captureMachine(machine);
  if (!layoutOf(now.root).equals(file.subarray(MAGIC.length + 2, HEAD)))
    throw new SnapshotError('written by another build of Retro Debug, whose machine has other fields');
  let root: StateNode;
  try {
    root = deserialize(body.subarray(HEAD)) as StateNode;
  } catch {
    throw new SnapshotError('the snapshot is damaged (its state does not read)');
  }
  if (!layoutOf(root).equals(file.subarray(MAGIC.length + 2, HEAD)))
    throw new SnapshotError('the snapshot is damaged (its state is not the layout it names)');
  restoreMachine(machine, { ...now, root });
}

/** where the monitor may write and read snapshots (real paths); default: the temp folder */
export interface SnapshotRoots {
  snapshotRoots?: readonly string[];
}

/** DUMP: the machine's snapshot to `path` (inside `roots`, a new file). */
export function dumpAnswer(m: BuiltinC64, path: string, opts: SnapshotRoots, log: (t: string) => void): Answer {
  try {
    const roots = opts.snapshotRoots ?? [realPathLoose(tmpdir())];
    checkInsideRoots(realPathLoose(dirname(path)), roots, path);
    writeFileSync(path, encodeMachine(m), { flag: 'wx', mode: 0o600 });
    log(`Monitor: snapshot saved to ${path}.`);
    return { type: 0x41 };
  } catch (err) {
    log(`Monitor: snapshot to ${path} failed: ${(err as Error).message}.`);
    return { error: ErrCode.FAILURE };
  }
}

/** UNDUMP: a snapshot put back whole, or nothing changed; answers the PC. */
export function undumpAnswer(m: BuiltinC64, path: string, opts: SnapshotRoots, log: (t: string) => void): Answer {
  try {
    const roots = opts.snapshotRoots ?? [realPathLoose(tmpdir())];
    decodeMachine(m, readRegularFileSync(path, { maxBytes: MAX_SNAPSHOT_BYTES, what: 'snapshot', roots }));
    log(`Monitor: snapshot loaded from ${path}.`);
    const pc = Buffer.alloc(2);
    pc.writeUInt16LE(m.cpu.pc);
    return { type: 0x42, body: pc };
  } catch (err) {
    log(`Monitor: snapshot ${path} not loaded: ${(err as Error).message}.`);
    return { error: ErrCode.FAILURE };
  }
}
