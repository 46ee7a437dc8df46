/**
 * The NMOS 6502 opcode table, shared by the core (which executes only the
 * documented opcodes) and the disassembler (which also names the
 * undocumented ones, marked illegal, by their common names).
 */

/** Addressing modes; 0 = no documented instruction. */
export const Mode = {
  IMP: 1,
  IMM: 2,
  ZP: 3,
  ZPX: 4,
  ZPY: 5,
  ABS: 6,
  ABX: 7,
  ABY: 8,
  IZX: 9,
  IZY: 10,
  IND: 11,
  REL: 12,
  /** accumulator (`ASL A`): implied for the core */
  ACC: 13,
} as const;

/** Instruction length by mode. */
export const LENGTH = Uint8Array.of(1, 1, 2, 2, 2, 2, 3, 3, 3, 2, 2, 3, 2, 1);

const MODE_NAMES: Record<string, number> = {
  imp: Mode.IMP, imm: Mode.IMM, zp: Mode.ZP, zpx: Mode.ZPX, zpy: Mode.ZPY, abs: Mode.ABS, abx: Mode.ABX,
  aby: Mode.ABY, izx: Mode.IZX, izy: Mode.IZY, ind: Mode.IND, rel: Mode.REL, acc: Mode.ACC,
}; // prettier-ignore

// `opcode mnemonic mode`, one row of the opcode matrix per line
// prettier-ignore
const DOCUMENTED = `
00 BRK imp 01 ORA izx 05 ORA zp 06 ASL zp 08 PHP imp 09 ORA imm 0A ASL acc 0D ORA abs 0E ASL abs
10 BPL rel 11 ORA izy 15 ORA zpx 16 ASL zpx 18 CLC imp 19 ORA aby 1D ORA abx 1E ASL abx
20 JSR abs 21 AND izx 24 BIT zp 25 AND zp 26 ROL zp 28 PLP imp 29 AND imm 2A ROL acc 2C BIT abs 2D AND abs 2E ROL abs
30 BMI rel 31 AND izy 35 AND zpx 36 ROL zpx 38 SEC imp 39 AND aby 3D AND abx 3E ROL abx
40 RTI imp 41 EOR izx 45 EOR zp 46 LSR zp 48 PHA imp 49 EOR imm 4A LSR acc 4C JMP abs 4D EOR abs 4E LSR abs
50 BVC rel 51 EOR izy 55 EOR zpx 56 LSR zpx 58 CLI imp 59 EOR aby 5D EOR abx 5E LSR abx
60 RTS imp 61 ADC izx 65 ADC zp 66 ROR zp 68 PLA imp 69 ADC imm 6A ROR acc 6C JMP ind 6D ADC abs 6E ROR abs
70 BVS rel 71 ADC izy 75 ADC zpx 76 ROR zpx 78 SEI imp 79 ADC aby 7D ADC abx 7E ROR abx
81 STA izx 84 STY zp 85 STA zp 86 STX zp 88 DEY imp 8A TXA imp 8C STY abs 8D STA abs 8E STX abs
90 BCC rel 91 STA izy 94 STY zpx 95 STA zpx 96 STX zpy 98 TYA imp 99 STA aby 9A TXS imp 9D STA abx
A0 LDY imm A1 LDA izx A2 LDX imm A4 LDY zp A5 LDA zp A6 LDX zp A8 TAY imp A9 LDA imm AA TAX imp AC LDY abs AD LDA abs AE LDX abs
B0 BCS rel B1 LDA izy B4 LDY zpx B5 LDA zpx B6 LDX zpy B8 CLV imp B9 LDA aby BA TSX imp BC LDY abx BD LDA abx BE LDX aby
C0 CPY imm C1 CMP izx C4 CPY zp C5 CMP zp C6 DEC zp C8 INY imp C9 CMP imm CA DEX imp CC CPY abs CD CMP abs CE DEC abs
D0 BNE rel D1 CMP izy D5 CMP zpx D6 DEC zpx D8 CLD imp D9 CMP aby DD CMP abx DE DEC abx
E0 CPX imm E1 SBC izx E4 CPX zp E5 SBC zp E6 INC zp E8 INX imp E9 SBC imm EA NOP imp EC CPX abs ED SBC abs EE INC abs
F0 BEQ rel F1 SBC izy F5 SBC zpx F6 INC zpx F8 SED imp F9 SBC aby FD SBC abx FE INC abx
`;

