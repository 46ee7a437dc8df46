/**
 * Attaching to emulators we did not launch: a DOSBox 0.74 the test starts
 * itself with a plain conf of its own (none of our options, no calibration
 * line) is found by PID with its programs and its screen; the VGA buffer of
 * the embedded DOSBox-X is found by content alone (the BIOS ROM font in its
 * plane 2) at the very place calibration finds it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildDosFixtures, ToolDriver, until, type DosFixtures } from '../support/dos-fixture.js';
import { wasmAvailable } from '../../src/connectors/dosbox/wasm-launcher.js';
import { launchDosboxTarget } from '../../src/connectors/dosbox/launcher.js';
import { findVgaByFont } from '../../src/connectors/dosbox/vga.js';

delete process.env.DISPLAY;

let fx: DosFixtures;
before(async () => {
  fx = await buildDosFixtures();
});

describe('attach by PID to a DOSBox started without our options', () => {
  const d = new ToolDriver();
  let child: ChildProcess | undefined;
  after(async () => {
    await d.close();
    child?.kill();
  });

  it('finds its guest, its programs and its screen', { timeout: 60_000 }, async () => {
    const home = mkdtempSync(join(tmpdir(), 'dos-attach-'));
    const conf = join(home, 'plain.conf');
    await writeFile(conf, `[autoexec]\nmount c "${dirname(fx.programs.keyecho.com)}"\nc:\nKEYECHO\n`);
    child = spawn('dosbox', ['-conf', conf], {
      env: { PATH: process.env.PATH, HOME: home, SDL_VIDEODRIVER: 'dummy', SDL_AUDIODRIVER: 'dummy' },
      stdio: 'ignore',
    });
    let attached: Record<string, any> = {};
    await until(
      'KEYECHO in the attached guest',
      async () => {
        const r = await d.raw('dosbox_attach', { pid: child!.pid });
        if (r.isError) return false;
        attached = r.structuredContent as Record<string, any>;
        if ((attached.programs as { name: string }[]).some((p) => p.name === 'KEYECHO')) return true;
        await d.call('stop_session', { session_id: attached.session_id }).catch(() => undefined);
        return false;
      },
      20_000,
    );
    assert.equal(attached.int21_live, true);
    assert.ok(attached.vga, 'the screen was located');
    await until('the banner on screen', async () =>
      ((await d.call('dosbox_read_screen', { session_id: attached.session_id })).lines as string[]).some((l) =>
        l.includes('KEYECHO test program'),
      ),
    );
    await d.call('stop_session', { session_id: attached.session_id }).catch(() => undefined);
  });
});

describe(
  'the VGA buffer of DOSBox-X by content',
  { skip: wasmAvailable() ? false : 'optional npm package "emulators" not installed' },
  () => {
    it('is where calibration puts it, with the odd/even text layout', { timeout: 90_000 }, async () => {
      const workDir = mkdtempSync(join(tmpdir(), 'dos-font-'));
      const t = await launchDosboxTarget(
        { emulator: 'dosbox', machine: 'dos', program: fx.programs.keyecho.com, dos: { backend: 'wasm-dosbox-x' } },
        { workDir },
      );
      try {
        const calibrated = (await t.machine.screen()).where;
        const byFont = await findVgaByFont(t.machine.guest.host, t.machine.guest);
        assert.ok(byFont, 'found by the font');
        assert.equal(byFont.address, calibrated.address);
        assert.equal(byFont.stride, calibrated.stride);
      } finally {
        await t.close();
      }
    });
  },
);
