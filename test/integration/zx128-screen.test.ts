/**
 * The ZX Spectrum 128K's two screens on real MAME 0.251 (`spec128`), through
 * the screen panel's logic against a real session. A hand-assembled Z80
 * program in ROM pages RAM page 7 in at $C000, fills it red, shows it (port
 * $7FFD bit 3), then moves on phase by phase: page 0 at $C000 with the shadow
 * screen still shown, the normal screen, and the port locked (bit 5) before a
 * write it must ignore. Frames while running are MAME's own picture, so they
 * show the shadow screen; the inspector names the screen shown and its bytes:
 * CPU addresses when paged in, else RAM page 7 and its offset (in the RAM
 * device: the click's address either way), from the driver's own latch (a write the lock refused changes nothing).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { memoryReference, parseMemoryReference } from '../../src/core/memory-reference.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { ScreenController } from '../../src/ui/screen-controller.js';
import type { HostMessage } from '../../src/ui/screen-messages.js';
import { wholeFrames } from '../support/panel-posts.js';

const work = mkdtempSync(join(tmpdir(), 'retro-zx128-'));
const manager = new SessionManager({ connectors: CONNECTORS, workDir: work });
after(() => manager.closeAll());

// Hand-assembled, each piece at its address (checked: no gaps, no overlaps). WAIT runs D x 65536 loops of 26 T
// (~0.48 s each): after each port write the stop comes once MAME drew the new picture, not within the same frame.
// prettier-ignore
const PIECES: [number, string][] = [
  [0x0000, 'F3' + '3100BF'],                                     // di | ld sp,$BF00 (page 2: stays while $C000 changes)
  [0x0004, '210040' + '110140' + '01FF17' + '3600' + 'EDB0'],    // normal bitmap $4000-$57FF = $00
  [0x0011, '210058' + '110158' + '01FF02' + '3638' + 'EDB0'],    // attributes = $38: white paper, so all white
  [0x001E, '01FD7F' + '3E07' + 'ED79'],                          // out ($7FFD),$07: page 7 at $C000
  [0x0025, '2100C0' + '1101C0' + '01FF17' + '36FF' + 'EDB0'],    // shadow bitmap $C000-$D7FF = $FF (all ink)
  [0x0032, '2100D8' + '1101D8' + '01FF02' + '3602' + 'EDB0'],    // attributes = $02: red ink, so all red
  [0x003F, '01FD7F' + '3E0F' + 'ED79'],                          // $0F: show the shadow screen, page 7 at $C000
  [0x0046, '1604' + 'CD8000'],                                   // ld d,4 | call WAIT: ~2 s of frames showing it
  [0x004B, '00'],                                                // SHADOW_PAGED
  [0x004C, '01FD7F' + '3E08' + 'ED79' + '1601' + 'CD8000'],      // $08: page 0 at $C000, the shadow screen shown
  [0x0058, '00'],                                                // SHADOW_UNPAGED
  [0x0059, '01FD7F' + '3E07' + 'ED79' + '1601' + 'CD8000'],      // $07: the normal screen, page 7 at $C000
  [0x0065, '00'],                                                // NORMAL
  [0x0066, '01FD7F' + '3E28' + 'ED79' + '3E0F' + 'ED79'],        // $28: shadow, page 0, locked; then $0F, ignored
  [0x0071, '1601' + 'CD8000'],
  [0x0076, '00'],                                                // LOCKED
  [0x0077, '18FE' + '00'.repeat(7)],                             // jr $
  [0x0080, '010000' + '0B' + '78' + 'B1' + '20FB' + '15' + '20F5' + 'C9'], // WAIT: ld bc,0 | dec bc .. jr nz | dec d | jr nz | ret
];
const STOPS = { shadowPaged: 0x4b, shadowUnpaged: 0x58, normal: 0x65, locked: 0x76 };

function assemble(pieces: [number, string][]): Buffer {
  const parts = pieces.map(([at, hex]) => ({ at, bytes: Buffer.from(hex, 'hex') }));
  parts.reduce((next, p) => {
    assert.equal(p.at, next, `piece at $${p.at.toString(16)} follows on`);
    return p.at + p.bytes.length;
  }, 0);
  return Buffer.concat(parts.map((p) => p.bytes));
}

/** Paper pixel (100, 77) in MAME's 352x296 frame: bitmap offset $0D2C, attribute offset $192C. */
const POINT = { x: 148, y: 125 };

function until<T>(find: () => T | undefined, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const poll = () => {
      const found = find();
      if (found !== undefined) return resolve(found);
      if (Date.now() > deadline) return reject(new Error(`${what} within ${ms} ms`));
      setTimeout(poll, 50);
    };
    poll();
  });
}

type Raw = Extract<HostMessage, { type: 'raw' }>;

/** 'red', 'white' or 'other': the colour every pixel of the 256x192 paper has, else 'mixed'. */
function paperColour(m: Pick<Raw, 'width' | 'rgba' | 'pixels' | 'palette'>): string {
  const rgb = (i: number): [number, number, number] => {
    if (m.rgba) return [m.rgba[i * 4], m.rgba[i * 4 + 1], m.rgba[i * 4 + 2]];
    const p = m.pixels![i] * 3;
    return [m.palette![p], m.palette![p + 1], m.palette![p + 2]];
  };
  const seen = new Set<string>();
  for (let y = 48; y < 48 + 192; y++) for (let x = 48; x < 48 + 256; x++) seen.add(rgb(y * m.width + x).join(','));
  if (seen.size !== 1) return 'mixed';
  const [r, g, b] = [...seen][0].split(',').map(Number);
  if (r > 0x80 && g < 0x40 && b < 0x40) return 'red';
  if (r > 0x80 && r === g && g === b) return 'white';
  return `other (${r},${g},${b})`;
}

