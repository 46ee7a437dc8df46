// The Sprinter live on MAME >= 0.276 (scripts/install-mame.sh) with the project's open ROM: an SDCC program
// (test/fixtures/sprinter, a DSS .EXE) runs to main, stops in a function with its typed parameter, prints through
// the ROM's DSS console (the screen compared pixel for pixel with the text in the ROM's font), echoes a typed key;
// and a machine that runs other code at main's address is refused ("the program was not loaded").
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { ClientSession } from '../../src/session/client-session.js';
import type { SessionApi } from '../../src/session/types.js';
import { parseExeHeader } from '../../src/machines/sprinter/exe-header.js';
import { exeCode, openRomFont } from '../../src/machines/sprinter/open-rom.js';
import { MAME_RAW_FEATURE, type MameRaw } from '../../src/connectors/mame/mame-raw.js';
import { bankPages } from '../../src/connectors/mame/bank-pages.js';
import { decodeMode, modeBytes, textScreen, VRAM_SIZE } from '../../src/machines/sprinter/video.js';
import { FRAME, renderRgba, RESET_STATE } from '../../src/machines/sprinter/render.js';
import { hex } from '../../src/core/hex.js';
import { buildSprinterFixture, ownBiosFolder, type SprinterFixture } from '../support/sprinter-fixture.js';

let fx: SprinterFixture;
let manager: SessionManager;
let client: ClientSession;
let session: SessionApi;

before(async () => {
  fx = await buildSprinterFixture();
  manager = new SessionManager({ connectors: CONNECTORS });
});

after(async () => {
  await manager?.closeAll();
});

/** Runs until the next stop. */
async function resumeToStop(): Promise<Awaited<ReturnType<SessionApi['status']>>> {
  return client.nextStop(30_000, () => client.resume());
}

test('the open ROM loads the EXE and the session stops at main, the program checked in place', async () => {
  client = manager.start(
    { machine: 'sprinter', emulator: 'mame', program: fx.exe, debugInfo: fx.cdb, cwd: fx.dir },
    { kind: 'cli', label: 'sprinter test' },
  );
  session = client.session;
  const st = await session.waitForStop(60_000);
  assert.equal(st.phase, 'ready', JSON.stringify(st.error ?? st.progress));
  assert.equal(st.location?.function, 'main');
  assert.equal(basename(st.location?.file ?? ''), 'main.c');
  const code = readFileSync(fx.exe).subarray(512);
  assert.deepEqual(Buffer.from(await session.readMemory({ space: 'cpu', offset: 0x8100 }, code.length)), code);
});

test('window pages, VRAM and fast RAM are readable; logical addresses are the mapped physical ones', async () => {
  const raw = session.feature<MameRaw>(MAME_RAW_FEATURE);
  // W0 is the ROM, but its port reports the RAM cell (page 0), as on the real machine
  assert.deepEqual(await bankPages(raw), { W0: 0, W1: 5, W2: 2, W3: 0 });
  const { shares } = await raw.listShares();
  assert.equal(shares.find((s) => s.tag === ':vram')?.size, 0x40000);
  assert.equal(shares.find((s) => s.tag === ':fastram')?.size, 0x10000);
  const logical = await session.readMemory({ space: 'cpu', offset: 0x8100 }, 16);
  const physical = await session.readMemory({ space: 'program', offset: 0x18100 }, 16);
  assert.deepEqual(Array.from(logical), Array.from(physical));
});

test('a breakpoint in square stops with its typed parameter and local; the global total adds up', async () => {
  const bp = await client.setFunctionBreakpoint('square');
  assert.equal(bp.verified, true);
  for (const n of [1, 2, 3]) {
    const st = await resumeToStop();
    assert.equal(st.location?.function, 'square');
    assert.deepEqual(
      (await session.readVariable('n')).value,
      String(n),
      `parameter n at hit ${n} (an IX-frame parameter, read from the program's bytes before it was loaded)`,
    );
  }
  assert.equal((await session.readVariable('total')).value, String(1 + 4));
  assert.equal((await session.readVariable('origin.y')).value, '4');
  await client.clearBreakpoint(bp.id);
});

test('a breakpoint on code in a RAM page stops only while that page is mapped: the routine in page 4, not in 3', async () => {
  // page_marker(3) then page_marker(4) each put a RET at 0xC000 of their page in window 3 and call it
  const bp = await client.setAddressBreakpoint({ space: 'cpu', offset: 0xc000, bank: '4' });
  const st = await resumeToStop();
  assert.equal(st.pc, 0xc000);
  assert.deepEqual(await bankPages(session.feature<MameRaw>(MAME_RAW_FEATURE)), { W0: 0, W1: 5, W2: 2, W3: 4 });
  assert.equal(st.last_stop?.breakpoint_ids?.[0], bp.id);
  await client.clearBreakpoint(bp.id);
  await assert.rejects(
    client.setAddressBreakpoint({ space: 'cpu', offset: 0xc000, bank: 'x' }),
    /not a Sprinter RAM page/,
  );
});

/** The text the ROM's font draws for `lines` at the top left of the 640x256 picture, as RGBA rows. */
function expectedText(lines: string[], width: number, x0: number, y0: number) {
  const font = openRomFont();
  return (x: number, y: number): boolean | undefined => {
    const col = Math.floor((x - x0) / 8);
    const row = Math.floor((y - y0) / 8);
    if (x < x0 || y < y0 || row >= lines.length || col >= width) return undefined;
    const ch = lines[row].charCodeAt(col) || 0x20;
    return ((font[ch * 8 + ((y - y0) % 8)] << ((x - x0) % 8)) & 0x80) !== 0;
  };
}

