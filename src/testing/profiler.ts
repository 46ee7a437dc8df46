/**
 * A cycle profiler fed by the instruction observer: exact on a machine whose
 * observer sees every instruction with its cycle count (the built-in C64).
 * Calls are read from the stack pointer (and, on the Z80, the opcode: see
 * call-rules.ts) — a frame has returned once S is back at or above where it
 * was before the call — so returns need no decoding. A jump into a C
 * function's first instruction (cc65's `callax`, SDCC's `__sdcc_call_hl` for
 * calls through a pointer) renames the frame it happens in.
 */
import type { InstructionObserver } from '../core/headless.js';
import type { DebugIndex } from '../debuginfo/index.js';
import { hex } from '../core/hex.js';
import { mos6502Calls, type CallRule } from './call-rules.js';

export interface CallNode {
  id: number;
  /** the function (or runtime label, `(interrupt)`, `(root)`) */
  name: string;
  parent?: CallNode;
  children: Map<string, CallNode>;
  /** cycles spent in this node itself, not in its callees */
  self: number;
  calls: number;
}

interface Frame {
  node: CallNode;
  /** the stack pointer before the call: the frame has returned when S is back at or above it */
  sp: number;
  enter: number;
}

export class Profiler {
  readonly root: CallNode;
  /** cycles per address, charged to the instruction that ran (and anything the machine did before the next) */
  readonly pcCycles = new Float64Array(0x10000);
  private readonly nodes: CallNode[] = [];
  private readonly stack: Frame[] = [];
  /** per name: inclusive cycles (outermost activations only), calls, and how many activations are open */
  private readonly totals = new Map<string, { total: number; calls: number; open: number }>();
  private readonly fnStart = new Uint8Array(0x10000);
  private lastPc = -1;
  private lastCycles = 0;
  private lastSp = 0;
  private first = -1;

  constructor(
    private readonly index: DebugIndex,
    private readonly calls: CallRule = mos6502Calls,
  ) {
    for (const f of index.info.functions) this.fnStart[f.start] = 1;
    this.root = this.node('(root)');
    this.stack.push({ node: this.root, sp: 0x1_0000, enter: 0 });
  }

  readonly observer: InstructionObserver = (pc, cycles, sp) => {
    if (this.lastPc < 0) {
      this.first = cycles;
      this.stack[0].enter = cycles;
    } else {
      const spent = cycles - this.lastCycles;
      this.pcCycles[this.lastPc] += spent;
      this.stack[this.stack.length - 1].node.self += spent;
      const kind = this.calls(this.lastPc, this.lastSp, sp);
      const called = kind === 'call';
      const interrupted = kind === 'interrupt';
      if (!called && !interrupted) this.unwind(sp, cycles);
      if (called || interrupted) this.push(interrupted ? '(interrupt)' : this.nameAt(pc), this.lastSp, cycles);
      else if (this.fnStart[pc] && pc !== this.lastPc + 1) this.rename(pc, cycles);
    }
    this.lastPc = pc;
    this.lastCycles = cycles;
    this.lastSp = sp;
  };

  /** Cycles observed so far. */
  get cycles(): number {
    return this.lastPc < 0 ? 0 : this.lastCycles - this.first;
  }

  /** Ends every open frame at the last observed cycle (call before reading the totals). */
  finish(): void {
    while (this.stack.length > 1) this.pop(this.lastCycles);
  }

  /** Per function: inclusive (outermost calls) and exclusive cycles, calls. */
  functions(): { name: string; file?: string; line?: number; self: number; total: number; calls: number }[] {
    const self = new Map<string, number>();
    for (const n of this.nodes) self.set(n.name, (self.get(n.name) ?? 0) + n.self);
    return [...this.totals]
      .map(([name, t]) => {
        const fn = this.index.functionByName(name);
        const at = fn && this.index.lineAt(fn.start);
        return { name, file: at?.file, line: at?.line, self: self.get(name) ?? 0, total: t.total, calls: t.calls };
      })
      .sort((a, b) => b.self - a.self || a.name.localeCompare(b.name));
  }

  /** Cycles per C line (code outside C lines is left out). */
  lines(): { file: string; line: number; cycles: number }[] {
    const byLine = new Map<string, { file: string; line: number; cycles: number }>();
    this.pcCycles.forEach((c, pc) => {
      if (!c) return;
      const at = this.index.lineAt(pc);
      if (!at) return;
      const key = `${at.file}:${at.line}`;
      const entry = byLine.get(key) ?? { file: at.file, line: at.line, cycles: 0 };
      entry.cycles += c;
      byLine.set(key, entry);
    });
    return [...byLine.values()].sort((a, b) => b.cycles - a.cycles);
  }

  allNodes(): readonly CallNode[] {
    return this.nodes;
  }

  private nameAt(pc: number): string {
    return this.index.functionAt(pc)?.name ?? this.index.symbolAt(pc) ?? hex(pc, 4, '$');
  }

  private node(name: string, parent?: CallNode): CallNode {
    const n: CallNode = { id: this.nodes.length + 1, name, parent, children: new Map(), self: 0, calls: 0 };
    this.nodes.push(n);
    parent?.children.set(name, n);
    return n;
  }

  private push(name: string, sp: number, cycles: number): void {
    const parent = this.stack[this.stack.length - 1].node;
    const node = parent.children.get(name) ?? this.node(name, parent);
    node.calls++;
    this.stack.push({ node, sp, enter: cycles });
    this.open(name);
  }

  private open(name: string): void {
    const t = this.totals.get(name) ?? { total: 0, calls: 0, open: 0 };
    t.calls++;
    t.open++;
    this.totals.set(name, t);
  }

  private unwind(sp: number, cycles: number): void {
    while (this.stack.length > 1 && sp >= this.stack[this.stack.length - 1].sp) this.pop(cycles);
  }

  private pop(cycles: number): void {
    const frame = this.stack.pop() as Frame;
    this.closeFrame(frame, cycles);
  }

  private closeFrame(frame: Frame, cycles: number): void {
    const t = this.totals.get(frame.node.name);
    if (t && t.open === 1) t.total += cycles - frame.enter;
    if (t) t.open--;
  }

  /** A jump into a C function: the frame becomes that function's (a call through a pointer, a tail call). */
  private rename(pc: number, cycles: number): void {
    const name = this.nameAt(pc);
    const top = this.stack[this.stack.length - 1];
    if (this.stack.length === 1 || top.node.name === name) return;
    this.closeFrame(top, cycles);
    const parent = top.node.parent as CallNode;
    const node = parent.children.get(name) ?? this.node(name, parent);
    node.calls++;
    this.stack[this.stack.length - 1] = { node, sp: top.sp, enter: cycles };
    this.open(name);
  }
}