test('spec128: frames show the shadow screen; the inspector names the screen shown', { timeout: 240_000 }, async () => {
  const rom = join(work, 'shadow.rom');
  writeFileSync(rom, assemble(PIECES));
  const posted: HostMessage[] = [];
  const whole = wholeFrames();
  const controller = new ScreenController({ sessions: manager, post: (m) => posted.push(whole(m)), timeoutMs: 30_000 });
  await controller.handleMessage({ type: 'ready' });
  const client = manager.start(
    { machine: 'spec128', emulator: 'mame', program: rom, stopOnEntry: true },
    { kind: 'cli', label: 'zx128 test' },
  );
  try {
    await client.whenReady(120_000);
    await client.session.waitForStop(60_000);
    const frames = () => posted.filter((m): m is Raw => m.type === 'raw');
    await until(() => frames()[0], 30_000, 'a frame at entry');

    const inspect = async () => {
      const n = posted.length;
      await controller.handleMessage({ type: 'inspect', ...POINT });
      const m = posted.slice(n).find((p) => p.type === 'inspect');
      if (m?.type !== 'inspect') return assert.fail('an inspect answer');
      return m;
    };
    /** Runs to `address`; MAME's picture at that stop. */
    const runTo = async (address: number) => {
      const bp = await client.setAddressBreakpoint({ space: 'cpu', offset: address });
      const stop = await client.nextStop(60_000, () => client.resume());
      await client.clearBreakpoint(bp.id);
      assert.equal(stop.pc, address);
      return client.session.screenshot();
    };

    // (a) frames while running: MAME's picture of page 7 once bit 3 is set
    const first = frames().length;
    const atShadow = await runTo(STOPS.shadowPaged);
    const running = frames()
      .slice(first)
      .filter((f) => !f.maybeStale);
    assert.ok(
      running.some((f) => paperColour(f) === 'red'),
      `a running frame shows the red shadow screen: ${running.map(paperColour).join(' ')}`,
    );
    assert.equal(paperColour(atShadow), 'red');

    // (b) the inspector: page 7 paged in at $C000: CPU addresses, the click opens the bitmap byte
    let r = await inspect();
    assert.deepEqual(r.lines, [
      'pixel 148, 125',
      'cell 12, 9',
      'shadow screen (page 7, $7FFD = $0F): at $C000',
      'bitmap $CD2C = $FF (bit 3 ink)',
      'attribute $D92C = $02',
      'ink 2 (red), paper 0 (black), bright 0, flash 0',
    ]);
    assert.equal(r.reference, memoryReference({ space: 'cpu', offset: 0xcd2c }));

    // page 0 at $C000, shadow still shown: RAM page 7 and its offset, the click opens the RAM device's byte; a byte
    // written at $CD2C now lands in page 0, so the picture and the inspector stay as they were
    assert.equal(paperColour(await runTo(STOPS.shadowUnpaged)), 'red');
    await client.writeMemory({ space: 'cpu', offset: 0xcd2c }, Uint8Array.of(0x5a));
    assert.deepEqual([...(await client.session.readMemory({ space: 'cpu', offset: 0xcd2c }, 1))], [0x5a]);
    r = await inspect();
    assert.deepEqual(r.lines.slice(2), [
      'shadow screen (page 7, $7FFD = $08): not paged in (page 0 at $C000): RAM page 7 offsets',
      'bitmap page 7 + $0D2C = $FF (bit 3 ink)',
      'attribute page 7 + $192C = $02',
      'ink 2 (red), paper 0 (black), bright 0, flash 0',
    ]);
    const ram = { space: 'share', bank: ':ram/0/m_pointer', offset: 7 * 0x4000 + 0x0d2c } as const;
    assert.equal(r.reference, memoryReference(ram));
    // what the memory view is opened on, read back as it is
    assert.deepEqual([...(await client.session.readMemory(parseMemoryReference(r.reference), 1))], [0xff]);

    // the normal screen, page 7 still at $C000
    assert.equal(paperColour(await runTo(STOPS.normal)), 'white');
    r = await inspect();
    assert.deepEqual(r.lines.slice(2, 5), [
      'normal screen (page 5, $7FFD = $07): at $4000',
      'bitmap $4D2C = $00 (bit 3 paper)',
      'attribute $592C = $38',
    ]);
    assert.equal(r.reference, memoryReference({ space: 'cpu', offset: 0x4d2c }));

    // locked with the shadow screen shown: the later $0F is ignored by the machine, and so by the inspector
    assert.equal(paperColour(await runTo(STOPS.locked)), 'red');
    r = await inspect();
    assert.equal(
      r.lines[2],
      'shadow screen (page 7, $7FFD = $28, locked): not paged in (page 0 at $C000): RAM page 7 offsets',
    );
    assert.equal(r.reference, memoryReference(ram));
  } finally {
    controller.dispose();
    client.close();
  }
});
