/**
 * PNG encoding on the worker thread: RGBA and indexed pictures decode back to
 * the same pixels, a bad picture fails with a clear error (and the next job
 * still works), and the calling thread's event loop keeps turning while a big
 * picture is deflated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { encodeIndexedPngOffThread, encodePngOffThread } from '../../src/core/png-off-thread.js';
import { RetroError } from '../../src/core/errors.js';

test('RGBA and indexed pictures come back as PNGs of the same pixels', async () => {
  const rgba = Buffer.alloc(3 * 2 * 4);
  for (let i = 0; i < rgba.length; i++) rgba[i] = (i * 37) & 255;
  const png = PNG.sync.read(await encodePngOffThread({ width: 3, height: 2, rgba, maybeStale: false }));
  assert.equal(png.width, 3);
  assert.deepEqual([...png.data], [...rgba]);
  const indexed = PNG.sync.read(
    await encodeIndexedPngOffThread({ width: 2, height: 1, pixels: Uint8Array.of(1, 0) }, [
      [10, 20, 30],
      [40, 50, 60],
    ]),
  );
  assert.deepEqual([...indexed.data], [40, 50, 60, 255, 10, 20, 30, 255]);
});

test('a picture whose bytes do not fit its size is refused; the encoder keeps working', async () => {
  await assert.rejects(
    encodePngOffThread({ width: 4, height: 4, rgba: Buffer.alloc(5), maybeStale: false }),
    (err: unknown) => err instanceof RetroError && err.code === 'internal' && /expected 64/.test(err.message),
  );
  const ok = await encodePngOffThread({ width: 1, height: 1, rgba: Buffer.from([1, 2, 3, 4]), maybeStale: false });
  assert.equal(PNG.sync.read(ok).width, 1);
});

test("the caller's thread is not blocked while a large picture is encoded", async () => {
  const size = 2000;
  const rgba = Buffer.alloc(size * size * 4);
  for (let i = 0; i < rgba.length; i += 4) rgba.writeUInt32BE(Math.imul(i, 2654435761) >>> 0, i); // hard to deflate
  await encodePngOffThread({ width: 1, height: 1, rgba: Buffer.alloc(4), maybeStale: false }); // the worker is up
  let turns = 0;
  const ticker = setInterval(() => turns++, 1);
  const t0 = performance.now();
  const png = await encodePngOffThread({ width: size, height: size, rgba, maybeStale: false });
  const ms = performance.now() - t0;
  clearInterval(ticker);
  assert.ok(png.length > 1000);
  // a blocked loop would turn once at the end; a free one about once a millisecond (loosely: the machine may be loaded)
  assert.ok(turns >= Math.min(10, ms / 20), `the event loop turned ${turns} times during ${ms.toFixed(0)} ms`);
});
