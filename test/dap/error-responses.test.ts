/**
 * Error responses in process, on an adapter with no session: a request that refuses before its first await
 * (pause) answers with the sentence, never the JavaScript stack the base class's dispatch would send (VS Code
 * showed that in a modal); an evaluate's error is not shown to the user a second time (no toast for a Debug
 * Console typo: the console prints it), nor are the views' own (Call Stack, Variables show theirs in place).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { RetroDebugSession } from '../../src/dap/retro-debug-session.js';
import { SessionManager } from '../../src/session/manager.js';

async function answer(command: string, args: unknown): Promise<DebugProtocol.Response> {
  const adapter = new RetroDebugSession(new SessionManager({ connectors: CONNECTORS }));
  const sent = new Promise<DebugProtocol.Response>((resolve) => {
    adapter.sendResponse = (r: DebugProtocol.Response) => resolve(r);
  });
  adapter.handleMessage({ seq: 1, type: 'request', command, arguments: args } as DebugProtocol.Request);
  return sent;
}

test('pause without control: the sentence, not a stack; shown to the user', async () => {
  const r = await answer('pause', { threadId: 1 });
  const error = (r.body as { error?: DebugProtocol.Message }).error!;
  assert.equal(r.success, false);
  assert.match(error.format, /^No emulator session/);
  assert.doesNotMatch(error.format, /\{_stack\}|\n\s+at /);
  assert.equal(error.showUser, true);
});

test('an evaluate error (a Debug Console typo) is not raised as a toast as well', async () => {
  const r = await answer('evaluate', { expression: 'no_such(', context: 'repl' });
  const error = (r.body as { error?: DebugProtocol.Message }).error!;
  assert.equal(r.success, false);
  assert.equal(error.showUser, false);
  assert.ok(error.format.length > 0);
});

test('the views show their errors in place: stackTrace, scopes and variables raise no toast', async () => {
  for (const [command, args] of [
    ['stackTrace', { threadId: 1 }],
    ['scopes', { frameId: 1 }],
    ['variables', { variablesReference: 1 }],
  ] as const) {
    const r = await answer(command, args);
    const error = (r.body as { error?: DebugProtocol.Message }).error!;
    assert.equal(r.success, false, command);
    assert.equal(error.showUser, false, command);
    assert.ok(error.format.length > 0, command);
  }
});
