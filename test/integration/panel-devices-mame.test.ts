/**
 * The screen panel on a second machine, real MAME running the SDCC-built ZX fixture (fill_screen(0x55, 0x38)):
 * the inspector names the display-file byte and the attribute under the pointer with the values the Spectrum
 * holds there, a click's address is that byte, and the devices the panel offers say why there is no mouse
 * (the spectrum driver has no mouse fields) and no joystick mapping (the C64's only).
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { SessionManager } from '../../src/session/manager.js';
import { ScreenController } from '../../src/ui/screen-controller.js';
import type { HostMessage } from '../../src/ui/screen-messages.js';
import { buildZxFixture } from '../support/zx-fixture.js';

const manager = new SessionManager({ connectors: CONNECTORS, workDir: mkdtempSync(join(tmpdir(), 'retro-panel-')) });
after(() => manager.closeAll());

async function until<T>(what: string, ms: number, probe: () => T | undefined): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = probe();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error(`no ${what} in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('ZX Spectrum in MAME: inspector facts from memory, no mouse and why', { timeout: 180_000 }, async () => {
  const fx = await buildZxFixture();
  const client = manager.start(
    { machine: 'spectrum', emulator: 'mame', program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir, stopOnEntry: true },
    { kind: 'cli', label: 'panel devices test' },
  );
  const { session } = client;
  await session.waitForStop(120_000);
  await client.resume();
  await new Promise((r) => setTimeout(r, 1500)); // fill_screen has run
  await client.pause();
  const posted: HostMessage[] = [];
  const panel = new ScreenController({ sessions: manager, post: (m) => void posted.push(m), timeoutMs: 30_000 });
  try {
    await panel.handleMessage({ type: 'ready' });
    const raw = await until('frame', 60_000, () => posted.find((m) => m.type === 'raw'));
    assert.deepEqual(raw.type === 'raw' && [raw.width, raw.height], [352, 296]);
    const devices = await until('devices', 30_000, () => posted.find((m) => m.type === 'devices'));
    if (devices.type !== 'devices') return assert.fail('devices');
    assert.equal(devices.mouse, false);
    assert.match(devices.mouseUnavailable ?? '', /"spectrum" has no mouse/);
    assert.match(devices.joystickUnavailable ?? '', /no "joystick" feature/);
    assert.equal(devices.spriteOutlines, false);

    // paper pixel (100, 77): display-file byte $4D2C bit 3, attribute $592C
    await panel.handleMessage({ type: 'inspect', x: 48 + 100, y: 48 + 77 });
    const found = await until('inspection', 30_000, () => posted.find((m) => m.type === 'inspect'));
    if (found.type !== 'inspect') return assert.fail('inspect');
    const [bits] = await session.readMemory({ space: 'cpu', offset: 0x4d2c }, 1);
    const [attr] = await session.readMemory({ space: 'cpu', offset: 0x592c }, 1);
    assert.deepEqual([bits, attr], [0x55, 0x38], 'the fixture filled the screen');
    assert.deepEqual(found.lines, [
      'pixel 148, 125',
      'cell 12, 9',
      'bitmap $4D2C = $55 (bit 3 paper)',
      'attribute $592C = $38',
      'ink 0 (black), paper 7 (white), bright 0, flash 0',
    ]);
    assert.equal(found.reference, '0x4D2C', 'a click opens the display-file byte');

    posted.length = 0;
    await panel.handleMessage({ type: 'take-control' });
    await panel.handleMessage({ type: 'pointer', x: 10, y: 10, buttons: 1 });
    const refused = await until('refusal', 10_000, () => posted.find((m) => m.type === 'status'));
    assert.match(refused.type === 'status' ? refused.message : '', /"spectrum" has no mouse/);
  } finally {
    await panel.handleMessage({ type: 'release-control' });
    panel.dispose();
  }
});
