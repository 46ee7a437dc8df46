/** The shapes and bounds of requests to a VICE monitor: checkpoint specs, the 16-bit address range, u32 fields. */
import { badAddress } from '../../core/errors.js';

export const OP_EXEC = 4;
/** Reads and writes are split into requests of at most this many bytes (the protocol's u16 range). */
export const MAX_MEM_REQUEST = 0x10000;

export interface CheckpointSpec {
  start: number;
  end: number;
  op: number;
  stop: boolean;
  enabled: boolean;
  temporary: boolean;
  condition?: string;
  memspace?: number;
}

/** VICE addresses 16 bits and never wraps past $FFFF. */
export function checkRange(start: number, length: number): void {
  if (!Number.isInteger(start) || !Number.isInteger(length) || start < 0 || length < 1 || start + length > 0x10000) {
    throw badAddress(`$${start.toString(16)}+${length} runs outside $0000-$FFFF; VICE reads do not wrap.`, {
      start,
      length,
    });
  }
}

export function u32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v >>> 0, 0);
  return b;
}
