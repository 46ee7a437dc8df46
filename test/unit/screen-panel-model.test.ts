import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { RetroError } from '../../src/core/errors.js';
import type { KeyStroke } from '../../src/core/keys.js';
import type { Address, FrameListener, FrameRequest, ScreenFrame } from '../../src/core/target.js';
import type {
  ClientRef,
  ClientSession,
  QueuedEvent,
  SessionApi,
  SessionManagerApi,
  SessionStatus,
} from '../../src/session/types.js';
import { FRAMES_IN_FLIGHT, NO_SESSION_MESSAGE, PANEL_LABEL, ScreenController } from '../../src/ui/screen-controller.js';
import { screenPanelHtml } from '../../src/ui/screen-html.js';
import { parseWebviewMessage, type HostMessage } from '../../src/ui/screen-messages.js';
import { panelKeyAction, panelKeyText } from '../../src/ui/panel-keys.js';

const PALETTE = [
  [0, 0, 0],
  [255, 255, 255],
] as const;

function frame(n: number, maybeStale = false): ScreenFrame {
  return {
    width: 4,
    height: 2,
    frame: n,
    pixels: Uint8Array.from([0, 1, 0, 1, n & 1, 0, 0, 1]),
    palette: PALETTE,
    inner: { x: 1, y: 0, width: 2, height: 2 },
    maybeStale,
  };
}

/**
 * Just enough of a session for the controller: status, a frame feed the test
 * drives, a client handle, and C64 memory for the inspector. The real-session
 * path is covered by test/integration/screen-controller.test.ts and the e2e.
 */
class ScriptedSession {
  readonly id = 's1';
  readonly events = new EventEmitter();
  phase: SessionStatus['phase'] = 'ready';
  machine = 'c64';
  watchers = new Set<FrameListener>();
  requests: FrameRequest[] = [];
  typed: KeyStroke[][] = [];
  claims: unknown[] = [];
  /** who holds the lease; typed keys are recorded with the typing client's id */
  holder?: ClientRef;
  typedBy: string[] = [];
  memory = new Uint8Array(0x10000);
  async status(): Promise<SessionStatus> {
    return {
      session_id: this.id,
      build_id: 'b',
      generation: 1,
      phase: this.phase,
      progress: ['MAME started'],
      state: 'running',
      machine: this.machine,
      emulator: 'builtin',
      ...(this.holder ? { lease: { holder: this.holder, expires_in_ms: 1 } } : {}),
    } as SessionStatus;
  }
  watchScreen(request: FrameRequest, listener: FrameListener): () => void {
    this.requests.push(request);
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }
  frameSource() {
    return { mode: 'push' as const, maxFps: 50, cost: 'nothing' };
  }
  push(f: ScreenFrame): void {
    for (const w of this.watchers) w(f);
  }
  async readMemory(address: Address, length: number): Promise<Uint8Array> {
    return this.memory.slice(address.offset, address.offset + length);
  }
  attach(kind: ClientRef['kind'] = 'ui', label = PANEL_LABEL, id = 'c') {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const session = this;
    const me: ClientRef = { id, kind, label };
    return {
      session,
      closed: false,
      get holdsControl() {
        return session.holder?.id === id;
      },
      claimControl(opts: unknown) {
        session.claims.push(opts ?? { by: id });
        session.holder = me;
        return { holder: me, expires_in_ms: 1 };
      },
      tryClaim() {
        if (session.holder && session.holder.id !== id) return false;
        this.claimControl(undefined);
        return true;
      },
      releaseControl() {
        if (session.holder?.id === id) session.holder = undefined;
      },
      async typeKeys(strokes: KeyStroke[]) {
        session.typed.push(strokes);
        session.typedBy.push(id);
        return { typed: strokes.length, pending: false };
      },
      beat() {},
      close() {},
    };
  }
  onEvent(listener: (e: QueuedEvent) => void): () => void {
    this.events.on('e', listener);
    return () => this.events.off('e', listener);
  }
}

