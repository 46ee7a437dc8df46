/**
 * "Retro Debug: Diagnostics" on this machine: the versions of the installed emulators and
 * toolchains (as they print them), a tool that is missing said so, a live built-in C64
 * session with its boot log, and the problems the extension logged.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { diagnosticsReport, RecentProblems } from '../../src/host/diagnostics-report.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { mameForMachine } from '../../src/connectors/mame/mame-finder.js';
import { buildC64Fixture } from '../support/c64-fixture.js';

test(
  'the diagnostics report names tool versions, sessions with their log, and the last problems',
  { timeout: 120_000 },
  async () => {
    const fx = await buildC64Fixture();
    const manager = new SessionManager({ connectors: CONNECTORS });
    try {
      const { session } = manager.start(
        { machine: 'c64', emulator: 'builtin', program: fx.prg, cwd: fx.dir, stopOnEntry: true },
        { kind: 'cli', label: 'test' },
      );
      const st = await session.waitForStop(60_000);
      const problems = new RecentProblems(2);
      for (const m of ['first', 'second', 'third']) problems.add('warning', m);
      const report = await diagnosticsReport({ extensionVersion: '9.9.9', manager, problems, connectors: CONNECTORS });
      assert.match(report, /^- Retro Debug 9\.9\.9/m);
      assert.match(report, /^- MAME: 0\.\d+ .*mame$/m);
      assert.match(report, /^- cc65 \(cl65\): cl65 V2\.\d+/m);
      assert.match(report, /^- SDCC: SDCC .* \d+\.\d+\.\d+/m);
      assert.match(report, /^- NASM: NASM version \d+\.\d+/m);
      assert.match(report, /^- DOSBox: DOSBox version \d/m);
      const vice = spawnSync('sh', ['-c', 'command -v x64sc']).status === 0;
      assert.match(report, vice ? /^- VICE x64sc: .*\d+\.\d+.* — x64sc$/m : /^- VICE x64sc: not found on PATH$/m);
      // which MAME runs which driver: the one a launch without mamePath picks; the Sprinter needs >= 0.276
      const mameSection = report.slice(report.indexOf('## mame\n'), report.indexOf('## Sessions'));
      for (const driver of ['spectrum', 'sprinter']) {
        const mame = await mameForMachine({ machine: driver });
        const line = new RegExp(`^- ${driver} runs on (.+) \\(MAME (0\\.\\d+)`, 'm').exec(mameSection);
        assert.equal(line?.[1], mame, `${driver}'s line in:\n${mameSection}`);
        if (driver === 'sprinter') assert.ok(Number(line![2].slice(2)) >= 276, `MAME ${line![2]} runs sprinter`);
        assert.match(mameSection, new RegExp(`^- MAME ${line![2].replace('.', '\\.')}\\S*: ${mame}$`, 'm'));
      }
      assert.match(report, new RegExp(`### ${st.session_id}: c64 in builtin, ready, stopped`));
      assert.match(report, /^ {4}.*main/m, 'the boot log shows the run to main');
      assert.match(report, /warning: second\n- .*warning: third/);
      assert.doesNotMatch(report, /warning: first/);
    } finally {
      await manager.closeAll();
    }
  },
);
