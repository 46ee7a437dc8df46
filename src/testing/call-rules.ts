/**
 * How the profiler tells a call or an interrupt from other stack moves, from
 * the stack pointer before and after one instruction (and, where that is not
 * enough, the instruction's opcode).
 */
export type CallRule = (lastPc: number, lastSp: number, sp: number) => 'call' | 'interrupt' | undefined;

/** 6502: S drops by exactly 2 only on a JSR and by 3 only on an interrupt (or BRK). */
export const mos6502Calls: CallRule = (_lastPc, lastSp, sp) =>
  sp === lastSp - 2 ? 'call' : sp === lastSp - 3 ? 'interrupt' : undefined;

/**
 * Z80: CALL, RST and an interrupt all push 2 bytes, but so does PUSH (and SDCC
 * moves SP for locals), so the opcode that ran decides: CALL/RST is a call, a
 * drop of 2 by an instruction that does not write SP is an interrupt.
 */
export function z80Calls(code: (address: number) => number | undefined): CallRule {
  return (lastPc, lastSp, sp) => {
    if (sp !== lastSp - 2) return undefined;
    const op = code(lastPc);
    if (op === undefined) return undefined;
    if (op === 0xcd || (op & 0xc7) === 0xc4 || (op & 0xc7) === 0xc7) return 'call';
    return writesSp(op, code((lastPc + 1) & 0xffff)) ? undefined : 'interrupt';
  };
}

/** PUSH rr, PUSH IX/IY, DEC SP, LD SP,HL/IX/IY, LD SP,nn, LD SP,(nn) */
function writesSp(op: number, next: number | undefined): boolean {
  if ((op & 0xcf) === 0xc5 || op === 0x3b || op === 0xf9 || op === 0x31) return true;
  if (op === 0xdd || op === 0xfd) return next === 0xe5 || next === 0xf9 || next === 0x3b;
  return op === 0xed && next === 0x7b;
}