function managerOf(
  session?: ScriptedSession,
): Pick<SessionManagerApi, 'get' | 'onSessionsChanged'> & { current?: ScriptedSession; fire(): void } {
  const listeners = new Set<() => void>();
  return {
    current: session,
    get() {
      if (!this.current) throw new RetroError('no_session', 'none');
      return this.current as unknown as SessionApi;
    },
    onSessionsChanged(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    fire() {
      for (const l of listeners) l();
    },
  };
}

const tick = () => new Promise((r) => setImmediate(r));

test('webview messages: only the known ones, with fields in range', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(parseWebviewMessage({ type: 'refresh', extra: 1 }), { type: 'refresh' });
  assert.deepEqual(parseWebviewMessage({ type: 'key', text: '{RETURN}' }), { type: 'key', text: '{RETURN}' });
  assert.deepEqual(parseWebviewMessage({ type: 'inspect', x: 3, y: 4 }), { type: 'inspect', x: 3, y: 4 });
  assert.deepEqual(parseWebviewMessage({ type: 'open-memory', reference: 'vram:0x3718' }), {
    type: 'open-memory',
    reference: 'vram:0x3718',
  });
  for (const bad of [
    undefined,
    null,
    'ready',
    42,
    {},
    { type: 'frame' },
    { type: 'eval' },
    { type: 'key', text: '' },
    { type: 'key', text: 'x'.repeat(33) },
    { type: 'inspect', x: -1, y: 0 },
    { type: 'inspect', x: 1.5, y: 0 },
    { type: 'warp', on: 'yes' },
    { type: 'open-memory', reference: 'main' },
    { type: 'open-memory', reference: 0x400 },
    { type: 'open-memory', reference: `vram:${'0'.repeat(80)}` },
  ]) {
    assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
  }
});

test('panel keys map to the one key syntax; modifier presses and Meta shortcuts stay with VS Code', () => {
  const k = (key: string, mods: Partial<Record<'shiftKey' | 'ctrlKey' | 'altKey' | 'metaKey', boolean>> = {}) =>
    panelKeyText({ key, shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, ...mods });
  assert.equal(k('a'), 'a');
  assert.equal(k('A', { shiftKey: true }), 'A');
  assert.equal(k('Enter'), '{RETURN}');
  assert.equal(k('ArrowUp', { shiftKey: true }), '{SHIFT+UP}');
  assert.equal(k('F2'), '{F2}');
  assert.equal(k('F1'), undefined, "F1 is always VS Code's (the command palette)");
  assert.equal(k('P', { ctrlKey: true, shiftKey: true }), undefined, 'so is Ctrl+Shift+P');
  assert.equal(k('c', { ctrlKey: true }), '{CTRL+C}');
  assert.equal(k('{'), '{{');
  assert.equal(k('Shift', { shiftKey: true }), undefined);
  assert.equal(k('p', { metaKey: true }), undefined);
  const act = (key: string, shiftKey = false) =>
    panelKeyAction({ key, shiftKey, ctrlKey: false, altKey: false, metaKey: false });
  assert.deepEqual(act('Escape'), { release: true }, 'Esc gives the keys back to VS Code');
  assert.deepEqual(act('Escape', true), { text: '{ESCAPE}' }, 'Shift+Esc types Esc');
  assert.deepEqual(act('x'), { text: 'x' });
  assert.equal(act('F1'), undefined);
});

