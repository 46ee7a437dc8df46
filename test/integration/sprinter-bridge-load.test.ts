// The Sprinter with the user's own BIOS and no DSS disk (bridgeLoad, docs/sprinter.md): the debugger boots the BIOS
// to a boot point, writes the SDCC-built DSS .EXE at its load address and starts it from its header. "The user's
// BIOS" is the open ROM with no program in it (no copyrighted ROM is used): it waits at 0x0040 once ready, and it
// answers RST 10h, so it stands in both for a BIOS without DSS (dss absent: a DSS call is a typed stop) and for a
// booted system with DSS (dss present: the program runs through its calls). Real MAME 0.276, real SDCC.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { LaunchConfig } from '../../src/core/launch.js';
import type { ClientSession } from '../../src/session/client-session.js';
import { buildSprinterFixture, ownBiosFolder, type SprinterFixture } from '../support/sprinter-fixture.js';
import { buildZxFixture } from '../support/zx-fixture.js';
import { stopSentence } from '../../src/mcp/format.js';

let fx: SprinterFixture;
let rompath: string;
let manager: SessionManager;

before(async () => {
  fx = await buildSprinterFixture();
  rompath = await ownBiosFolder('sprinter-own-bios-');
  manager = new SessionManager({ connectors: CONNECTORS });
});

after(async () => {
  await manager?.closeAll();
  if (rompath) rmSync(rompath, { recursive: true, force: true });
});

function start(bridgeLoad: LaunchConfig['bridgeLoad'], label: string): ClientSession {
  return manager.start(
    { machine: 'sprinter', emulator: 'mame', program: fx.exe, debugInfo: fx.cdb, cwd: fx.dir, rompath, bridgeLoad },
    { kind: 'cli', label },
  );
}

const code = () => readFileSync(fx.exe).subarray(512);

test('without DSS: loaded at the boot point, stopped at main; its first DSS call is a typed stop naming the call', async () => {
  const client = start({}, 'no dss');
  try {
    const st = await client.session.waitForStop(60_000);
    assert.equal(st.phase, 'ready', JSON.stringify(st.error ?? st.progress));
    assert.equal(st.location?.function, 'main');
    assert.deepEqual(
      Buffer.from(await client.session.readMemory({ space: 'cpu', offset: 0x8100 }, code().length)),
      code(),
    );
    const stop = await client.nextStop(30_000, () => client.resume());
    assert.equal(stop.last_stop?.reason, 'exception');
    assert.equal(stop.pc, 0x0010);
    assert.match(stop.last_stop?.why ?? '', /^DSS call 0x5C \(PCHARS\) without DSS: the debugger loaded the program/);
    // MCP's run-control summary leads with it
    assert.match(stopSentence(await client.session.status()), /^DSS call 0x5C \(PCHARS\) without DSS.* Stopped in /);
    // the session lives on: the program's state is there to read
    assert.equal((await client.session.readVariable('total')).value, '0');
  } finally {
    await client.session.stop('test');
  }
});

test('with DSS present: the program runs through its DSS calls, square stops with its parameter; reload loads it again', async () => {
  const client = start({ bootAddress: 0x0040, dss: 'present' }, 'dss present');
  try {
    const st = await client.session.waitForStop(60_000);
    assert.equal(st.phase, 'ready', JSON.stringify(st.error ?? st.progress));
    const bp = await client.setFunctionBreakpoint('square');
    for (const n of [1, 2]) {
      const hit = await client.nextStop(30_000, () => client.resume());
      assert.equal(hit.location?.function, 'square');
      assert.equal((await client.session.readVariable('n')).value, String(n));
    }
    // the program changed its data; a reload boots the BIOS again and writes the program anew
    assert.equal((await client.session.readVariable('total')).value, '1');
    await client.reset('reload');
    const again = await client.session.status();
    assert.equal(again.location?.function, 'main');
    assert.equal((await client.session.readVariable('total')).value, '0');
    const hit = await client.nextStop(30_000, () => client.resume());
    assert.equal((await client.session.readVariable('n')).value, '1');
    assert.equal(hit.last_stop?.breakpoint_ids?.[0], bp.id);
  } finally {
    await client.session.stop('test');
  }
});

test('a boot point the BIOS never reaches fails the launch, saying so; nothing is left running', async () => {
  const client = start({ bootAddress: 0x0041, bootFrames: 20 }, 'bad boot point');
  const st = await client.session.waitForStop(60_000).catch(() => client.session.status());
  assert.equal(st.phase, 'failed');
  assert.equal(st.error?.code, 'launch_failed');
  assert.match(
    st.error?.message ?? '',
    /The BIOS did not reach the boot point 0x0041 within 20 frames .*it was at 0x0040/,
  );
  assert.equal(st.state, 'exited');
});

test('bridgeLoad is for a DSS program: on a machine that loads its program itself it is refused', async () => {
  const zx = await buildZxFixture();
  const client = manager.start(
    { machine: 'spectrum', emulator: 'mame', program: zx.rom, cwd: zx.dir, bridgeLoad: {} },
    { kind: 'cli', label: 'spectrum' },
  );
  const st = await client.session.waitForStop(60_000).catch(() => client.session.status());
  assert.equal(st.phase, 'failed');
  assert.match(
    st.error?.message ?? '',
    /bridgeLoad loads a DSS \.EXE into the Sprinter; the spectrum loads its program/,
  );
});