// the undocumented NMOS opcodes by the names VICE's monitor and most references use
// prettier-ignore
const UNDOCUMENTED = `
03 SLO izx 07 SLO zp 0F SLO abs 13 SLO izy 17 SLO zpx 1B SLO aby 1F SLO abx 0B ANC imm 2B ANC imm
23 RLA izx 27 RLA zp 2F RLA abs 33 RLA izy 37 RLA zpx 3B RLA aby 3F RLA abx 4B ALR imm 6B ARR imm
43 SRE izx 47 SRE zp 4F SRE abs 53 SRE izy 57 SRE zpx 5B SRE aby 5F SRE abx 8B ANE imm AB LXA imm
63 RRA izx 67 RRA zp 6F RRA abs 73 RRA izy 77 RRA zpx 7B RRA aby 7F RRA abx CB SBX imm EB SBC imm
83 SAX izx 87 SAX zp 8F SAX abs 97 SAX zpy 93 SHA izy 9F SHA aby 9B TAS aby 9C SHY abx 9E SHX aby
A3 LAX izx A7 LAX zp AF LAX abs B3 LAX izy B7 LAX zpy BF LAX aby BB LAS aby
C3 DCP izx C7 DCP zp CF DCP abs D3 DCP izy D7 DCP zpx DB DCP aby DF DCP abx
E3 ISC izx E7 ISC zp EF ISC abs F3 ISC izy F7 ISC zpx FB ISC aby FF ISC abx
1A NOP imp 3A NOP imp 5A NOP imp 7A NOP imp DA NOP imp FA NOP imp 80 NOP imm 82 NOP imm 89 NOP imm C2 NOP imm E2 NOP imm
04 NOP zp 44 NOP zp 64 NOP zp 14 NOP zpx 34 NOP zpx 54 NOP zpx 74 NOP zpx D4 NOP zpx F4 NOP zpx 0C NOP abs
1C NOP abx 3C NOP abx 5C NOP abx 7C NOP abx DC NOP abx FC NOP abx
02 JAM imp 12 JAM imp 22 JAM imp 32 JAM imp 42 JAM imp 52 JAM imp 62 JAM imp 72 JAM imp 92 JAM imp B2 JAM imp D2 JAM imp F2 JAM imp
`;

export interface OpcodeInfo {
  mnemonic: string;
  mode: number;
  /** true for the undocumented opcodes (the core stops on them as a JAM) */
  illegal: boolean;
}

function table(): OpcodeInfo[] {
  const out: OpcodeInfo[] = [];
  for (const [spec, illegal] of [
    [DOCUMENTED, false],
    [UNDOCUMENTED, true],
  ] as const) {
    const words = spec.trim().split(/\s+/);
    for (let i = 0; i < words.length; i += 3) {
      const op = parseInt(words[i], 16);
      out[op] = { mnemonic: words[i + 1], mode: MODE_NAMES[words[i + 2]], illegal };
    }
  }
  return out;
}

/** Every one of the 256 opcodes. */
export const OPCODES: readonly OpcodeInfo[] = table();

/** Addressing mode of each documented opcode as the core executes it (accumulator = implied); 0 otherwise. */
export const MODE = Uint8Array.from(OPCODES, (o) => (o.illegal ? 0 : o.mode === Mode.ACC ? Mode.IMP : o.mode));

/** Bytes of the instruction that starts with `op` (1 for undocumented ones, which the core does not run). */
export function instructionLength(op: number): number {
  return MODE[op] ? LENGTH[MODE[op]] : 1;
}

export const OP_JSR = 0x20;
export const OP_RTS = 0x60;
export const OP_RTI = 0x40;
