/**
 * DAP memory references for every address space: a CPU address is its bare
 * number (`0xD020`, what every client expects), any other space names
 * itself, with its bank or share tag after `@`: `vram:0x3718` (the
 * Sprinter's or a VGA's video memory), `share@:maincpu:0x10`, `cpu@3:0x8000`.
 * VS Code's memory view passes a reference back unread, so the hex editor
 * opens any space the session can read.
 */
import { badAddress } from './errors.js';
import { hex } from './hex.js';
import type { Address, Space } from './target.js';

const SPACES: readonly Space[] = ['cpu', 'program', 'data', 'io', 'vram', 'share'];

export function memoryReference(address: Address): string {
  if (address.space === 'cpu' && address.bank === undefined) return hex(address.offset);
  return `${address.space}${address.bank === undefined ? '' : `@${address.bank}`}:${hex(address.offset)}`;
}

/** A reference (+ DAP's byte offset) back to an address; anything else is a bad_address error naming it. */
export function parseMemoryReference(reference: unknown, offset = 0): Address {
  const text = String(reference ?? '').trim();
  // the number is after the last ':' (a MAME share tag has colons of its own)
  const colon = text.lastIndexOf(':');
  const head = colon < 0 ? 'cpu' : text.slice(0, colon);
  const at = head.indexOf('@');
  const space = (at < 0 ? head : head.slice(0, at)) as Space;
  const bankText = at < 0 ? undefined : head.slice(at + 1);
  const base = number(text.slice(colon + 1));
  if (!SPACES.includes(space) || bankText === '' || !Number.isSafeInteger(base)) {
    throw badAddress(
      `"${text}" is not a memory address; use a CPU address such as 0x8000, or a space and address such as vram:0x3718.`,
    );
  }
  const value = base + (Number.isInteger(offset) ? offset : NaN);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw badAddress(`Address ${text}${offset ? ` + ${offset}` : ''} is outside the address space.`);
  }
  const address: Address = { space, offset: value };
  if (bankText !== undefined) address.bank = /^[0-9]+$/.test(bankText) ? Number(bankText) : bankText;
  return address;
}

export function isMemoryReference(text: string): boolean {
  try {
    parseMemoryReference(text);
    return true;
  } catch {
    return false;
  }
}

/** The same for requests that only make sense on the CPU's view (disassembly, instruction breakpoints). */
export function parseCpuReference(reference: unknown, offset = 0): Address {
  const address = parseMemoryReference(reference, offset);
  if (address.space !== 'cpu' || address.bank !== undefined) {
    throw badAddress(
      `"${String(reference)}" is not a CPU address; code is disassembled and stopped at in the CPU's view.`,
    );
  }
  return address;
}

function number(text: string): number {
  if (/^0x[0-9a-f]+$/i.test(text)) return parseInt(text.slice(2), 16);
  return /^[0-9]+$/.test(text) ? parseInt(text, 10) : NaN;
}
