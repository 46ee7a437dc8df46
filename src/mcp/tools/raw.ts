/** Tool groups `memory` (reading bytes, in the default profile) and `raw` (registers, writing bytes). */
import * as z from 'zod/v4';
import type { Address } from '../../core/target.js';
import type { SessionApi } from '../../session/types.js';
import { tooLarge } from '../../core/errors.js';
import { asciiPreview, bytesToHex, formatRegister, parseAddress, parseHex } from '../format.js';
import { addressInput, addressSchema, generationInput, registerSchema, sessionIdInput } from '../schemas.js';
import { READ_ONLY, WRITES, defineTool, type ToolDef } from '../tool-kit.js';
import { hex } from '../../core/hex.js';

export const MAX_READ_BYTES = 65536;
export const MAX_WRITE_BYTES = 4096;
/** The ASCII preview is for a quick look at short reads; a big read carries its bytes once, as hex. */
export const MAX_PREVIEW_BYTES = 256;

/** Sessions may offer symbol lookup; it is optional, so ask for it by shape. */
interface SymbolLookup {
  symbolAt(address: Address): Promise<{ name: string; offset: number } | undefined>;
}

async function symbolAt(session: SessionApi, address: Address): Promise<string | undefined> {
  const lookup = (session as Partial<SymbolLookup>).symbolAt;
  if (typeof lookup !== 'function') return undefined;
  const sym = await lookup.call(session, address);
  return sym ? (sym.offset ? `${sym.name}+${sym.offset}` : sym.name) : undefined;
}

const readRegisters = defineTool({
  name: 'read_registers',
  title: 'Read CPU registers',
  description: 'All CPU registers.',
  input: { session_id: sessionIdInput },
  output: { registers: z.array(registerSchema) },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    const registers = (await session.readRegisters()).map(formatRegister);
    return { session, data: { registers }, summary: registers.map((r) => `${r.name}=${r.hex}`).join(' ') };
  },
});

const readMemory = defineTool({
  name: 'read_memory',
  title: 'Read memory',
  description: `Read up to ${MAX_READ_BYTES} bytes as hex (big reads: only in structuredContent), with the symbol there.`,
  input: {
    session_id: sessionIdInput,
    address: addressInput,
    length: z.number().int().min(1).describe(`bytes to read, at most ${MAX_READ_BYTES}`),
  },
  output: {
    address: addressSchema,
    length: z.number().int(),
    hex: z.string(),
    ascii: z.string().optional().describe(`short reads: preview`),
    symbol: z.string().optional(),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    if (args.length > MAX_READ_BYTES) {
      throw tooLarge(`Reading ${args.length} bytes exceeds the limit of ${MAX_READ_BYTES}; read in pieces.`, {
        limit: MAX_READ_BYTES,
      });
    }
    const address = parseAddress(args.address);
    const bytes = await session.readMemory(address, args.length);
    const symbol = await symbolAt(session, address);
    return {
      session,
      data: {
        address,
        length: bytes.length,
        hex: bytesToHex(bytes),
        ascii: bytes.length <= MAX_PREVIEW_BYTES ? asciiPreview(bytes) : undefined,
        symbol,
      },
      bulk: 'hex',
      summary: `${bytes.length} bytes at ${address.space}:${hex(address.offset)}${symbol ? ` (${symbol})` : ''}`,
    };
  },
});

const writeMemory = defineTool({
  name: 'write_memory',
  title: 'Write memory',
  description: `Write up to ${MAX_WRITE_BYTES} bytes given as hex (needs the control lease), then read them back and report.`,
  input: {
    session_id: sessionIdInput,
    address: addressInput,
    hex: z.string().min(2).describe('bytes as hex pairs, e.g. "DEADBEEF"'),
    generation: generationInput,
  },
  output: { address: addressSchema, written: z.number().int(), read_back: z.string(), verified: z.boolean() },
  annotations: WRITES,
  async run(args, ctx) {
    const me = ctx.connection.use(args.session_id);
    const { session } = me;
    const data = parseHex(args.hex);
    if (data.length > MAX_WRITE_BYTES) {
      throw tooLarge(`Writing ${data.length} bytes exceeds the limit of ${MAX_WRITE_BYTES}.`, {
        limit: MAX_WRITE_BYTES,
      });
    }
    const address = parseAddress(args.address);
    await me.writeMemory(address, data, { generation: args.generation });
    const back = await session.readMemory(address, data.length);
    const verified = Buffer.from(back).equals(Buffer.from(data));
    return {
      session,
      data: { address, written: data.length, read_back: bytesToHex(back), verified },
      summary: `Wrote ${data.length} bytes at ${address.space}:${hex(address.offset)}; read back ${verified ? 'matches' : 'DIFFERS (ROM or I/O?)'}.`,
    };
  },
});

export const memoryTools: ToolDef[] = [readMemory];
export const rawTools: ToolDef[] = [readRegisters, writeMemory];
