/** Typed addresses as the bridge's space arguments, and the integer check the target's arguments share. */
import { badAddress, badRequest } from '../../core/errors.js';
import type { Address } from '../../core/target.js';
import type { BridgeSpace } from './bridge-ops.js';

export function checkInteger(v: unknown, what: string): void {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw badRequest(`${what} must be a non-negative integer, not ${String(v)}.`);
  }
}

/** The bridge's space arguments for a typed address. */
export function bridgeSpace(address: Address): BridgeSpace {
  if (!address || typeof address !== 'object') throw badRequest('An address {space, offset} is needed.');
  checkInteger(address.offset, 'The address offset');
  switch (address.space) {
    case 'cpu':
      return { space: 'program', address: address.offset, logical: true };
    case 'program':
      return { space: 'program', address: address.offset };
    case 'io':
    case 'data':
      return { space: address.space, address: address.offset };
    case 'vram':
      return { space: 'vram', address: address.offset };
    case 'share':
      if (typeof address.bank !== 'string')
        throw badAddress('A share address needs its tag in bank, e.g. ":video_ram".');
      return { space: 'share', tag: address.bank, address: address.offset };
    default:
      throw badAddress(`Unknown address space "${String((address as Address).space)}".`);
  }
}
