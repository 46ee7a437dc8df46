/**
 * What one Z80 instruction does to the 8-bit registers and to control flow,
 * for analyses of compiled code (which register holds which C variable, what
 * a caller restores after a call). Every opcode decodes, undocumented ones
 * included (IXH/IXL forms, the DDCB copies into a register); an unused ED
 * opcode is the two-byte no-op the CPU makes of it. F is left out: no C
 * variable lives in it.
 */

/** 8-bit register names; the index registers' halves as SDCC's debug info names them. */
export type Z80Reg = 'A' | 'B' | 'C' | 'D' | 'E' | 'H' | 'L' | 'IXH' | 'IXL' | 'IYH' | 'IYL';

export type Z80Flow =
  | { kind: 'next' }
  /** `cond`: the next instruction is a successor too */
  | { kind: 'jump'; target: number; cond: boolean }
  /** call nn, rst n */
  | { kind: 'call'; target: number; cond: boolean }
  | { kind: 'ret'; cond: boolean }
  /** jp (hl)/(ix)/(iy) */
  | { kind: 'indirect' };

/** What the instruction does to the stack besides reading and writing registers. */
export type Z80Stack =
  /** bytes pushed, the one at the higher address first */
  | { kind: 'push'; regs: [Z80Reg | undefined, Z80Reg | undefined] }
  | { kind: 'pop'; regs: [Z80Reg | undefined, Z80Reg | undefined] }
  /** inc sp (+1) / dec sp (-1) */
  | { kind: 'adjust'; bytes: number }
  /** ex (sp),rr: the pair and the top two bytes swap */
  | { kind: 'exchange'; regs: [Z80Reg, Z80Reg] }
  /** SP loaded from elsewhere: the stack's contents are no longer known */
  | { kind: 'reload' };

export interface Z80Access {
  length: number;
  reads: Z80Reg[];
  writes: Z80Reg[];
  flow: Z80Flow;
  stack?: Z80Stack;
  /** ex de,hl / exx / ex af,af': the values move rather than being computed */
  swap?: 'de-hl' | 'exx' | 'af';
  /** ld r,r': the value is copied */
  copy?: { to: Z80Reg; from: Z80Reg };
}

const R8: (Z80Reg | undefined)[] = ['B', 'C', 'D', 'E', 'H', 'L', undefined, 'A'];
/** Register pairs by the p field, high byte first; p = 3 is SP (rp) or AF (rp2). */
const RP: [Z80Reg, Z80Reg][] = [
  ['B', 'C'],
  ['D', 'E'],
  ['H', 'L'],
];
const INDEX_HALVES: Record<number, [Z80Reg, Z80Reg]> = { 0xdd: ['IXH', 'IXL'], 0xfd: ['IYH', 'IYL'] };
const NEXT: Z80Flow = { kind: 'next' };

const word = (code: Uint8Array, at: number) => code[at] | (code[at + 1] << 8);
/** A relative jump's target: from the address after the instruction, by the signed byte after the opcode. */
const rel = (code: Uint8Array, at: number, pc: number, length: number) =>
  (pc + length + ((code[at + 1] << 24) >> 24)) & 0xffff;

/** Decodes the instruction at `code[at]`, which sits at CPU address `pc`. */
export function decodeZ80(code: Uint8Array, at: number, pc: number): Z80Access {
  const op = code[at];
  if (op === 0xcb) return cbOp(code[at + 1], 2, ['H', 'L'], undefined);
  if (op === 0xed) return edOp(code, at);
  const halves = INDEX_HALVES[op];
  if (halves) {
    const next = code[at + 1];
    if (next === 0xdd || next === 0xfd || next === 0xed) return access(1, [], []); // a prefix without effect
    if (next === 0xcb) return cbOp(code[at + 3], 4, [], halves);
    return mainOp(code, at + 1, pc, halves, 1);
  }
  return mainOp(code, at, pc, undefined, 0);
}

function access(length: number, reads: Z80Reg[], writes: Z80Reg[], flow: Z80Flow = NEXT): Z80Access {
  return { length, reads, writes, flow };
}

