// The Sprinter machine. Debian's MAME 0.251 has no `sprinter` driver, so here a
// sprinter launch must fail early and say what to do; the live path runs only
// where a newer MAME with the driver is named (the one allowed skip), e.g.
//   RETRO_SPRINTER_MAME=/opt/mame/mame RETRO_SPRINTER_ROMPATH=/opt/mame/roms \
//   RETRO_SPRINTER_HDD=sp_hdd_sys.chd RETRO_SPRINTER_EXE=HELLO.EXE RETRO_SPRINTER_CDB=hello.cdb npm test
// (HELLO.EXE must be on the disk image and started by DSS, e.g. from AUTOEXEC).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { resolveMamePath } from '../../src/connectors/mame/launcher.js';
import { mameHasDriver } from '../../src/connectors/mame/driver-check.js';
import { mameForMachine } from '../../src/connectors/mame/mame-finder.js';
import { MAME_RAW_FEATURE, type MameRaw } from '../../src/connectors/mame/mame-raw.js';
import { bankPages } from '../../src/connectors/mame/bank-pages.js';

function exeFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sprinter-live-'));
  const h = Buffer.alloc(513);
  h.write('EXE', 0, 'latin1');
  h.writeUInt32LE(512, 4);
  h.writeUInt16LE(0x8100, 0x10);
  h.writeUInt16LE(0x8100, 0x12);
  h.writeUInt16LE(0xbfff, 0x14);
  h[512] = 0xc9;
  writeFileSync(join(dir, 'HELLO.EXE'), h);
  return join(dir, 'HELLO.EXE');
}

/** A MAME that lists no sprinter driver, as Debian 12's 0.251 answers -listfull sprinter. */
function mameWithoutSprinter(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'old-mame-')), 'mame');
  writeFileSync(path, '#!/bin/sh\necho "Name:             Description:"\nexit 0\n', { mode: 0o755 });
  return path;
}

test('a sprinter launch on a MAME without the driver fails at once, saying which MAME is needed', async () => {
  const mame = mameWithoutSprinter();
  assert.equal(await mameHasDriver(mame, 'sprinter'), false);
  const manager = new SessionManager({ connectors: CONNECTORS });
  try {
    const { session } = manager.start(
      { machine: 'sprinter', emulator: 'mame', mamePath: mame, program: exeFile() },
      { kind: 'cli', label: 'test' },
    );
    const st = await session.waitForStop(30_000).catch(() => session.status());
    assert.equal(st.phase, 'failed');
    assert.equal(st.error?.code, 'incompatible_target');
    assert.match(st.error?.message ?? '', /no "sprinter" driver.*scripts\/setup\.sh.*mamePath/s);
  } finally {
    await manager.closeAll();
  }
});

test('without mamePath, sprinter runs on a MAME that has the driver (setup installs one) and spectrum keeps the first', async () => {
  const sprinter = await mameForMachine({ machine: 'sprinter' });
  assert.equal(await mameHasDriver(sprinter, 'sprinter'), true, `${sprinter} lists sprinter`);
  assert.equal(await mameForMachine({ machine: 'spectrum' }), resolveMamePath({}));
});

const live = {
  mame: process.env.RETRO_SPRINTER_MAME,
  rompath: process.env.RETRO_SPRINTER_ROMPATH,
  hdd: process.env.RETRO_SPRINTER_HDD,
  exe: process.env.RETRO_SPRINTER_EXE,
  cdb: process.env.RETRO_SPRINTER_CDB,
};

// The real route needs a user's own BIOS and DSS disk, which nobody may ship: it is registered only where they are
// given (test/integration/sprinter-open-rom.test.ts runs the same checks on the open ROM in every run).
const realRoute = live.mame && live.hdd && live.exe ? test : undefined;
realRoute?.(
  'live Sprinter, own BIOS: DSS runs the EXE to main (checked in place); pages, VRAM, fast RAM read',
  async () => {
    assert.ok(await mameHasDriver(live.mame!, 'sprinter'), `${live.mame} has no sprinter driver`);
    const manager = new SessionManager({ connectors: CONNECTORS });
    try {
      const { session } = manager.start(
        {
          machine: 'sprinter',
          emulator: 'mame',
          mamePath: live.mame,
          rompath: live.rompath,
          program: live.exe,
          debugInfo: live.cdb,
          media: { hard1: live.hdd! },
        },
        { kind: 'cli', label: 'test' },
      );
      const st = await session.waitForStop(180_000);
      assert.equal(st.phase, 'ready', JSON.stringify(st.error));
      if (live.cdb) assert.equal(st.location?.function, 'main');
      const raw = session.feature<MameRaw>(MAME_RAW_FEATURE);
      const pages = await bankPages(raw);
      assert.ok(pages && [pages.W1, pages.W2, pages.W3].every((p) => p >= 0 && p <= 0xff));
      const { shares } = await raw.listShares();
      assert.equal(shares.find((s) => s.tag === ':vram')?.size, 0x40000);
      assert.equal(shares.find((s) => s.tag === ':fastram')?.size, 0x10000);
      const logical = await session.readMemory({ space: 'cpu', offset: 0x8100 }, 16);
      const physical = await session.readMemory({ space: 'program', offset: 0x18100 }, 16);
      assert.deepEqual(Array.from(logical), Array.from(physical), 'logical A is raw 0x10000 + A at reset translation');
    } finally {
      await manager.closeAll();
    }
  },
);
