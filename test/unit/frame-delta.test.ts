// The panel's frame deltas: the first frame whole, then only the rows that changed (none: an empty part), whole
// again after a size or palette change or a reset; the webview's held frame patched back to every frame exactly,
// and a part it cannot place refused (it then asks for a whole frame).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameDelta, HeldFrame, frameKey } from '../../src/ui/frame-delta.js';

const W = 8;
const H = 6;
const frame = (fill: number, rows: Record<number, number> = {}) => {
  const f = new Uint8Array(W * H).fill(fill);
  for (const [y, v] of Object.entries(rows)) f.fill(v, Number(y) * W, (Number(y) + 1) * W);
  return f;
};

test('whole, then changed rows, then nothing; whole again on a new key or a reset', () => {
  const d = new FrameDelta();
  const first = d.next(frame(1), H, 'k');
  assert.equal(first.rows, undefined);
  assert.equal(first.data.length, W * H);
  const part = d.next(frame(1, { 2: 5, 3: 5 }), H, 'k');
  assert.deepEqual(part.rows, { y: 2, count: 2 });
  assert.deepEqual([...part.data], new Array(2 * W).fill(5));
  assert.deepEqual(d.next(frame(1, { 2: 5, 3: 5 }), H, 'k').rows, { y: 0, count: 0 }, 'the same picture: no rows');
  assert.equal(d.next(frame(1), H, 'other palette').rows, undefined);
  d.reset();
  assert.equal(d.next(frame(1), H, 'other palette').rows, undefined);
  assert.equal(d.next(frame(2), H, 'other palette').rows, undefined, 'every row changed: the whole frame');
});

test('the held frame follows every frame exactly through parts; a part with nothing held is refused', () => {
  const d = new FrameDelta();
  const held = new HeldFrame();
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 4;
  let f = frame(0);
  for (let i = 0; i < 200; i++) {
    f = new Uint8Array(f);
    for (let n = random(); n > 0; n--) f[(random() * 13 + i * 7) % f.length] = random() + 10;
    const post = d.next(f, H, 'k');
    // what the webview gets is its own buffer: the controller's copy may not be changed by it
    const whole = held.apply(new Uint8Array(post.data), H, 'k', post.rows);
    assert.deepEqual(whole, f, `frame ${i}`);
  }
  assert.equal(new HeldFrame().apply(new Uint8Array(W), H, 'k', { y: 1, count: 1 }), undefined);
  assert.equal(held.apply(new Uint8Array(W), H, 'other', { y: 1, count: 1 }), undefined, 'another key');
});

test('a frame key names the palette by its colours, not by the array that holds them', () => {
  const colours = [1, 2, 3, 4, 5, 6];
  const key = frameKey(8, 2, colours);
  assert.equal(frameKey(8, 2, [...colours]), key, 'the same colours in another array');
  colours[5] = 7; // the caller changes its own array: the key of the next frame follows
  assert.notEqual(frameKey(8, 2, colours), key);
  assert.equal(frameKey(8, 2, [1, 2, 3, 4, 5, 6]), key);
  assert.notEqual(frameKey(8, 2, [1, 2, 3]), key);
  assert.equal(frameKey(8, 2), '8x2 rgba');
});