test('what the program prints through the ROM is on the screen, pixel for pixel, and a typed key is echoed', async () => {
  const keyLine = fx.markers.key.line;
  const bp = await client.setLineBreakpoint(fx.sources[0], keyLine);
  await resumeToStop();
  const lines = ['RETRO DEBUG ON SPRINTER', 'TOTAL 30', 'PRESS A KEY'];
  // at a stop MAME shows its last completed frame: let the program wait for a key until a frame shows the text
  await client.clearBreakpoint(bp.id);
  await client.resume();
  // the top left pixel of the P of PRESS, the last line printed
  const drawn = (img: { rgba: Buffer; width: number }) => img.rgba[(32 * img.width + 49) * 4] === 0xe0;
  let shot = await session.screenshot();
  for (const end = Date.now() + 20_000; !drawn(shot); shot = await session.screenshot())
    assert.ok(Date.now() < end, 'no frame with the text');
  // the 640x256 picture starts at (48, 16); 80 columns of 8 pixels
  const ink = expectedText(lines, 80, 48, 16);
  let checked = 0;
  for (let y = 16; y < 16 + 8 * lines.length; y++)
    for (let x = 48; x < 48 + 8 * 24; x++) {
      const on = ink(x, y);
      if (on === undefined) continue;
      const at = (y * shot.width + x) * 4;
      const rgb = [shot.rgba[at], shot.rgba[at + 1], shot.rgba[at + 2]];
      assert.deepEqual(rgb, on ? [0xe0, 0xe0, 0xe0] : [0x10, 0x20, 0x60], `pixel (${x}, ${y})`);
      checked++;
    }
  assert.ok(checked > 4000);
  const typed = await client.typeKeys([{ char: 'q' }]);
  assert.equal(typed.typed, 1);
  // the echo: "GOT q" on the fourth line, drawn in the ROM's font
  const echo = expectedText([...lines, 'GOT q'], 80, 48, 16);
  const shows = (img: { rgba: Buffer; width: number }) => {
    for (let y = 40; y < 48; y++)
      for (let x = 48; x < 48 + 5 * 8; x++)
        if ((img.rgba[(y * img.width + x) * 4] === 0xe0) !== echo(x, y)) return false;
    return true;
  };
  for (const end = Date.now() + 20_000; !shows(shot); shot = await session.screenshot())
    assert.ok(Date.now() < end, 'the program never echoed the key');
  await client.nextStop(10_000, () => client.pause());
  assert.equal((await session.readVariable('echoed')).value, '1');
});

test("the picture decoded from VRAM (src/machines/sprinter/render.ts) is MAME's own frame, pixel for pixel", async () => {
  const frame = await session.screenshot(); // paused in the key loop: nothing on screen changes any more
  const vram = new Uint8Array(VRAM_SIZE);
  for (let at = 0; at < VRAM_SIZE; at += 0x10000)
    vram.set(await session.readMemory({ space: 'vram', offset: at }, 0x10000), at);
  assert.equal(textScreen(vram)[3], 'GOT q');
  assert.deepEqual(decodeMode(modeBytes(vram, 0, 0)), {
    kind: 'text',
    char: 'R'.charCodeAt(0),
    attrRow: 0,
    fontBlock: 0,
    columns: 80,
  });
  // MAME draws text with the flash pens while bit 4 of its frame counter is set
  const ours = renderRgba(vram, { ...RESET_STATE, flash: ((frame.frame ?? 0) & 0x10) !== 0 });
  assert.deepEqual([frame.width, frame.height], [FRAME.width, FRAME.height]);
  let differ = 0;
  for (let i = 0; i < ours.length; i += 4)
    if (ours[i] !== frame.rgba[i] || ours[i + 1] !== frame.rgba[i + 1] || ours[i + 2] !== frame.rgba[i + 2]) {
      differ++;
    }
  assert.equal(differ, 0, `${differ} pixels differ`);
});

test('a machine that reaches main with other code there fails "the program was not loaded", nothing left running', async () => {
  const file = readFileSync(fx.exe);
  const header = parseExeHeader(file.subarray(0, 512));
  const other = Buffer.from(file);
  const main = parseInt(/L:G\$main\$0\$0:([0-9A-F]+)/.exec(readFileSync(fx.cdb, 'utf8'))![1], 16);
  other[512 + (main - header.load) + 8] ^= 0xff; // past main's entry: the other build still gets there
  // a BIOS of ours that carries another build of the program: it runs to the same main with other bytes there;
  // its folder's name holds a ';', which MAME's -rompath cannot take as it is (found only through the staged link)
  const rompath = await ownBiosFolder('sprinter-other; roms-', exeCode(other, header, 'other'));
  try {
    const other2 = new SessionManager({ connectors: CONNECTORS });
    try {
      const { session: s } = other2.start(
        { machine: 'sprinter', emulator: 'mame', program: fx.exe, debugInfo: fx.cdb, cwd: fx.dir, rompath: [rompath] },
        { kind: 'cli', label: 'other code' },
      );
      const st = await s.waitForStop(60_000).catch(() => s.status());
      assert.equal(st.phase, 'failed');
      assert.equal(st.error?.code, 'launch_failed');
      assert.match(
        st.error?.message ?? '',
        new RegExp(`The program was not loaded: the machine reached ${hex(main)}, but the bytes there are not`),
      );
      assert.equal(st.state, 'exited');
    } finally {
      await other2.closeAll();
    }
  } finally {
    rmSync(rompath, { recursive: true, force: true });
  }
});
