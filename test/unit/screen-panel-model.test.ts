import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { RetroError } from '../../src/core/errors.js';
import type { QueuedEvent, SessionApi, SessionManagerApi, SessionStatus } from '../../src/session/types.js';
import type { ScreenImage } from '../../src/core/target.js';
import { NO_SESSION_MESSAGE, ScreenController } from '../../src/ui/screen-controller.js';
import { screenPanelHtml } from '../../src/ui/screen-html.js';
import { parseWebviewMessage, type HostMessage } from '../../src/ui/screen-messages.js';
import { MAX_SCREEN_SIDE, pngDataUrl } from '../../src/ui/png-data-url.js';

/** A 4x2 image whose pixels are distinguishable, to check the PNG round trip. */
function image(frame: number, maybeStale = true): ScreenImage {
  const rgba = Buffer.alloc(4 * 2 * 4);
  for (let i = 0; i < 8; i++) rgba.set([i * 30, 255 - i * 30, frame & 255, 255], i * 4);
  return { width: 4, height: 2, rgba, frame, maybeStale };
}

/**
 * Just enough of a session for the controller: status, screenshot, events.
 * The controller only reads; the real-session path is covered by
 * test/integration/screen-controller.test.ts and the VS Code e2e.
 */
class ScriptedSession {
  readonly id = 's1';
  readonly events = new EventEmitter();
  phase: SessionStatus['phase'] = 'ready';
  shots = 0;
  gate?: Promise<void>;
  async status(): Promise<SessionStatus> {
    return {
      session_id: this.id,
      build_id: 'b',
      generation: 1,
      phase: this.phase,
      progress: ['MAME started'],
      state: 'stopped',
      machine: 'spectrum',
      emulator: 'mame',
    };
  }
  async screenshot(): Promise<ScreenImage> {
    this.shots++;
    await this.gate;
    return image(this.shots);
  }
  onEvent(listener: (e: QueuedEvent) => void): () => void {
    this.events.on('e', listener);
    return () => this.events.off('e', listener);
  }
  emit(event: QueuedEvent['event']): void {
    this.events.emit('e', { seq: 1, time: 0, event });
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

test('webview messages: only ready and refresh are accepted', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(parseWebviewMessage({ type: 'refresh', extra: 1 }), { type: 'refresh' });
  for (const bad of [undefined, null, 'ready', 42, {}, { type: 'frame' }, { type: 'eval' }]) {
    assert.equal(parseWebviewMessage(bad), undefined);
  }
});

test('nothing is posted before the webview says ready; ready brings a frame that decodes to the screenshot', async () => {
  const session = new ScriptedSession();
  const posted: HostMessage[] = [];
  const controller = new ScreenController({ sessions: managerOf(session), post: (m) => posted.push(m) });
  await controller.refresh();
  assert.equal(posted.length, 0);
  assert.equal(session.shots, 0);
  await controller.handleMessage({ type: 'ready' });
  assert.equal(posted.length, 1);
  const frame = posted[0];
  assert.equal(frame.type, 'frame');
  if (frame.type !== 'frame') return;
  assert.equal(frame.sessionId, 's1');
  assert.equal(frame.state, 'stopped');
  assert.equal(frame.frame, 1);
  assert.equal(frame.maybeStale, true);
  assert.match(frame.dataUrl, /^data:image\/png;base64,/);
  const png = PNG.sync.read(Buffer.from(frame.dataUrl.split(',')[1], 'base64'));
  assert.equal(png.width, 4);
  assert.equal(png.height, 2);
  assert.deepEqual([...png.data], [...image(1).rgba]);
  controller.dispose();
});

test('a stop event refreshes; a burst of stops during one screenshot coalesces into one more', async () => {
  const session = new ScriptedSession();
  const posted: HostMessage[] = [];
  const controller = new ScreenController({ sessions: managerOf(session), post: (m) => posted.push(m) });
  await controller.handleMessage({ type: 'ready' });
  let release!: () => void;
  session.gate = new Promise((r) => {
    release = r;
  });
  const stop = {
    type: 'stopped' as const,
    stop: { reason: 'breakpoint' as const, pc: 0x100 },
    generation: 1,
    breakpoint_ids: [],
  };
  session.emit(stop);
  session.emit(stop);
  session.emit(stop);
  const pending = controller.refresh();
  release();
  await pending;
  assert.equal(session.shots, 3, 'one at ready, one for the first stop, one for everything during it');
  assert.deepEqual(
    posted.map((m) => m.type === 'frame' && m.frame),
    [1, 2, 3],
  );
  session.emit({ type: 'running' });
  assert.deepEqual(posted.at(-1), { type: 'status', sessionId: 's1', state: 'running', message: 'Running…' });
  controller.dispose();
  session.emit(stop);
  await controller.refresh();
  assert.equal(session.shots, 3, 'a disposed controller takes no screenshots');
});

test('no session, a booting session, a failing screenshot: each becomes a status sentence', async () => {
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
    state: 'stopped',
    message: 'Session is booting: MAME started',
  });

  session.phase = 'ready';
  session.gate = new Promise(() => {}); // never answers
  await controller.handleMessage({ type: 'refresh' });
  const last = posted.at(-1);
  assert.equal(last?.type, 'status');
  assert.match(last?.type === 'status' ? last.message : '', /Gave up taking a screenshot after 200 ms/);
  controller.dispose();
});

test('png data URL refuses absurd sizes', () => {
  assert.throws(
    () =>
      pngDataUrl({
        width: MAX_SCREEN_SIDE + 1,
        height: 1,
        rgba: Buffer.alloc((MAX_SCREEN_SIDE + 1) * 4),
        maybeStale: false,
      }),
    (e: RetroError) => e.code === 'too_large',
  );
  assert.throws(() => pngDataUrl({ width: 0, height: 5, rgba: Buffer.alloc(0), maybeStale: false }), RetroError);
});

test('panel HTML: locked-down CSP with the nonce, nothing remote', () => {
  const html = screenPanelHtml({
    cspSource: 'https://webview.example',
    scriptUri: 'https://webview.example/s.js',
    styleUri: 'https://webview.example/s.css',
    nonce: 'abc_123',
  });
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'nonce-abc_123'/);
  assert.match(csp, /img-src data: https:\/\/webview\.example/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  assert.match(html, /<script nonce="abc_123" src="https:\/\/webview\.example\/s\.js"><\/script>/);
  assert.equal((html.match(/<script/g) ?? []).length, 1);
  assert.match(html, /<img id="screen"/);
  assert.match(html, /<button id="refresh"/);
  assert.throws(() => screenPanelHtml({ cspSource: 'x', scriptUri: 'x', styleUri: 'x', nonce: "a' 'unsafe-inline" }));
});