test('nothing is posted before ready; then raw frames from the feed, the newest one when the webview is slow', async () => {
  const session = new ScriptedSession();
  const posted: HostMessage[] = [];
  let release: () => void = () => undefined;
  let gate: Promise<void> = Promise.resolve();
  const controller = new ScreenController({
    sessions: managerOf(session),
    post: (m) => {
      posted.push(m);
      return m.type === 'raw' ? gate : undefined;
    },
  });
  await tick();
  assert.equal(posted.length, 0);
  await controller.handleMessage({ type: 'ready' });
  assert.deepEqual(session.requests, [{ fps: 30, realtime: true }], 'a person watching: real time');
  gate = new Promise((r) => (release = r));
  for (let i = 1; i <= 5; i++) session.push(frame(i));
  const raws = () => posted.filter((m) => m.type === 'raw').map((m) => m.type === 'raw' && m.frame);
  assert.equal(FRAMES_IN_FLIGHT, 3);
  assert.deepEqual(raws(), [1, 2, 3], 'three posts under way at a time, no more');
  gate = Promise.resolve();
  release();
  await tick();
  await tick();
  assert.deepEqual(raws(), [1, 2, 3, 5], 'frame 4 was overtaken by 5');
  const raw = posted.find((m) => m.type === 'raw');
  assert.ok(raw?.type === 'raw');
  assert.deepEqual([raw.width, raw.height, raw.palette, raw.cost], [4, 2, [0, 0, 0, 255, 255, 255], 'nothing']);
  await controller.handleMessage({ type: 'warp', on: true });
  assert.deepEqual(session.requests.at(-1), { fps: 30, realtime: false }, 'warp on request');
  controller.dispose();
});

test('keys act for the user: a free lease is claimed, an agent\'s refused with the way back, "Take back" takes it', async () => {
  const session = new ScriptedSession();
  const posted: HostMessage[] = [];
  const controller = new ScreenController({ sessions: managerOf(session), post: (m) => posted.push(m) });
  await controller.handleMessage({ type: 'ready' });
  await controller.handleMessage({ type: 'key', text: 'A' });
  assert.deepEqual(session.typed, [[{ char: 'A' }]], 'no separate Take Control: a free lease is claimed');
  assert.deepEqual(session.claims, [{ by: 'c' }]);
  const agent: ClientRef = { id: 'a', kind: 'mcp', label: 'MCP client claude-code' };
  session.holder = agent;
  await controller.handleMessage({ type: 'key', text: 'B' });
  assert.equal(session.typed.length, 1, "an agent's lease is not taken by a key");
  const refusal = posted.find((m) => m.type === 'status');
  assert.match(refusal?.type === 'status' ? refusal.message : '', /^MCP client claude-code has control.*Take back/);
  assert.deepEqual(posted.at(-1), { type: 'control', holder: agent.label, mine: false, users: false });
  await controller.handleMessage({ type: 'take-control' });
  assert.deepEqual(session.claims.at(-1), { takeOver: true }, '"Take back" takes it over');
  assert.deepEqual(posted.at(-1), { type: 'control', holder: PANEL_LABEL, mine: true, users: true });
  await controller.handleMessage({ type: 'key', text: '{RETURN}' });
  assert.deepEqual(session.typed.at(-1), [{ key: 'RETURN', modifiers: [] }]);
  controller.dispose();
});

test("with the user's debug session on the session, the panel types through its handle and lease", async () => {
  const session = new ScriptedSession();
  const dap = session.attach('dap', 'VS Code debug session "demo"', 'd');
  dap.claimControl(undefined);
  const posted: HostMessage[] = [];
  const controller = new ScreenController({
    sessions: managerOf(session),
    post: (m) => posted.push(m),
    userClient: (id) => (id === session.id ? (dap as unknown as ClientSession) : undefined),
  });
  await controller.handleMessage({ type: 'ready' });
  assert.deepEqual(
    posted.find((m) => m.type === 'control'),
    {
      type: 'control',
      holder: 'VS Code debug session "demo"',
      mine: true,
      users: true,
    },
  );
  await controller.handleMessage({ type: 'key', text: 'x' });
  assert.deepEqual(session.typedBy, ['d'], "typed under the debug session's lease, which it keeps");
  assert.equal(session.holder?.id, 'd');
  controller.dispose();
});

