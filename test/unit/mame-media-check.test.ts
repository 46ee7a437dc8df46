// What MAME's image slots report after the start (bridge op list_media, as MAME 0.276's sprinter answers it) against
// the media given: a slot MAME left empty or does not have is a launch error naming the file; MAME's own "load
// failed" line becomes one naming the files given. (The live cases: test/integration/sprinter-bad-input.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkMounted, mediaLoadFailure } from '../../src/connectors/mame/media-check.js';
import type { MediaSlot } from '../../src/connectors/mame/bridge-ops.js';

const slots = (hard1: Partial<MediaSlot>): MediaSlot[] => [
  { tag: ':cassette', slot: 'cass', name: 'cassette', mounted: false },
  { tag: ':ata1:0:hdd:image', slot: 'hard1', name: 'harddisk1', mounted: false, ...hard1 },
];

test('a mounted slot passes, by its brief or full name', () => {
  const images = slots({ file: '/d/disk.hdv', mounted: true });
  checkMounted([{ slot: 'hard1', path: '/d/disk.hdv' }], images, 'sprinter');
  checkMounted([{ slot: 'harddisk1', path: '/d/disk.hdv' }], images, 'sprinter');
});

test('a slot MAME left empty fails naming the file and what to give', () => {
  assert.throws(
    () => checkMounted([{ slot: 'hard1', path: '/d/disk.hdv' }], slots({}), 'sprinter'),
    (err: Error & { code?: string }) =>
      err.code === 'launch_failed' && /^MAME did not mount \/d\/disk\.hdv in hard1: .*chdman/.test(err.message),
  );
});

test('a slot the machine does not have fails listing the slots it has', () => {
  assert.throws(
    () => checkMounted([{ slot: 'hard9', path: '/d/x' }], slots({}), 'sprinter'),
    /MAME's sprinter has no media slot "hard9" \(it has cass, hard1\)/,
  );
});

test("MAME's load failure is said with the files given; other output is not one", () => {
  const out =
    'WARNING: the machine might not run correctly.\nFatal error: Device 5.25" floppy load failed: Unable to identify image file format\n';
  assert.equal(
    mediaLoadFailure(out, [{ slot: 'flop1', path: '/d/a.trd' }]),
    'MAME could not load a media image (flop1 = /d/a.trd): its 5.25" floppy says "Unable to identify image file format". Check the file\'s format.',
  );
  assert.equal(mediaLoadFailure('WARNING: the machine might not run correctly.', []), undefined);
});
