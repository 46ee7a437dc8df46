/** DAP readMemory/writeMemory on the session's CPU view, bounded per request. */
import type { DebugProtocol } from '@vscode/debugprotocol';
import { badRequest, tooLarge } from '../core/errors.js';
import { hex } from '../core/hex.js';
import type { ClientSession } from '../session/client-session.js';
import type { SessionApi } from '../session/types.js';
import { memoryReference, parseMemoryReference } from '../core/memory-reference.js';

/** Bounds on what one request may move. */
export const MAX_MEMORY_BYTES = 0x10000;

export async function readMemory(
  session: SessionApi,
  args: DebugProtocol.ReadMemoryArguments,
): Promise<DebugProtocol.ReadMemoryResponse['body']> {
  const count = args?.count ?? 0;
  if (!Number.isInteger(count) || count < 0) throw badRequest('The byte count must be a whole number.');
  if (count > MAX_MEMORY_BYTES) {
    throw tooLarge(`At most ${MAX_MEMORY_BYTES} bytes can be read at once (asked for ${count}).`);
  }
  const address = parseMemoryReference(args.memoryReference, args.offset ?? 0);
  const data = count ? await session.readMemory(address, count) : new Uint8Array(0);
  return { address: hex(address.offset), data: Buffer.from(data).toString('base64') };
}

/** Checks the request, then takes the handle (which claims the lease) only for a valid one. */
export async function writeMemory(
  control: () => ClientSession,
  args: DebugProtocol.WriteMemoryArguments,
): Promise<{ reference: string; length: number }> {
  const address = parseMemoryReference(args?.memoryReference, args?.offset ?? 0);
  const data = Buffer.from(String(args.data ?? ''), 'base64');
  if (data.length > MAX_MEMORY_BYTES) {
    throw tooLarge(`At most ${MAX_MEMORY_BYTES} bytes can be written at once.`);
  }
  await control().writeMemory(address, data);
  return { reference: memoryReference(address), length: data.length };
}