test('inspector on a C64: the cell, screen code and character, colour RAM, the sprite, the mode', async () => {
  const session = new ScriptedSession();
  const m = session.memory;
  m[0xd018] = 0x15; // screen $0400, upper case/graphics
  m[0xd011] = 0x1b;
  m[0xdd00] = 0x03; // VIC bank 0
  m[0x0400 + 41] = 0x01; // 'A' at column 1, row 1
  m[0xd800 + 41] = 0x0e;
  m[0xd015] = 0x01; // sprite 0 at the inner area's top-left
  m[0xd000] = 24;
  m[0xd001] = 50;
  const posted: HostMessage[] = [];
  const controller = new ScreenController({ sessions: managerOf(session), post: (m) => posted.push(m) });
  await controller.handleMessage({ type: 'ready' });
  session.push({ ...frame(1), width: 384, height: 272, inner: { x: 32, y: 35, width: 320, height: 200 } });
  await controller.handleMessage({ type: 'inspect', x: 32 + 9, y: 35 + 10 });
  const found = posted.at(-1);
  assert.ok(found?.type === 'inspect');
  assert.deepEqual(found.lines, [
    'pixel 41, 45',
    'cell 1, 1',
    "screen $0429 = $01 'A'",
    'colour $D829 = $0E (light blue)',
    'sprite 0',
    'standard text',
  ]);
  assert.equal(found.reference, '0x0429', 'a click opens screen RAM there');
  await controller.handleMessage({ type: 'inspect', x: 2, y: 2 });
  const border = posted.at(-1);
  assert.ok(border?.type === 'inspect');
  assert.deepEqual(border.lines, ['pixel 2, 2', 'border', 'standard text']);
  controller.dispose();
});

test('no session, a booting session: each becomes a status sentence', async () => {
  const manager = managerOf(undefined);
  const posted: HostMessage[] = [];
  const controller = new ScreenController({ sessions: manager, post: (m) => posted.push(m), timeoutMs: 200 });
  await controller.handleMessage({ type: 'ready' });
  assert.deepEqual(posted.at(-1), { type: 'status', message: NO_SESSION_MESSAGE });
  const session = new ScriptedSession();
  session.phase = 'booting';
  manager.current = session;
  manager.fire();
  await controller.refresh();
  assert.equal(controller.currentSessionId, 's1');
  assert.deepEqual(posted.at(-1), {
    type: 'status',
    sessionId: 's1',
    state: 'running',
    message: 'Session is booting: MAME started',
  });
  assert.equal(session.watchers.size, 0, 'no frames asked of a session still booting');
  controller.dispose();
});

test('panel HTML: locked-down CSP with the nonce, nothing remote, a focusable canvas', () => {
  const html = screenPanelHtml({
    cspSource: 'https://webview.example',
    scriptUri: 'https://webview.example/s.js',
    styleUri: 'https://webview.example/s.css',
    nonce: 'abc_123',
  });
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'nonce-abc_123'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  assert.match(html, /<script nonce="abc_123" src="https:\/\/webview\.example\/s\.js"><\/script>/);
  assert.equal((html.match(/<script/g) ?? []).length, 1);
  assert.match(html, /<canvas id="screen" tabindex="0"/);
});

test("another session starts blank: the old picture is cleared, then the new session's frames come", async () => {
  const first = new ScriptedSession();
  const manager = managerOf(first);
  const posted: HostMessage[] = [];
  const controller = new ScreenController({ sessions: manager, post: (m) => posted.push(m) });
  await controller.handleMessage({ type: 'ready' });
  first.push(frame(1));
  const second = new ScriptedSession();
  manager.current = second;
  posted.length = 0;
  manager.fire();
  assert.deepEqual(posted[0], { type: 'status', sessionId: 's1', message: 'Waiting for the screen…', clear: true });
  controller.dispose();
});
