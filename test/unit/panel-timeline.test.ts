// The screen panel's timeline pieces without VS Code: the slider's frame -> cycle rule (inside the span; the
// present's frame is the present), the webview messages it sends (checked like every other), and the single
// flight of moves (while one runs only the newest frame asked for is moved to next).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HistorySpan } from '../../src/core/time-travel.js';
import { frameCycle } from '../../src/session/time-travel.js';
import { parseWebviewMessage } from '../../src/ui/screen-messages.js';
import { PanelTimeline } from '../../src/ui/panel-timeline.js';

const SPAN = { startCycle: 1000, endCycle: 10_500, nowCycle: 10_500, cyclesPerFrame: 100 } as HistorySpan;

test('a slider frame goes to its first cycle inside the span; the last frame and later are the present', () => {
  assert.equal(frameCycle(SPAN, 50), 5000);
  assert.equal(frameCycle(SPAN, 10), 1000, 'the start frame begins at the span start');
  assert.equal(frameCycle(SPAN, 0), 1000);
  assert.equal(frameCycle(SPAN, 104), 10_400);
  assert.equal(frameCycle(SPAN, 105), 10_500, "the present's frame is the present");
  assert.equal(frameCycle(SPAN, 9999), 10_500);
  assert.equal(frameCycle(SPAN, 'present'), 10_500);
});

test('the timeline messages from the webview are checked', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'go-to-frame', frame: 42 }), { type: 'go-to-frame', frame: 42 });
  assert.deepEqual(parseWebviewMessage({ type: 'go-to-present' }), { type: 'go-to-present' });
  for (const frame of [-1, 1.5, '3', 2 ** 32, undefined])
    assert.equal(parseWebviewMessage({ type: 'go-to-frame', frame }), undefined, String(frame));
});

test('moves run one at a time; frames asked meanwhile collapse to the newest', async () => {
  const timeline = new PanelTimeline();
  const moved: (number | 'present')[] = [];
  let finish!: () => void;
  const move = (f: number | 'present') => {
    moved.push(f);
    return f === 1 ? new Promise<void>((r) => (finish = r)) : Promise.resolve();
  };
  const first = timeline.goTo(1, move);
  await timeline.goTo(2, move);
  await timeline.goTo(3, move);
  await timeline.goTo('present', move);
  assert.deepEqual(moved, [1], 'the others wait for the first');
  finish();
  await first;
  assert.deepEqual(moved, [1, 'present']);
  await timeline.goTo(7, move);
  assert.deepEqual(moved, [1, 'present', 7]);
});
