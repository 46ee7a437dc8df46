// The replaying reader of host-side breakpoint conditions (session/read-replay.ts): what a decision at a place read
// is asked for at once at the next decision there, and a read is served from those answers only when one of them
// covers it; anything else (not covered, partly covered, an early read that failed) is read for real. Values are
// always this decision's: memory changes between decisions here, as a running program changes it between hits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadReplay } from '../../src/session/read-replay.js';
import { badAddress } from '../../src/core/errors.js';

/** 1 KiB of memory; reads beyond it fail as a target's do. `log`: each real read, as `offset+length`. */
function memory() {
  const bytes = new Uint8Array(1024).map((_, i) => i & 0xff);
  const log: string[] = [];
  const read = async (offset: number, length: number) => {
    log.push(`${offset}+${length}`);
    if (offset + length > bytes.length) throw badAddress(`${offset}+${length} is beyond the memory`);
    return bytes.slice(offset, offset + length);
  };
  return { bytes, log, read };
}

test('the first decision at a place reads for real; the next asks for its ranges at once and serves covered reads', async () => {
  const m = memory();
  const replay = new ReadReplay();
  const first = replay.begin('a', m.read);
  assert.deepEqual(m.log, [], 'nothing to replay yet');
  assert.deepEqual([...(await first(0x10, 2))], [0x10, 0x11]);
  assert.deepEqual([...(await first(0x80, 4))], [0x80, 0x81, 0x82, 0x83]);
  assert.deepEqual(m.log, ['16+2', '128+4']);

  m.log.length = 0;
  m.bytes[0x10] = 0xaa; // the program ran: the value at this hit is what counts
  m.bytes[0x82] = 0xbb;
  const second = replay.begin('a', m.read);
  assert.deepEqual(m.log, ['16+2', '128+4'], 'both asked for before the condition reads anything');
  assert.deepEqual([...(await second(0x10, 2))], [0xaa, 0x11]);
  assert.deepEqual([...(await second(0x82, 2))], [0xbb, 0x83], 'a part of a replayed range');
  assert.deepEqual(m.log, ['16+2', '128+4'], 'served without another read');
});

test('a read no replayed range covers, wholly or at all, is read for real, and replayed next time', async () => {
  const m = memory();
  const replay = new ReadReplay();
  await replay.begin('a', m.read)(0x40, 4);
  m.log.length = 0;
  const second = replay.begin('a', m.read);
  assert.deepEqual([...(await second(0x42, 4))], [0x42, 0x43, 0x44, 0x45], 'partly covered');
  assert.deepEqual([...(await second(0x200, 1))], [0x00], 'not covered');
  assert.deepEqual(m.log, ['64+4', '66+4', '512+1']);

  // what the second decision read is what the third replays: 0x40+4 was not read again, so it is not asked
  m.log.length = 0;
  const third = replay.begin('a', m.read);
  assert.deepEqual(m.log, ['66+4', '512+1']);
  await third(0x42, 4);
  assert.deepEqual(m.log, ['66+4', '512+1']);
});

test('places are separate: another place replays its own reads only', async () => {
  const m = memory();
  const replay = new ReadReplay();
  await replay.begin('a', m.read)(0x10, 1);
  await replay.begin('b', m.read)(0x20, 1);
  m.log.length = 0;
  replay.begin('b', m.read);
  assert.deepEqual(m.log, ['32+1']);
});

test('an early read that fails serves nothing: the read is made for real and its own error is the answer', async () => {
  const m = memory();
  const replay = new ReadReplay();
  await replay.begin('a', m.read)(1020, 4);
  const shrunk = async (offset: number, length: number) => {
    m.log.push(`${offset}+${length}`);
    if (offset + length > 1022) throw badAddress(`${offset}+${length} is beyond the memory now`);
    return m.read(offset, length);
  };
  m.log.length = 0;
  const second = replay.begin('a', shrunk);
  await assert.rejects(second(1020, 4), (e: Error) => /beyond the memory now/.test(e.message));
  assert.deepEqual(m.log, ['1020+4', '1020+4'], 'the early read, then the real one');
  // the failed range was not read successfully: the next decision does not ask for it
  m.log.length = 0;
  replay.begin('a', m.read);
  assert.deepEqual(m.log, []);
});
