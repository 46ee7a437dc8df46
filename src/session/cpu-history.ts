/**
 * The recent-instructions view (MCP cpu_history): the target's CPU history
 * (VICE ≥ 3.10, or the built-in C64's recorded past) decoded with the 6502
 * disassembler and mapped to C lines. Read-only and no time travel: the
 * machine does not move. Sessions without it get an `unsupported` that says
 * why their emulator has none.
 */
import { RetroError, unsupported } from '../core/errors.js';
import { CPU_HISTORY_FEATURE, type CpuHistory, type ExecutedInstruction } from '../core/cpu-history.js';
import { disassemble6502 } from '../cpu/6502/disassemble.js';
import type { SessionApi, SourceLocation } from './types.js';

export interface RecentInstruction extends ExecutedInstruction {
  /** `LDA ($FB),Y` */
  text: string;
  location?: SourceLocation;
}

/** Why an emulator has no CPU history we can read, by emulator. */
export function noHistory(emulator: string, machine: string, runControl: boolean): string {
  if (!runControl)
    return `DOS guests (${machine} in ${emulator}) run without a CPU debugger here, so no instruction is recorded; read memory while it runs, or use the dos tools (dosbox_trace).`;
  if (emulator === 'mame')
    return `MAME's Lua bridge gives no instruction history (MAME's debugger keeps one per CPU, but only for its own console); a forward trace of a run is what MAME offers (profile_run), and Step Back on MAME is docs/time-travel.md's planned route.`;
  return `this session's emulator (${emulator}) keeps no CPU history.`;
}

async function cpuHistoryOf(session: SessionApi): Promise<CpuHistory> {
  try {
    return session.feature(CPU_HISTORY_FEATURE);
  } catch (err) {
    if (!(err instanceof RetroError) || err.code !== 'unsupported') throw err;
    const st = await session.status();
    throw unsupported(
      `cpu_history reads VICE's CPU history (VICE 3.10 or later) and the built-in C64's recorded one; ${noHistory(st.emulator, st.machine, st.run_control !== false)}`,
      { feature: CPU_HISTORY_FEATURE.name, emulator: st.emulator },
    );
  }
}

/** The last `count` instructions run, oldest first, each with its text and C line; and where they come from. */
export async function recentInstructions(
  session: SessionApi,
  count: number,
): Promise<{ source: string; instructions: RecentInstruction[] }> {
  const history = await cpuHistoryOf(session);
  const instructions = (await history.recent(count)).map((ins) => {
    const [decoded] = disassemble6502(Uint8Array.from(ins.bytes), ins.pc, { count: 1 });
    return { ...ins, text: decoded?.text ?? '???', location: session.locationAt(ins.pc) };
  });
  return { source: history.source, instructions };
}
