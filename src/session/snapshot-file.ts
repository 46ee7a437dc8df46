/**
 * The file a snapshot slot holds: a header line naming what wrote it (machine, emulator, the target's payload
 * format) and the SHA-256 of the payload, then the emulator's own payload. Everything is checked before a byte
 * reaches the emulator, so a foreign, older or damaged snapshot is refused whole, never half-loaded.
 */
import { createHash } from 'node:crypto';
import { badRequest, incompatibleTarget } from '../core/errors.js';

const MAGIC = 'RETRO-DEBUG-SNAPSHOT 1\n';
/** the header line's cap: a file whose first line is longer is no snapshot of ours */
const MAX_HEADER = 4096;

export interface SnapshotHeader {
  machine: string;
  emulator: string;
  /** the target's payload format (TargetLifecycle.stateFormat) */
  format: string;
  program?: string;
  pc?: number;
  payload_bytes: number;
  payload_sha256: string;
}

export function encodeSnapshot(header: Omit<SnapshotHeader, 'payload_bytes' | 'payload_sha256'>, payload: Uint8Array) {
  const full: SnapshotHeader = {
    ...header,
    payload_bytes: payload.length,
    payload_sha256: createHash('sha256').update(payload).digest('hex'),
  };
  return Buffer.concat([Buffer.from(`${MAGIC}${JSON.stringify(full)}\n`, 'utf8'), payload]);
}

/** The payload, once the file proves to be a whole snapshot written for this machine, emulator and format. */
export function decodeSnapshot(
  file: Uint8Array,
  expect: { machine: string; emulator: string; format: string },
): { header: SnapshotHeader; payload: Uint8Array } {
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (!bytes.subarray(0, MAGIC.length).equals(Buffer.from(MAGIC)))
    throw incompatibleTarget(
      'This file is no Retro Debug snapshot (or one of another snapshot version); nothing was loaded.',
    );
  const end = bytes.indexOf(0x0a, MAGIC.length);
  if (end < 0 || end - MAGIC.length > MAX_HEADER)
    throw badRequest('The snapshot header is damaged; nothing was loaded.');
  let header: SnapshotHeader;
  try {
    header = JSON.parse(bytes.subarray(MAGIC.length, end).toString('utf8')) as SnapshotHeader;
  } catch {
    throw badRequest('The snapshot header is damaged; nothing was loaded.');
  }
  for (const key of ['machine', 'emulator', 'format'] as const) {
    if (header[key] !== expect[key])
      throw incompatibleTarget(
        `This snapshot was written for ${key} "${String(header[key])}"; this session's is "${expect[key]}". Nothing was loaded.`,
        { [key]: header[key], expected: expect[key] },
      );
  }
  const payload = bytes.subarray(end + 1);
  const sha = createHash('sha256').update(payload).digest('hex');
  if (payload.length !== header.payload_bytes || sha !== header.payload_sha256)
    throw badRequest(
      `The snapshot is damaged (${payload.length} payload bytes, SHA-256 ${sha.slice(0, 12)}…; its header says ${header.payload_bytes}, ${String(header.payload_sha256).slice(0, 12)}…). Nothing was loaded.`,
    );
  return { header, payload: new Uint8Array(payload) };
}