/** Unprefixed opcodes, or (with `ix`) their DD/FD forms: HL → IX, H/L → IXH/IXL, (HL) → (IX+d). */
function mainOp(code: Uint8Array, at: number, pc: number, ix: [Z80Reg, Z80Reg] | undefined, pre: number): Z80Access {
  const op = code[at];
  const x = op >> 6;
  const y = (op >> 3) & 7;
  const z = op & 7;
  const p = y >> 1;
  const q = y & 1;
  const hl: [Z80Reg, Z80Reg] = ix ?? ['H', 'L'];
  const memHl: Z80Reg[] = ix ? [...ix] : ['H', 'L'];
  const disp = ix ? 1 : 0; // (ix+d) has a displacement byte
  // a register operand; 6 is memory through HL (or IX+d)
  const r = (i: number, other: number): Z80Reg[] => {
    if (i === 6) return [];
    if (ix && (i === 4 || i === 5) && other !== 6) return [i === 4 ? ix[0] : ix[1]];
    return [R8[i]!];
  };
  const usesMem = (...fields: number[]) => fields.includes(6);
  const pair = (i: number): Z80Reg[] => (i === 2 ? [...hl] : i === 3 ? [] : [...RP[i]]);
  const len = (n: number) => n + pre;
  /** PUSH/POP's pair: BC, DE, HL (IX/IY under a prefix) or AF (A and the flags, which are not tracked) */
  const stackPair = (i: number) => {
    const regs: [Z80Reg | undefined, Z80Reg | undefined] = i === 3 ? ['A', undefined] : (pair(i) as [Z80Reg, Z80Reg]);
    return { regs, named: regs.filter((g): g is Z80Reg => !!g) };
  };

  if (x === 1) {
    if (op === 0x76) return access(len(1), [], []); // halt
    const mem = usesMem(y, z);
    const a = access(len(1 + (mem ? disp : 0)), [...r(z, y), ...(mem ? memHl : [])], r(y, z));
    return mem ? a : { ...a, copy: { to: a.writes[0], from: a.reads[0] } };
  }
  if (x === 2) {
    const mem = z === 6;
    return alu(y, len(1 + (mem ? disp : 0)), [...r(z, 8), ...(mem ? memHl : [])], z === 7);
  }
  if (x === 0) {
    switch (z) {
      case 0:
        if (y === 0) return access(len(1), [], []);
        if (y === 1) return { ...access(len(1), [], ['A']), swap: 'af' };
        if (y === 2)
          return access(len(2), ['B'], ['B'], { kind: 'jump', target: rel(code, at, pc, len(2)), cond: true });
        return access(len(2), [], [], { kind: 'jump', target: rel(code, at, pc, len(2)), cond: y > 3 });
      case 1:
        if (q === 0)
          return p === 3 ? { ...access(len(3), [], []), stack: { kind: 'reload' } } : access(len(3), [], pair(p));
        return access(len(1), [...hl, ...pair(p)], [...hl]);
      case 2: {
        const forms: [number, Z80Reg[], Z80Reg[]][] = [
          [1, ['A', 'B', 'C'], []], // ld (bc),a
          [1, ['B', 'C'], ['A']], // ld a,(bc)
          [1, ['A', 'D', 'E'], []],
          [1, ['D', 'E'], ['A']],
          [3, [...hl], []], // ld (nn),hl
          [3, [], [...hl]],
          [3, ['A'], []], // ld (nn),a
          [3, [], ['A']],
        ];
        const [n, reads, writes] = forms[p * 2 + q];
        return access(len(n), reads, writes);
      }
      case 3:
        if (p === 3) return { ...access(len(1), [], []), stack: { kind: 'adjust', bytes: q === 0 ? 1 : -1 } };
        return access(len(1), pair(p), pair(p));
      case 4:
      case 5: {
        const mem = y === 6;
        return access(len(1 + (mem ? disp : 0)), [...r(y, 8), ...(mem ? memHl : [])], r(y, 8));
      }
      case 6: {
        const mem = y === 6;
        return access(len(2 + (mem ? disp : 0)), mem ? memHl : [], r(y, 8));
      }
      case 7:
        return access(len(1), y < 6 ? ['A'] : [], y < 6 ? ['A'] : []);
    }
  }
  // x === 3
  switch (z) {
    case 0:
      return access(len(1), [], [], { kind: 'ret', cond: true });
    case 1:
      if (q === 0) {
        const { regs, named } = stackPair(p);
        return { ...access(len(1), [], named), stack: { kind: 'pop', regs } };
      }
      if (p === 0) return access(len(1), [], [], { kind: 'ret', cond: false });
      if (p === 1) return { ...access(len(1), [], ['B', 'C', 'D', 'E', 'H', 'L']), swap: 'exx' };
      if (p === 2) return access(len(1), [...hl], [], { kind: 'indirect' });
      return { ...access(len(1), [...hl], []), stack: { kind: 'reload' } }; // ld sp,hl
    case 2:
      return access(len(3), [], [], { kind: 'jump', target: word(code, at + 1), cond: true });
    case 3:
      switch (y) {
        case 0:
          return access(len(3), [], [], { kind: 'jump', target: word(code, at + 1), cond: false });
        case 2:
          return access(len(2), ['A'], []); // out (n),a
        case 3:
          return access(len(2), ['A'], ['A']); // in a,(n)
        case 4:
          return { ...access(len(1), [...hl], [...hl]), stack: { kind: 'exchange', regs: hl } };
        case 5:
          return { ...access(len(1), ['D', 'E', 'H', 'L'], ['D', 'E', 'H', 'L']), swap: 'de-hl' };
        default:
          return access(len(1), [], []); // di, ei (y = 1 is the CB prefix, decoded before)
      }
    case 4:
      return access(len(3), [], [], { kind: 'call', target: word(code, at + 1), cond: true });
    case 5:
      if (q === 0) {
        const { regs, named } = stackPair(p);
        return { ...access(len(1), named, []), stack: { kind: 'push', regs } };
      }
      return access(len(3), [], [], { kind: 'call', target: word(code, at + 1), cond: false }); // call nn (p = 0)
    case 6:
      return alu(y, len(2), [], false);
    default:
      return access(len(1), [], [], { kind: 'call', target: y * 8, cond: false }); // rst
  }
}

