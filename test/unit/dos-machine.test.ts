/** DOS machine facts on bytes: discovery refusals, keyboard ring planning, chain-4, keys, profiles, the trace cave. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HeapMemory } from '../../src/connectors/dosbox/heap-memory.js';
import { findGuestBase } from '../../src/connectors/dosbox/discovery.js';
import { planRingWrite } from '../../src/machines/dos/keyboard-ring.js';
import { chain4Index, decodeMode13 } from '../../src/machines/dos/video.js';
import { parseKeys } from '../../src/machines/dos/keys.js';
import { validateProfile } from '../../src/machines/dos/profile.js';
import { assembleCave } from '../../src/connectors/dosbox/trace-cave.js';
import { RetroError } from '../../src/core/errors.js';

/** A guest image: BDA with ring 1E/3E, 640 KB, INT 21h → F000:14A0 holding code. */
function guestAt(heap: Uint8Array, base: number, ticks: number): void {
  const v = new DataView(heap.buffer);
  v.setUint16(base + 0x480, 0x1e, true);
  v.setUint16(base + 0x482, 0x3e, true);
  v.setUint16(base + 0x41a, 0x1e, true);
  v.setUint16(base + 0x41c, 0x1e, true);
  v.setUint16(base + 0x413, 640, true);
  v.setUint16(base + 0x84, 0x14a0, true);
  v.setUint16(base + 0x86, 0xf000, true);
  heap.set([0xfb, 0xfe, 0x38, 0x25], base + 0xf14a0);
  v.setUint32(base + 0x46c, ticks, true);
}

describe('DOS guest discovery', () => {
  it('says "still booting" when no guest is there yet', async () => {
    const heap = new Uint8Array(0x300000);
    const err = await findGuestBase(new HeapMemory(() => heap, 'test heap')).catch((e) => e);
    assert.ok(err instanceof RetroError && err.code === 'not_found' && /booting/.test(err.message));
  });
  it('finds one guest and refuses two live ones', async () => {
    const heap = new Uint8Array(0x500000);
    guestAt(heap, 0x10000, 5);
    assert.equal(await findGuestBase(new HeapMemory(() => heap, 'test heap')), 0x10000);
    guestAt(heap, 0x200000, 9);
    const timer = setInterval(() => {
      const v = new DataView(heap.buffer);
      for (const b of [0x10000, 0x200000]) v.setUint32(b + 0x46c, v.getUint32(b + 0x46c, true) + 1, true);
    }, 10);
    const err = await findGuestBase(new HeapMemory(() => heap, 'test heap')).catch((e) => e);
    clearInterval(timer);
    assert.equal(err.code, 'incompatible_target');
    assert.match(err.message, /Found 2 DOS guests .* refusing to guess/);
  });
});

describe('DOS machine facts', () => {
  it('plans ring writes like INT 9 and reports a full ring', () => {
    const low = new Uint8Array(0x500);
    const v = new DataView(low.buffer);
    v.setUint16(0x480, 0x1e, true);
    v.setUint16(0x482, 0x3e, true);
    v.setUint16(0x41a, 0x1e, true);
    v.setUint16(0x41c, 0x3c, true);
    assert.deepEqual(planRingWrite(low), undefined);
    v.setUint16(0x41a, 0x20, true);
    assert.deepEqual(planRingWrite(low), { slot: 0x43c, nextTail: 0x1e });
  });
  it('decodes chain-4 (4 of every 16 bytes)', () => {
    assert.equal(chain4Index(5), 17);
    const span = new Uint8Array(256000);
    for (let o = 0; o < 64000; o++) span[chain4Index(o)] = o & 255;
    assert.deepEqual([...decodeMode13(span).subarray(0, 6)], [0, 1, 2, 3, 4, 5]);
  });
  it('parses keys with named keys', () => {
    assert.deepEqual(parseKeys('a{Enter}{F1}{Ctrl+C}'), [0x1e61, 0x1c0d, 0x3b00, 0x2e03]);
    assert.throws(() => parseKeys('{Nope}'), /Unknown key/);
  });
  it('validates profiles with readable errors', () => {
    assert.throws(
      () => validateProfile({ name: 'x', marker: { bytes: 'zz', offset: 0 } }),
      /marker.bytes: expected hex/,
    );
    assert.throws(
      () => validateProfile({ name: 'x', marker: { bytes: '01020304', offset: 0 }, checks: [{ kind: 'less' }] }),
      /checks\[0\].kind/,
    );
    const p = validateProfile({
      name: 'x',
      marker: { bytes: '01020304', offset: '0x10' },
      mouse: { buttons: '0xB2', position: '0xB6' },
      symbols: { lives: { offset: '0x20', size: 1 } },
      watch_sets: { p: ['lives'] },
    });
    assert.deepEqual(p.mouse, { buttons: 0xb2, x: 0xb6, y: 0xb8 });
    assert.equal(p.symbols.lives.type, 'u8');
  });
  it('assembles a cave that calls the target and returns', () => {
    const { bytes, slots } = assembleCave(
      { segment: 0x191, callOffset: 0x140, caveOffset: 0x1d7, captures: [{ name: 'k', offset: 0x1d3, length: 2 }] },
      0x16b,
    );
    assert.deepEqual([...bytes.subarray(0, 3)], [0xe8, (0x16b - 0x1da) & 0xff, ((0x16b - 0x1da) >> 8) & 0xff]);
    assert.equal(bytes[slots.hits - 0x1d7 - 1], 0xc3);
    assert.ok(bytes.subarray(slots.hits - 0x1d7).every((b) => b === 0));
  });
});

describe('DOS profile example', () => {
  it('the annotated example validates', async () => {
    const { loadProfileFile } = await import('../../src/machines/dos/profile.js');
    const p = loadProfileFile(require.resolve('../../src/machines/dos/example-profile.json'));
    assert.deepEqual(Object.keys(p.symbols), ['tag', 'lastkey', 'count']);
  });
});
