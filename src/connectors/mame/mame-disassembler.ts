/**
 * MAME's own disassembler (the debugger's `dasm`, through the bridge) as the
 * session's Disassembler: lengths come from the next instruction's address,
 * so one more instruction is asked for than is returned.
 */
import type { DisassembledInstruction, Disassembler } from '../../core/disassembly.js';
import type { MameRaw } from './mame-raw.js';

/** Z80's longest instruction (DD CB d op); MAME's other CPUs we drive are no longer. */
const MAX_LENGTH = 4;
/** the bridge's `dasm` cap (rawops.lua MAX_DASM) */
const BRIDGE_MAX = 256;

export class MameDisassembler implements Disassembler {
  readonly maxLength = MAX_LENGTH;

  constructor(private readonly raw: Pick<MameRaw, 'disassemble'>) {}

  async disassemble(address: number, count: number): Promise<DisassembledInstruction[]> {
    const want = Math.max(1, Math.min(count, BRIDGE_MAX - 1));
    const list = await this.raw.disassemble(address & 0xffff, want + 1);
    const out: DisassembledInstruction[] = [];
    for (let i = 0; i < list.length && out.length < want; i++) {
      const at = list[i].address;
      const next = list[i + 1]?.address;
      // the end of the address space (MAME wraps to 0): what is left of it
      const length = next !== undefined && next > at ? next - at : Math.min(MAX_LENGTH, 0x10000 - at);
      const text = list[i].text.replace(/\s+/g, ' ');
      const target = z80Target(text);
      out.push(target === undefined ? { address: at, length, text } : { address: at, length, text, target });
      if (next === undefined || next <= at) break;
    }
    return out;
  }
}

/**
 * The fixed destination of a Z80 call, jump, relative jump or restart as MAME
 * spells it (`call nz,$015C`, `jr $8012`, `rst $38`); not `jp (hl)`.
 */
const Z80_FLOW = /^(?:call|jp|jr|djnz|rst) (?:(?:nz|z|nc|c|po|pe|p|m),)?\$([0-9a-f]{1,4})h?$/i;

export function z80Target(text: string): number | undefined {
  const m = Z80_FLOW.exec(text);
  return m ? parseInt(m[1], 16) : undefined;
}