/** `op a, src`: reads A and src, writes A (cp only compares); `sub a` and `xor a` only write A. */
function alu(kind: number, length: number, src: Z80Reg[], selfA: boolean): Z80Access {
  if (selfA && (kind === 2 || kind === 5)) return access(length, [], ['A']);
  return access(length, ['A', ...src], kind === 7 ? [] : ['A']);
}

/** CB xx, or DD/FD CB d xx (`ix`): rotates, bit, res, set; the indexed forms also copy into r unless z = 6. */
function cbOp(op: number, length: number, memRegs: Z80Reg[], ix: [Z80Reg, Z80Reg] | undefined): Z80Access {
  const x = op >> 6;
  const z = op & 7;
  if (ix) return access(length, [...ix], x === 1 || z === 6 ? [] : [R8[z]!]);
  if (z === 6) return access(length, memRegs, []);
  const reg = R8[z]!;
  return access(length, [reg], x === 1 ? [] : [reg]);
}

function edOp(code: Uint8Array, at: number): Z80Access {
  const op = code[at + 1];
  const x = op >> 6;
  const y = (op >> 3) & 7;
  const z = op & 7;
  const p = y >> 1;
  const q = y & 1;
  const pair = (i: number): Z80Reg[] => (i === 3 ? [] : [...RP[i]]);
  if (x === 1) {
    switch (z) {
      case 0:
        return access(2, ['B', 'C'], y === 6 ? [] : [R8[y]!]); // in r,(c)
      case 1:
        return access(2, ['B', 'C', ...(y === 6 ? [] : [R8[y]!])], []); // out (c),r
      case 2:
        return access(2, ['H', 'L', ...pair(p)], ['H', 'L']); // sbc/adc hl,rr
      case 3:
        if (q === 0) return access(4, pair(p), []); // ld (nn),rr
        return p === 3 ? { ...access(4, [], []), stack: { kind: 'reload' } } : access(4, [], pair(p));
      case 4:
        return access(2, ['A'], ['A']); // neg
      case 5:
        return access(2, [], [], { kind: 'ret', cond: false }); // retn, reti
      case 6:
        return access(2, [], []); // im
      default:
        if (y === 0 || y === 1) return access(2, ['A'], []); // ld i,a / ld r,a
        if (y === 2 || y === 3) return access(2, [], ['A']);
        if (y === 4 || y === 5) return access(2, ['A', 'H', 'L'], ['A']); // rrd, rld
        return access(2, [], []);
    }
  }
  if (x === 2 && z <= 3 && y >= 4) {
    if (z === 0) return access(2, ['B', 'C', 'D', 'E', 'H', 'L'], ['B', 'C', 'D', 'E', 'H', 'L']); // ldi…
    if (z === 1) return access(2, ['A', 'B', 'C', 'H', 'L'], ['B', 'C', 'H', 'L']); // cpi…
    return access(2, ['B', 'C', 'H', 'L'], ['B', 'H', 'L']); // ini…, outi…
  }
  return access(2, [], []);
}
