/**
 * Test-side helpers around @vscode/debugadapter-testsupport's DebugClient:
 * every event is recorded from the moment the client connects, so a test can
 * wait for one that already arrived; waits have their own timeouts (socket
 * mode has none).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import { REPO_ROOT } from '../support/zx-fixture.js';

export const ADAPTER = join(REPO_ROOT, 'dist', 'debugAdapter.js');
const EVENTS = [
  'initialized',
  'stopped',
  'continued',
  'terminated',
  'exited',
  'output',
  'breakpoint',
  'invalidated',
  'memory',
  'capabilities',
];

export class RecordingClient extends DebugClient {
  readonly events: DebugProtocol.Event[] = [];
  private consumed = new Set<DebugProtocol.Event>();

  constructor() {
    super('node', ADAPTER, 'retro', { cwd: REPO_ROOT }, true);
    for (const name of EVENTS) this.on(name, (e: DebugProtocol.Event) => this.events.push(e));
  }

  /** The first not-yet-taken event of that kind (already received or still to come) that passes `match`. */
  async next<E extends DebugProtocol.Event = DebugProtocol.Event>(
    name: string,
    timeoutMs = 30_000,
    match: (e: E) => boolean = () => true,
    signal?: AbortSignal,
  ): Promise<E> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (signal?.aborted) throw new Error(`stopped waiting for '${name}'`);
      const found = this.events.find((e) => e.event === name && !this.consumed.has(e) && match(e as E));
      if (found) {
        this.consumed.add(found);
        return found as E;
      }
      if (Date.now() > deadline) {
        const seen = this.events.map((e) =>
          e.event === 'output' ? `output:${(e.body as { output: string }).output.trim()}` : e.event,
        );
        throw new Error(`no '${name}' event within ${timeoutMs} ms; saw: ${seen.join(' | ')}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Marks everything received so far as seen (before an action whose events we want fresh). */
  drain(name: string): void {
    for (const e of this.events) if (e.event === name) this.consumed.add(e);
  }

  outputText(): string {
    return this.events
      .filter((e) => e.event === 'output')
      .map((e) => (e.body as { output: string }).output)
      .join('');
  }

  async initialize(): Promise<DebugProtocol.InitializeResponse> {
    return this.initializeRequest({
      adapterID: 'retro',
      linesStartAt1: true,
      columnsStartAt1: true,
      pathFormat: 'path',
      supportsInvalidatedEvent: true,
    });
  }

  /** launch → initialized → (configure) → configurationDone → launch response. */
  async launchAndConfigure(
    args: Record<string, unknown>,
    configure: () => Promise<void> = async () => {},
  ): Promise<DebugProtocol.LaunchResponse> {
    const launched = this.launchRequest(args as DebugProtocol.LaunchRequestArguments);
    // A failed launch answers without 'initialized': surface its error instead of a wait timeout.
    const stopWaiting = new AbortController();
    const initialized = this.next('initialized', 120_000, () => true, stopWaiting.signal);
    initialized.catch(() => undefined);
    try {
      await Promise.race([initialized, launched]);
    } finally {
      stopWaiting.abort();
    }
    await configure();
    await this.configurationDoneRequest();
    return launched;
  }

  adapterPid(): number {
    const proc = (this as unknown as { _adapterProcess?: { pid?: number } })._adapterProcess;
    if (!proc?.pid) throw new Error('adapter process not running');
    return proc.pid;
  }

  async topFrame(): Promise<DebugProtocol.StackFrame> {
    const { body } = await this.stackTraceRequest({ threadId: 1 });
    return body.stackFrames[0];
  }
}

/** Child processes of `pid` (from /proc), with their command names. */
export function childProcesses(pid: number): { pid: number; comm: string }[] {
  const out: { pid: number; comm: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      if (ppid === pid) out.push({ pid: Number(entry), comm: stat.slice(stat.indexOf('(') + 1, close) });
    } catch {
      // the process went away while we looked
    }
  }
  return out;
}

export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** 1-based line of the first line in `file` containing `text`. */
export function lineOf(file: string, text: string): number {
  const index = readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(text));
  if (index < 0) throw new Error(`"${text}" not in ${file}`);
  return index + 1;
}
