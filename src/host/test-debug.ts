/**
 * The Test Explorer's Debug profile: one test in a real debug session, launched as F5 launches (the `retro` debug
 * type, the same program and debug info as the headless run). At main's entry the test's address goes into
 * retro_test.h's `retro_test_only`, so main runs that test alone; a function breakpoint on `retro_test_failed`
 * (added for the session, removed after) stops at each failure, where the Call Stack's focus moves down to the
 * test's frame: the editor shows the failing EXPECT's line with the whole stack. (A Step Out would land past the
 * line: the EXPECT's call is its line's last instruction.) When the user has breakpoints of their own it stops at
 * the test's start too.
 */
import * as vscode from 'vscode';
import { DEBUG_TYPE } from '../dap/launch-schema.js';
import { hex } from '../core/hex.js';
import type { DebugTarget } from './test-explorer-model.js';

const THREAD = { threadId: 1 };
const FAILED = 'retro_test_failed';
const FOCUS_WAIT_MS = 5000;
const FOCUS_POLL_MS = 50;

type StopHandler = (session: vscode.DebugSession, reason: string) => void;
/** stop handlers per debug session name: the tracker below is registered once */
const handlers = new Map<string, StopHandler>();

export function registerTestDebugTracker(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterTrackerFactory(DEBUG_TYPE, {
      createDebugAdapterTracker(session) {
        const handler = handlers.get(session.name);
        if (!handler) return undefined;
        return {
          onDidSendMessage(m: { type?: string; event?: string; body?: { reason?: string } }) {
            if (m.type === 'event' && m.event === 'stopped') handler(session, m.body?.reason ?? '');
          },
        };
      },
    }),
  );
}

/** Runs the debug session to its end (or until `token` is cancelled); rejects when it cannot start. */
export async function debugOneTest(
  target: DebugTarget,
  folder: vscode.WorkspaceFolder | undefined,
  token: vscode.CancellationToken,
): Promise<void> {
  const name = `Retro test: ${target.functionName}`;
  const userBreakpoints = vscode.debug.breakpoints.some((b) => b.enabled);
  const ours = [
    new vscode.FunctionBreakpoint(FAILED),
    ...(userBreakpoints ? [new vscode.FunctionBreakpoint(target.functionName)] : []),
  ];
  let entered = false;
  let busy = Promise.resolve();
  handlers.set(name, (session, reason) => {
    busy = busy.then(async () => {
      try {
        if (!entered) {
          // stopped at main: run the chosen test alone
          entered = true;
          const address = [target.testAddress & 0xff, target.testAddress >> 8];
          await session.customRequest('writeMemory', {
            memoryReference: hex(target.onlyAddress),
            data: Buffer.from(address).toString('base64'),
          });
          await continueInVsCode(session);
        } else if (reason !== 'step') {
          const names = await frameNames(session);
          const test = names.indexOf(target.functionName);
          if (names[0] === FAILED && test > 0) await focusFrame(session, test);
        }
      } catch {
        // the session ended meanwhile: nothing to drive
      }
    });
  });
  vscode.debug.addBreakpoints(ours);
  try {
    const config = { type: DEBUG_TYPE, request: 'launch', name, ...target.launch, stopOnEntry: true };
    const ended = new Promise<void>((done) => {
      const off = vscode.debug.onDidTerminateDebugSession((s) => {
        if (s.name !== name) return;
        off.dispose();
        done();
      });
      token.onCancellationRequested(() => void vscode.debug.stopDebugging());
    });
    if (!(await vscode.debug.startDebugging(folder, config))) throw new Error(`${name} did not start.`);
    await ended;
  } finally {
    handlers.delete(name);
    vscode.debug.removeBreakpoints(ours);
  }
}

async function frameNames(session: vscode.DebugSession): Promise<string[]> {
  const trace = (await session.customRequest('stackTrace', { ...THREAD, levels: 8 })) as {
    stackFrames: { name: string }[];
  };
  return trace.stackFrames.map((f) => f.name.replace(/\s.*$/, ''));
}

/** Waits (bounded) until VS Code took the stop in: its focus is on a frame of `session`. */
async function whenFocused(session: vscode.DebugSession): Promise<void> {
  const focused = () => {
    const item = vscode.debug.activeStackItem;
    return item instanceof vscode.DebugStackFrame && item.session.id === session.id ? item.frameId : undefined;
  };
  for (let waited = 0; focused() === undefined && waited < FOCUS_WAIT_MS; waited += FOCUS_POLL_MS)
    await new Promise((r) => setTimeout(r, FOCUS_POLL_MS));
}

/**
 * Continues through VS Code's own Continue (the session's first thread), not a custom `continue` request: VS Code
 * clears a stop's details only when it continues itself (or gets a `continued` event, which a DAP adapter does not
 * send for a continue request), so after a custom one its Call Stack kept saying "Stopped at entry" at the next stop.
 */
async function continueInVsCode(session: vscode.DebugSession): Promise<void> {
  await whenFocused(session);
  await vscode.commands.executeCommand('workbench.action.debug.continue', undefined, { sessionId: session.id });
}

/** Once VS Code focused the stop's top frame, moves its focus `depth` frames down (its own Call Stack commands). */
async function focusFrame(session: vscode.DebugSession, depth: number): Promise<void> {
  await whenFocused(session);
  for (let i = 0; i < depth; i++) await vscode.commands.executeCommand('workbench.action.debug.callStackDown');
}
