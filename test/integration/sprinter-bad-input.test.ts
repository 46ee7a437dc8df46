// Bad input on the Sprinter (MAME >= 0.276, real MAME and the SDCC-built test program): a rompath without the
// BIOS or with a wrong-size ROM, an EXE with a bad header, disk images MAME 0.276 would take silently (a garbage
// CHD, a raw image of no whole sectors), a floppy MAME refuses. Each ends the session with a clear launch_failed
// naming the file and what to do, and no MAME of this process is left running. A good raw disk image is mounted
// (checked through MAME's image slots) and the session reaches main.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { LaunchConfig } from '../../src/core/launch.js';
import { mameForMachine } from '../../src/connectors/mame/mame-finder.js';
import { OPEN_ROM_FILE } from '../../src/machines/sprinter/open-rom.js';
import { buildSprinterFixture, type SprinterFixture } from '../support/sprinter-fixture.js';

let fx: SprinterFixture;
let dir: string;
let listed: { name: string; size: number }[];

before(async () => {
  fx = await buildSprinterFixture();
  dir = mkdtempSync(join(tmpdir(), 'sprinter-bad-'));
  const mame = await mameForMachine({ machine: 'sprinter' });
  listed = [...execFileSync(mame, ['-listroms', 'sprinter'], { encoding: 'utf8' }).matchAll(/^(\S+)\s+(\d+)\s/gm)].map(
    (m) => ({ name: m[1], size: Number(m[2]) }),
  );
});

after(() => rmSync(dir, { recursive: true, force: true }));

/** Processes this test process started that are still there (MAME runs as our direct child: sh execs it), but
 * tsx's esbuild service, which lives as long as the test process. */
function ourChildren(): string[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        return ppid === process.pid && name !== 'esbuild' ? [`${pid} ${name}`] : [];
      } catch {
        return []; // gone meanwhile
      }
    });
}

/** Starts a session that must fail at launch; returns its message once it ended and nothing of it runs. */
async function failure(config: Partial<LaunchConfig>): Promise<string> {
  const manager = new SessionManager({ connectors: CONNECTORS });
  try {
    const base = { machine: 'sprinter', emulator: 'mame', program: fx.exe, debugInfo: fx.cdb, cwd: fx.dir } as const;
    const { session } = manager.start({ ...base, ...config } as LaunchConfig, { kind: 'cli', label: 'bad input' });
    const st = await session.waitForStop(60_000).catch(() => session.status());
    assert.deepEqual([st.phase, st.state, st.error?.code], ['failed', 'exited', 'launch_failed'], st.error?.message);
    assert.deepEqual(ourChildren(), [], 'no MAME (or other child) is left running');
    return st.error!.message;
  } finally {
    await manager.closeAll();
  }
}

/** A rompath holding the sprinter set's files (zero-filled: MAME only warns about checksums), `bios` as given. */
function romFolder(name: string, bios?: Uint8Array): string {
  const set = join(dir, name, 'sprinter');
  mkdirSync(set, { recursive: true });
  for (const rom of listed)
    if (!rom.name.startsWith('sp2k-')) writeFileSync(join(set, rom.name), new Uint8Array(rom.size));
  if (bios) writeFileSync(join(set, OPEN_ROM_FILE), bios);
  return join(dir, name);
}

test('a rompath without the Sprinter BIOS: the file, its size and the open ROM named', async () => {
  const message = await failure({ rompath: romFolder('no-bios') });
  assert.match(
    message,
    new RegExp(`^${OPEN_ROM_FILE} \\(262144 bytes\\) is not in the rompath \\(looked in .*no-bios`),
  );
  assert.match(
    message,
    /the Sprinter BIOS: put your dump of it there, or leave rompath out to run the project's open ROM/,
  );
});

test('a BIOS of the wrong size: the path, its size and the size MAME needs', async () => {
  const rompath = romFolder('short-bios', new Uint8Array(1000));
  const message = await failure({ rompath });
  const path = join(rompath, 'sprinter', OPEN_ROM_FILE);
  assert.ok(message.startsWith(`${path} is 1000 bytes, but MAME's sprinter needs 262144 bytes`), message);
});

test('a Beta Disk ROM missing from a rompath that has the BIOS', async () => {
  const rompath = romFolder('no-trd', new Uint8Array(262144));
  const trd = listed.find((r) => r.name.startsWith('trd'))!;
  rmSync(join(rompath, 'sprinter', trd.name));
  const message = await failure({ rompath });
  assert.match(message, new RegExp(`^${trd.name} \\(16384 bytes\\) is not in the rompath.*a Beta Disk ROM`));
});

test('an EXE with a bad header: the file, the reason and how to build a DSS .EXE', async () => {
  const exe = join(dir, 'BAD.EXE');
  writeFileSync(exe, Buffer.concat([Buffer.from('MZ'), readFileSync(fx.exe).subarray(2)]));
  const message = await failure({ program: exe });
  assert.match(message, /BAD\.EXE is not a DSS program: .*"EXE".* Build it as a DSS \.EXE: a 512-byte header/);
});

test('a garbage .chd (MAME 0.276 would mount it): not a CHD, with how to make one', async () => {
  const chd = join(dir, 'disk.chd');
  writeFileSync(chd, Buffer.alloc(1000, 'z'));
  const message = await failure({ media: { hard1: chd } });
  assert.match(message, /^The hard1 image .*disk\.chd is not a CHD \(it does not start with "MComprHD"\): .*chdman/);
});

test('a raw hard disk image of no whole sectors', async () => {
  const hdv = join(dir, 'disk.hdv');
  writeFileSync(hdv, Buffer.alloc(1000, 'z'));
  const message = await failure({ media: { hard1: hdv } });
  assert.match(message, /^The hard1 image .*disk\.hdv is 1000 bytes, no raw hard disk image: .*512-byte sectors/);
});

test('a floppy image MAME refuses ends MAME; its reason and the file are said, nothing left running', async () => {
  const trd = join(dir, 'disk.trd');
  writeFileSync(trd, Buffer.alloc(1000, 'z'));
  const message = await failure({ media: { flop1: trd } });
  assert.match(
    message,
    /^MAME could not load a media image \(flop1 = .*disk\.trd\): .*Unable to identify image file format/,
  );
});

test('a good raw disk image is mounted (MAME says so through its image slots) and the program reaches main', async () => {
  const hdv = join(dir, 'good.hdv');
  writeFileSync(hdv, new Uint8Array(512 * 128));
  const manager = new SessionManager({ connectors: CONNECTORS });
  try {
    const { session } = manager.start(
      { machine: 'sprinter', emulator: 'mame', program: fx.exe, debugInfo: fx.cdb, cwd: fx.dir, media: { hard1: hdv } },
      { kind: 'cli', label: 'good disk' },
    );
    const st = await session.waitForStop(60_000);
    assert.equal(st.phase, 'ready', JSON.stringify(st.error));
    assert.equal(st.location?.function, 'main');
  } finally {
    await manager.closeAll();
  }
  assert.deepEqual(ourChildren(), [], 'the ended session left no MAME');
});
