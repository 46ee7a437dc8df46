/**
 * The CPU's recent instructions, read back after the fact (VICE ≥ 3.10's CPU
 * history through its binary monitor; the built-in C64 answers the same
 * request from its recorded history). Read-only: nothing here moves the
 * machine, so it is no time travel.
 */
import { featureKey } from './target.js';

/** One instruction as the CPU was about to run it: its registers before, and its first bytes. */
export interface ExecutedInstruction {
  /** the CPU clock at the instruction's start */
  cycle: number;
  pc: number;
  a: number;
  x: number;
  y: number;
  sp: number;
  flags: number;
  /** the opcode and the two bytes after it (as many as the instruction uses are meaningful) */
  bytes: [number, number, number];
}

export interface CpuHistory {
  /** for people: where the instructions come from and how far back they reach */
  readonly source: string;
  /** The last `count` instructions run, oldest first (fewer when fewer are recorded). */
  recent(count: number): Promise<ExecutedInstruction[]>;
}

export const CPU_HISTORY_FEATURE = featureKey<CpuHistory>('cpu-history');
