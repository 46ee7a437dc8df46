// The VIC-II half of the comparison harness: scenes of our own
// (test/fixtures/c64/vic, cc65 and ca65, compiled at test time) for each
// display mode, fine scroll and the 38/24 modes, the VIC bank, sprites and a
// raster split, run on the built-in and compared pixel by pixel over the
// inner 320x200 with real VICE's picture: live when X64SC names an x64sc
// (C64_VIC_RECORD=1 then rewrites the references), else the reference PNGs
// captured once from x64sc r46200 (-default), committed beside the scenes.
// Both pictures come through the session's capture, which finds the inner
// area where it is drawn (VICE and the built-in draw line L at row L-1).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { SessionManager } from '../../src/session/manager.js';
import { launchBuiltinTarget } from '../../src/connectors/builtin-c64/launcher.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { ScreenImage } from '../../src/core/target.js';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';
import { runOn } from '../support/c64-compare.js';

const X64SC = process.env.X64SC;
const RECORD = X64SC && process.env.C64_VIC_RECORD === '1';
const SCENES = join(REPO_ROOT, 'test', 'fixtures', 'c64', 'vic');
const REFERENCE = join(SCENES, 'reference');
const WIDTH = 320;
const HEIGHT = 200;

/** scene → its sources and the pixels it may differ by (0: the mode is drawn as VICE draws it) */
const BUDGETS: Record<string, { files: string[]; pixels: number }> = {
  text: { files: ['text.c'], pixels: 0 },
  mctext: { files: ['mctext.c'], pixels: 0 },
  ecm: { files: ['ecm.c'], pixels: 0 },
  hires: { files: ['hires.c'], pixels: 0 },
  mcbitmap: { files: ['mcbitmap.c'], pixels: 0 },
  invalid: { files: ['invalid.c'], pixels: 0 },
  scroll: { files: ['scroll.c'], pixels: 0 },
  bank: { files: ['bank.c'], pixels: 0 },
  sprites: { files: ['sprites.c'], pixels: 0 },
  raster: { files: ['raster.c', 'rasterirq.s'], pixels: 0 },
};

const manager = new SessionManager({ connectors: CONNECTORS, leaseMs: 60_000 });
after(() => manager.closeAll());

/** Runs the scene until it set its done flag ($02A7 = $5A), lets 5 frames pass, stops and captures. */
async function capture(emulator: 'builtin' | 'vice', prg: string): Promise<{ frame: ScreenImage; seen: number[] }> {
  return runOn(manager, emulator, prg, async (dap) => {
    const deadline = Date.now() + 60_000;
    const flag = { space: 'cpu', bank: 'ram', offset: 0x02a7 } as const;
    while ((await dap.session.readMemory(flag, 1))[0] !== 0x5a) {
      if (Date.now() > deadline) assert.fail(`${emulator}: the scene did not finish`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 300));
    await dap.pause();
    const seen = [...(await dap.session.readMemory({ space: 'cpu', bank: 'ram', offset: 0x02a8 }, 2))];
    return { frame: await dap.session.screenshot(), seen };
  });
}

/** The inner 320x200 of a capture's visible area (32 pixels of border left, 35 above). */
function inner(c: ScreenImage): Buffer {
  const out = Buffer.alloc(WIDTH * HEIGHT * 4);
  for (let y = 0; y < HEIGHT; y++) {
    const from = ((35 + y) * c.width + 32) * 4;
    c.rgba.copy(out, y * WIDTH * 4, from, from + WIDTH * 4);
  }
  return out;
}

function differing(a: Buffer, b: Buffer): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) n++;
  return n;
}

async function reference(name: string, prg: string): Promise<{ pixels: Buffer; seen?: number[] }> {
  const file = join(REFERENCE, `${name}.png`);
  if (X64SC) {
    const { frame, seen } = await capture('vice', prg);
    const pixels = inner(frame);
    if (RECORD) {
      mkdirSync(REFERENCE, { recursive: true });
      const png = new PNG({ width: WIDTH, height: HEIGHT });
      pixels.copy(png.data);
      writeFileSync(file, PNG.sync.write(png));
      writeFileSync(join(REFERENCE, `${name}.seen.json`), JSON.stringify(seen) + '\n');
    }
    return { pixels, seen };
  }
  assert.ok(existsSync(file), `no reference picture ${file}: record it with X64SC=… C64_VIC_RECORD=1`);
  const seenFile = join(REFERENCE, `${name}.seen.json`);
  return {
    pixels: PNG.sync.read(readFileSync(file)).data,
    seen: existsSync(seenFile) ? JSON.parse(readFileSync(seenFile, 'utf8')) : undefined,
  };
}

for (const [name, budget] of Object.entries(BUDGETS)) {
  test(`VIC-II scene ${name}: at most ${budget.pixels} of 64000 inner pixels differ from VICE`, async () => {
    const prg = join(await buildCc65Program(SCENES, budget.files), 'program.prg');
    const theirs = await reference(name, prg);
    const { frame, seen } = await capture('builtin', prg);
    assert.equal(frame.source, 'last-frame', 'the built-in captures the last completed frame');
    const off = differing(inner(frame), theirs.pixels);
    console.log(`vic scene ${name}: ${off} pixels differ from VICE`);
    assert.ok(off <= budget.pixels, `${name}: ${off} pixels differ (budget ${budget.pixels})`);
    if (name === 'sprites' && theirs.seen) assert.deepEqual(seen, theirs.seen, 'collision registers $D01E/$D01F');
  });
}

test('captures say which picture they are: last-frame by default, memory-now on request', async () => {
  const prg = join(await buildCc65Program(SCENES, BUDGETS.text.files), 'program.prg');
  const target = await launchBuiltinTarget({ machine: 'c64', emulator: 'builtin', program: prg, cwd: join(prg, '..') });
  try {
    await target.run!.resume();
    const deadline = Date.now() + 30_000;
    while ((await target.memory.read({ space: 'cpu', bank: 'ram', offset: 0x02a7 }, 1))[0] !== 0x5a) {
      if (Date.now() > deadline) assert.fail('the scene did not finish');
      await new Promise((r) => setTimeout(r, 50));
    }
    await target.run!.pause();
    const last = await target.screen!.capture();
    const now = await target.screen!.capture({ source: 'memory-now' });
    assert.equal(last.source, 'last-frame');
    assert.equal(now.source, 'memory-now');
    assert.equal(differing(inner(now), inner(last)), 0, 'a still picture: memory now is the last frame');
  } finally {
    await target.close();
  }
});
