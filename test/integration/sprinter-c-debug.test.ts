// C debugging on the Sprinter (MAME >= 0.276, the project's open ROM) as on the Spectrum: a line breakpoint, steps
// into and out of a function, a C condition, a logpoint, a data breakpoint on a global; and bank-aware
// memory: a RAM page read while another page is in its window.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { ClientSession } from '../../src/session/client-session.js';
import type { SessionApi, SessionEvent } from '../../src/session/types.js';
import { MAME_RAW_FEATURE, type MameRaw } from '../../src/connectors/mame/mame-raw.js';
import { bankPages } from '../../src/connectors/mame/bank-pages.js';
import { textScreen, VRAM_SIZE } from '../../src/machines/sprinter/video.js';
import { buildSprinterFixture, type SprinterFixture } from '../support/sprinter-fixture.js';

let fx: SprinterFixture;
let manager: SessionManager;
let client: ClientSession;
let session: SessionApi;
const events: SessionEvent[] = [];

before(async () => {
  fx = await buildSprinterFixture();
  manager = new SessionManager({ connectors: CONNECTORS });
  client = manager.start(
    { machine: 'sprinter', emulator: 'mame', program: fx.exe, debugInfo: fx.cdb, cwd: fx.dir },
    { kind: 'cli', label: 'sprinter C debugging' },
  );
  session = client.session;
  session.onEvent((q) => events.push(q.event));
  const st = await session.waitForStop(60_000);
  assert.equal(st.phase, 'ready', JSON.stringify(st.error ?? st.progress));
});

after(async () => {
  await manager?.closeAll();
});

const num = async (expression: string) => (await session.readVariable(expression)).numeric!;
const resumeToStop = () => client.nextStop(30_000, () => client.resume());

test('a line breakpoint in the loop, a step into square with its parameter, a step out back to main', async () => {
  const loop = fx.markers.loop;
  const bp = await client.setLineBreakpoint(loop.file, loop.line);
  assert.equal(bp.verified, true, bp.message);
  let st = await resumeToStop();
  assert.equal(st.location?.line, loop.line);
  assert.equal(await num('i'), 1);
  await client.clearBreakpoint(bp.id);
  st = await client.nextStop(30_000, () => client.stepInto());
  assert.equal(st.location?.function, 'square');
  assert.equal(await num('n'), 1);
  st = await client.nextStop(30_000, () => client.stepOver());
  assert.equal(st.location?.function, 'square');
  assert.equal(await num('result'), 1, 'the local after its line ran');
  st = await client.nextStop(30_000, () => client.stepOut());
  assert.equal(st.location?.function, 'main');
});

test('a condition on the parameter stops at n == 3 only; a logpoint in the loop logs i and total without stopping', async () => {
  const sq = await client.setFunctionBreakpoint('square', 'n == 3');
  assert.equal(sq.verified, true, sq.message);
  const log = await client.setLineBreakpoint(fx.markers.loop.file, fx.markers.loop.line, undefined, {
    logMessage: 'i={i} total={total}',
  });
  assert.equal(log.verified, true, log.message);
  const start = events.length;
  const st = await resumeToStop();
  assert.deepEqual(st.last_stop?.breakpoint_ids, [sq.id]);
  assert.equal(await num('n'), 3);
  const logs = events.slice(start).flatMap((e) => (e.type === 'logpoint' ? [e.text] : []));
  assert.deepEqual(logs, ['i=2 total=1', 'i=3 total=5']);
  await client.clearBreakpoint(sq.id);
  await client.clearBreakpoint(log.id);
});

test('a data breakpoint on the global total stops when square(3) is added, at its logical address', async () => {
  const where = await session.locateLvalue('total');
  const wp = await client.setWatchpoint({
    address: { space: 'cpu', offset: where.address },
    length: where.length,
    kind: 'write',
  });
  const st = await resumeToStop();
  assert.equal(st.last_stop?.reason, 'watchpoint');
  assert.equal(st.location?.function, 'main');
  assert.equal(await num('total'), 1 + 4 + 9);
  const hit = session.listWatchpoints().find((w) => w.id === wp.id)!;
  assert.equal(hit.hit_count, 1);
  assert.ok(
    hit.last_hit?.address !== undefined && hit.last_hit.address - where.address < where.length,
    `the access at ${hit.last_hit?.address} names total's logical address ${where.address}`,
  );
  await client.clearWatchpoint(wp.id);
});

test('a RAM page is read through its page number while another page is in the window', async () => {
  const m = fx.markers.page_write;
  const bp = await client.setLineBreakpoint(m.file, m.line);
  let st = await resumeToStop(); // page_marker(3): page 3 in W3, its RET written
  st = await resumeToStop(); // page_marker(4)
  assert.equal(st.location?.line, m.line);
  assert.deepEqual(st.last_stop?.pages, { W1: 5, W2: 2, W3: 4 }, 'the stop names the pages it was in');
  await client.clearBreakpoint(bp.id);
  const raw = session.feature<MameRaw>(MAME_RAW_FEATURE);
  assert.equal((await bankPages(raw))?.W3, 4);
  // page 3's 0xC000 holds RET, 0x43 (page_marker wrote both); page 4 has only its RET so far
  assert.deepEqual([...(await session.readMemory({ space: 'cpu', bank: 3, offset: 0xc000 }, 2))], [0xc9, 0x43]);
  assert.equal((await session.readMemory({ space: 'cpu', bank: 4, offset: 0xc000 }, 1))[0], 0xc9);
  assert.equal((await session.readMemory({ space: 'cpu', offset: 0xc000 }, 1))[0], 0xc9);
});

test('typed keys reach the program through the ROM key call: a capital, a letter and a digit, each echoed once', async () => {
  const { key, echo } = fx.markers;
  let bp = await client.setLineBreakpoint(key.file, key.line);
  await resumeToStop(); // in the key loop, before the first key
  await client.clearBreakpoint(bp.id);
  bp = await client.setLineBreakpoint(echo.file, echo.line);
  // a capital: caps shift is let go after the letter, which is then the same key in lower case, not a new one
  for (const [k, char] of ['H', 'i', '5'].entries()) {
    assert.equal((await client.typeKeys([{ char }])).typed, 1); // queued while stopped, pressed once it runs
    const st = await resumeToStop(); // in echo, once for each key
    assert.equal(st.location?.line, echo.line);
    assert.equal(await num('c'), char.charCodeAt(0));
    assert.equal(await num('echoed'), k);
  }
  await client.clearBreakpoint(bp.id);
  bp = await client.setLineBreakpoint(key.file, key.line);
  await resumeToStop(); // back in the loop after the last echo
  assert.equal(await num('echoed'), 3);
  await client.clearBreakpoint(bp.id);
  const vram = new Uint8Array(VRAM_SIZE);
  for (let at = 0; at < VRAM_SIZE; at += 0x10000)
    vram.set(await session.readMemory({ space: 'vram', offset: at }, 0x10000), at);
  assert.deepEqual(textScreen(vram).slice(3, 6), ['GOT H', 'GOT i', 'GOT 5']);
});
