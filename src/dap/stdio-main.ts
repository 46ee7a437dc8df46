/**
 * Entry point of dist/debugAdapter.js: the `retro` debug adapter over
 * stdin/stdout with its own SessionManager. stdout carries only the protocol,
 * so console output is sent to stderr. On disconnect, a closed pipe or a
 * signal, every session this process started is closed before it exits.
 */
import { SessionManager } from '../session/manager.js';
import { chooseView, CONNECTORS } from '../connectors/registry.js';
import { RetroDebugSession } from './retro-debug-session.js';

const SHUTDOWN_LIMIT_MS = 15_000;

for (const method of ['log', 'info', 'debug', 'warn'] as const) {
  console[method] = (...args: unknown[]) => console.error(...args);
}
process.on('uncaughtException', (err) => console.error('retro debug adapter: uncaught', err));
process.on('unhandledRejection', (err) => console.error('retro debug adapter: unhandled rejection', err));

const manager = new SessionManager({ connectors: CONNECTORS });
const adapter = new RetroDebugSession(manager, { chooseView });
adapter.start(process.stdin, process.stdout);

let exiting = false;
async function exit(): Promise<void> {
  if (exiting) return;
  exiting = true;
  const cleanup = (async () => {
    await adapter.end();
    await manager.closeAll();
  })().catch((err) => console.error('retro debug adapter: cleanup failed', err));
  await Promise.race([cleanup, new Promise((r) => setTimeout(r, SHUTDOWN_LIMIT_MS).unref())]);
  // let the last response drain before the process goes
  setTimeout(() => process.exit(0), 50);
}

void adapter.closed.then(exit);
process.on('SIGTERM', () => void exit());
process.on('SIGINT', () => void exit());
process.on('SIGHUP', () => void exit());
