/** The comparison harness's session runs: a program on the built-in or a real x64sc (X64SC), started and resumed. */
import { join } from 'node:path';
import type { SessionManager } from '../../src/session/manager.js';

type Handle = ReturnType<SessionManager['start']>;

/** Starts `prg` on `emulator`, lets it run, and gives `fn` the running session; closes it after. */
export async function runOn<T>(
  manager: SessionManager,
  emulator: 'builtin' | 'vice',
  prg: string,
  fn: (dap: Handle) => Promise<T>,
): Promise<T> {
  const dap = manager.start(
    {
      machine: 'c64',
      emulator,
      program: prg,
      cwd: join(prg, '..'),
      ...(emulator === 'vice' ? { vicePath: process.env.X64SC } : {}),
    },
    { kind: 'dap', label: `compare-${emulator}` },
  );
  const beat = setInterval(() => dap.beat(), 500);
  try {
    await dap.session.waitForStop(60_000);
    await dap.resume();
    return await fn(dap);
  } finally {
    clearInterval(beat);
    dap.close();
  }
}
