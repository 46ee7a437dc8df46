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

/** The id of a bank given by name or id, or a bad_address naming the banks this VICE has. */
export function bankIdIn(banks: readonly { name: string; id: number }[], bank: string | number | undefined): number {
  if (bank === undefined) return 0;
  const found = typeof bank === 'number' ? banks.find((b) => b.id === bank) : banks.find((b) => b.name === bank);
  if (!found)
    throw badAddress(
      `VICE has no bank ${JSON.stringify(bank)}; it has ${banks.map((b) => `${b.name} (${b.id})`).join(', ')}.`,
      { bank },
    );
  return found.id;
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
