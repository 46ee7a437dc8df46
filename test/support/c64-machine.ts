/** Drives a BuiltinC64 directly (no monitor, no session) for machine-level tests. */
import { readFileSync } from 'node:fs';
import { BuiltinC64, CYCLES_PER_FRAME } from '../../src/connectors/builtin-c64/c64.js';
import { K } from '../../src/connectors/builtin-c64/kernal-image.js';
import { decodeScreen } from './c64-screen.js';

export interface TestMachine {
  machine: BuiltinC64;
  logs: string[];
  /** every byte printed to the screen (CHROUT), as PETSCII */
  printed: number[];
}

export function newMachine(): TestMachine {
  const logs: string[] = [];
  const printed: number[] = [];
  const machine = new BuiltinC64({ checkpointHit: () => undefined, log: (t) => logs.push(t) });
  const print = machine.editor.print.bind(machine.editor);
  machine.editor.print = (code: number) => {
    printed.push(code);
    print(code);
  };
  return { machine, logs, printed };
}

/** What was printed, as lines (PETSCII letters read as lower case, as cc65 writes them). */
export function printedLines(printed: number[]): string[] {
  const text = printed.filter((c) => c === 0x0d || (c >= 0x20 && c < 0x80) || (c >= 0xc1 && c <= 0xda));
  return String.fromCharCode(...text.map((c) => (c >= 0x41 && c <= 0x5a ? c + 0x20 : c >= 0xc1 ? c - 0x80 : c)))
    .split('\r')
    .map((l) => l.trimEnd());
}

/** Autostarts `prg` and runs until the program returned to READY. (the idle loop), a stop, or `maxFrames`. */
export function runProgram(m: BuiltinC64, prg: string, maxFrames = 3000): { frames: number; stop?: string } {
  m.autostart(readFileSync(prg), true);
  return runUntil(m, () => m.cpu.pc === K.IDLE || m.cpu.pc === K.IDLE + 1, maxFrames);
}

export function runUntil(m: BuiltinC64, done: () => boolean, maxFrames: number): { frames: number; stop?: string } {
  const first = m.frame;
  while (m.frame - first < maxFrames) {
    const stop = m.runSlice(CYCLES_PER_FRAME / 4);
    if (stop) return { frames: m.frame - first, stop };
    if (done()) return { frames: m.frame - first };
  }
  throw new Error(`the program did not finish within ${maxFrames} frames (pc $${m.cpu.pc.toString(16)})`);
}

/** The text screen at the KERNAL's screen base, rows trimmed. */
export function machineScreen(m: BuiltinC64): string[] {
  const base = m.bus.ram[0x0288] << 8;
  return decodeScreen(m.bus.ram.slice(base, base + 1000), m.bus.vic[0x18] & 2 ? 'lower_upper' : 'upper_graphics');
}
