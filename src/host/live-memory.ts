/**
 * Answers the language server's retro/readMemory: the bytes at an address in a session of
 * the hovered file's machine — stopped, or a DOS guest (always running; its memory reads are
 * free). No session, or none of that machine: null, and the hover shows no live value.
 */
import type { ReadMemoryParams, ReadMemoryResult } from '../lsp/protocol.js';
import type { Machine } from '../lsp/hardware-lookup.js';
import type { SessionManagerApi } from '../session/types.js';

const MAX_LIVE_BYTES = 64;

/** The emulator machine names a session of `machine` runs under. */
function runsMachine(machine: Machine, sessionMachine: string): boolean {
  switch (machine) {
    case 'c64':
      return sessionMachine === 'c64' || sessionMachine.startsWith('c64');
    case 'zx':
      return /^(spectrum|spec|zx|pentagon|scorpion|tc2048)/i.test(sessionMachine);
    case 'sprinter':
      return sessionMachine === 'sprinter';
    case 'dos':
      return sessionMachine === 'dos';
  }
}

export async function readLiveMemory(manager: SessionManagerApi, p: ReadMemoryParams): Promise<ReadMemoryResult> {
  if (!Number.isInteger(p.address) || p.address < 0 || !Number.isInteger(p.size) || p.size < 1) return null;
  for (const session of manager.list().reverse()) {
    const status = await session.status().catch(() => undefined);
    if (!status || !runsMachine(p.machine, status.machine)) continue;
    const readable = status.state === 'stopped' || (p.machine === 'dos' && status.state === 'running');
    if (!readable) continue;
    try {
      const bytes = await session.readMemory({ space: 'cpu', offset: p.address }, Math.min(p.size, MAX_LIVE_BYTES));
      return { bytes: [...bytes], session: status.session_id, state: status.state };
    } catch {
      return null; // the session went away or refused: no live value, nothing to report in a hover
    }
  }
  return null;
}
