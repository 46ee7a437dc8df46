/**
 * The screen panel's logic against a real session: MAME running the SDCC-built
 * ZX fixture. After fill_screen(0x55, 0x38) has run for a while a pause stops
 * the program; the stop alone must make the controller post a raw frame (MAME's
 * frame source sends the picture as it stands at a stop) showing that pattern. (A breakpoint right after the fill would show the frame MAME
 * drew before the attributes were written: the "may be stale" case.)
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { PNG } from 'pngjs';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { ScreenController } from '../../src/ui/screen-controller.js';
import { wholeFrames } from '../support/panel-posts.js';
import type { HostMessage } from '../../src/ui/screen-messages.js';
import { buildZxFixture } from '../support/zx-fixture.js';

const OUT = join(__dirname, '..', '..', '.test-work', 'screen-panel');
const manager = new SessionManager({
  connectors: CONNECTORS,
  workDir: mkdtempSync(join(tmpdir(), 'retro-screen-it-')),
});
after(() => manager.closeAll());

/** Resolves with the first posted message that satisfies `match`, bounded. */
function nextMessage(
  posted: HostMessage[],
  match: (m: HostMessage) => boolean,
  timeoutMs: number,
): Promise<HostMessage> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const poll = () => {
      const found = posted.find(match);
      if (found) return resolve(found);
      if (Date.now() > deadline)
        return reject(
          new Error(
            `no matching panel message in ${timeoutMs} ms; got ${JSON.stringify(posted.map((m) => (m.type === 'raw' ? { ...m, rgba: '…', pixels: '…' } : m)))}`,
          ),
        );
      setTimeout(poll, 100);
    };
    poll();
  });
}

test("a stop in the real session brings a frame with the program's screen", { timeout: 180_000 }, async () => {
  const fx = await buildZxFixture();
  const posted: HostMessage[] = [];
  const whole = wholeFrames();
  const controller = new ScreenController({ sessions: manager, post: (m) => posted.push(whole(m)), timeoutMs: 30_000 });
  await controller.handleMessage({ type: 'ready' });
  assert.deepEqual(posted[0]?.type, 'status', 'no session yet: a hint, not a picture');

  const client = manager.start(
    { machine: 'spectrum', emulator: 'mame', program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir, stopOnEntry: true },
    { kind: 'cli', label: 'screen panel test' },
  );
  const { session } = client;
  await session.waitForStop(120_000);
  assert.equal(controller.currentSessionId, session.id, 'the controller follows the new session');

  // Let fill_screen finish and a few frames render, then pause: a stop the panel did not ask for.
  await client.resume();
  await new Promise((r) => setTimeout(r, 1500));
  posted.length = 0;
  await client.pause();
  const message = await nextMessage(posted, (m) => m.type === 'raw' && m.maybeStale, 60_000);
  assert.equal(message.type, 'raw');
  if (message.type !== 'raw' || !message.rgba) return assert.fail('an RGBA frame from the feed');
  assert.equal(message.sessionId, session.id);
  assert.equal(message.state, 'stopped');
  assert.equal(message.maybeStale, true);

  const png = new PNG({ width: message.width, height: message.height });
  Buffer.from(message.rgba).copy(png.data);
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'screen-controller.png'), PNG.sync.write(png)); // for a person to look at
  assert.equal(png.width, message.width);
  assert.ok(png.width >= 256 && png.height >= 192, `screen is ${png.width}x${png.height}`);
  // Bitmap 0x55 with attribute 0x38 (black ink on white paper): the middle row alternates pixel by pixel.
  const y = Math.floor(png.height / 2);
  const luma = (x: number) => {
    const i = (y * png.width + x) * 4;
    return png.data[i] + png.data[i + 1] + png.data[i + 2];
  };
  const from = Math.floor(png.width / 2) - 64;
  let alternations = 0;
  for (let x = from; x < from + 128; x++) if (Math.abs(luma(x) - luma(x + 1)) > 300) alternations++;
  assert.ok(alternations >= 120, `expected the 0x55 pattern in the middle row, saw ${alternations}/128 alternations`);
  controller.dispose();
});
