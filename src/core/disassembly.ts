/**
 * What a disassembler gives the front ends (DAP's Disassembly view, MCP):
 * decoded instructions of the CPU's logical view. A connector whose emulator
 * disassembles itself (MAME) provides DISASSEMBLER_FEATURE; for a 6502 the
 * session decodes memory with the project's own disassembler.
 */
import { featureKey } from './target.js';

export interface DisassembledInstruction {
  address: number;
  /** bytes the instruction takes */
  length: number;
  /** `LDA #$10`, `ld   hl,$5800` */
  text: string;
  /** an undocumented opcode (6502), or bytes that decode to nothing */
  illegal?: boolean;
  /** where a jump, call or branch with a fixed destination goes (front ends name it) */
  target?: number;
}

export interface Disassembler {
  /** The longest instruction of this CPU, in bytes (backwards decoding starts this far back per instruction). */
  readonly maxLength: number;
  /** Up to `count` instructions from `address` on (fewer at the end of the address space). */
  disassemble(address: number, count: number): Promise<DisassembledInstruction[]>;
}

export const DISASSEMBLER_FEATURE = featureKey<Disassembler>('disassembler');
