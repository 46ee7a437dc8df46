/**
 * The panel's mouse path on a real MAME machine with a mouse: Debian's MAME 0.251 ships no ROMs, but `mac128k`
 * starts on zero-filled images of its ROM files (MAME warns of the checksums and runs; the 68000 then executes
 * zeros, which is enough: the mouse is MAME's input port, read back through the bridge whatever the CPU does).
 * A move reaches the port as the position the moves add up to, a button while it is held, and a stop
 * releases them both (the port reads 0 again, and the position starts from there).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { MOUSE_FEATURE } from '../../src/core/input-devices.js';
import { launchMameTarget, type MameTarget } from '../../src/connectors/mame/mame-target.js';
import { MAME_RAW_FEATURE } from '../../src/connectors/mame/mame-raw.js';

const work = mkdtempSync(join(tmpdir(), 'retro-mame-mouse-'));
/** mac128k's ROM files (mame -listroms mac128k), the keyboard MCU's in its device's own set */
const ROMS: [string, string, number][] = [
  ['mac128k', '342-0220-a.u6d', 32768],
  ['mac128k', '342-0221-a.u8d', 32768],
  ['mackbd_m0110', 'ip8021h_2173.bin', 1024],
];
let t: MameTarget;

before(async () => {
  for (const [set, file, size] of ROMS) {
    mkdirSync(join(work, 'roms', set), { recursive: true });
    writeFileSync(join(work, 'roms', set, file), Buffer.alloc(size));
  }
  t = await launchMameTarget(
    { machine: 'mac128k', emulator: 'mame', rompath: join(work, 'roms') },
    { workDir: join(work, 'run') },
  );
});
after(() => t?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Resolves once the machine has drawn `frames` more frames, as its screen counts them: a button reaches its port
 * at a frame (MAME folds digital fields into the port once per frame), and a held position has to outlast some.
 * A stop on the way fails at once (it releases everything held, which is not what is being checked).
 */
async function framesPass(frames: number): Promise<void> {
  const from = (await t.status()).frame!;
  for (;;) {
    const now = await t.status();
    assert.equal(now.state, 'running', `the machine stopped at PC ${now.pc} while frames were awaited`);
    if (now.frame! >= from + frames) return;
    await sleep(10);
  }
}

test('mac128k: a move and a button reach its mouse ports; a stop releases them', { timeout: 120_000 }, async () => {
  const raw = t.features.get(MAME_RAW_FEATURE)!;
  const mouse = t.features.get(MOUSE_FEATURE)!;
  assert.equal(await mouse.unavailable(), undefined, 'mac128k has a mouse');
  const ports = async () => Promise.all([':MOUSE0', ':MOUSE1', ':MOUSE2'].map((p) => raw.readPort(p)));
  await t.resume();
  /** reads [button, x, y] once the machine ran a few frames on what it was given */
  const settled = async () => (await framesPass(3), ports());
  assert.deepEqual(await settled(), [0, 0, 0]);
  const at = (x: number, y: number, buttons = 0) => mouse.point({ x, y, width: 512, height: 342, buttons });
  await at(100, 100);
  await at(110, 105);
  assert.deepEqual(await settled(), [0, 10, 5], 'the move is the port value, and it stays');
  await at(113, 95, 1);
  assert.deepEqual(await settled(), [1, 13, 251], 'y 5 - 10 wraps in the 8-bit field; the button held');
  await at(113, 95, 0);
  assert.deepEqual(await settled(), [0, 13, 251], 'the button let go');

  await new Promise<void>((resolve) => {
    const off = t.onEvent((e) => e.type === 'stopped' && (off(), resolve()));
    void t.pause();
  });
  assert.deepEqual(await ports(), [0, 0, 0], 'a stop releases what the mouse held');
  await t.resume();
  await at(120, 95);
  assert.deepEqual(await settled(), [0, 7, 0], 'after the stop the position starts from 0');
});
