/**
 * The MAME target against real MAME 0.251 running our SDCC-built ZX Spectrum ROM.
 * Addresses come from the fixture's .cdb (a tiny local lookup; the real parser
 * lives in src/debuginfo), lines from the /* LINE:name *\/ markers in its sources.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { RetroError } from '../../src/core/errors.js';
import type { StopInfo, TargetEvent } from '../../src/core/target.js';
import { launchMameTarget, MameTarget } from '../../src/connectors/mame/mame-target.js';
import { buildZxFixture, REPO_ROOT, type ZxFixture } from '../support/zx-fixture.js';

const WORK_DIR = join(REPO_ROOT, '.test-work', 'mame-target');
const STOP_TIMEOUT_MS = 20_000;

/** Function and line addresses from SDCC's .cdb `L:` records. */
class CdbAddresses {
  private readonly functions = new Map<string, number>();
  private readonly lines: Array<{ file: string; line: number; addr: number }> = [];

  constructor(text: string) {
    for (const rec of text.split('\n')) {
      let m = /^L:G\$(\w+)\$[^:]*:([0-9A-Fa-f]+)$/.exec(rec.trim());
      if (m) this.functions.set(m[1], parseInt(m[2], 16));
      m = /^L:C\$([^$]+)\$(\d+)\$[^:]*:([0-9A-Fa-f]+)$/.exec(rec.trim());
      if (m) this.lines.push({ file: m[1], line: Number(m[2]), addr: parseInt(m[3], 16) });
    }
    this.lines.sort((a, b) => a.addr - b.addr);
  }

  fn(name: string): number {
    const a = this.functions.get(name);
    assert.ok(a !== undefined, `no function ${name} in the .cdb`);
    return a;
  }

  /** [first, last] addresses of the code of one source line (its first block). */
  lineRange(file: string, line: number): [number, number] {
    const i = this.lines.findIndex((l) => l.file === file && l.line === line);
    assert.ok(i >= 0, `no code for ${file}:${line}`);
    const first = this.lines[i].addr;
    const next = this.lines.find((l) => l.addr > first);
    assert.ok(next, `no code after ${file}:${line}`);
    return [first, next.addr - 1];
  }
}

function nextStop(t: MameTarget, timeoutMs = STOP_TIMEOUT_MS): Promise<StopInfo> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no stop within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = t.onEvent((e: TargetEvent) => {
      if (e.type === 'stopped') {
        clearTimeout(timer);
        off();
        resolve(e.stop);
      }
    });
  });
}

async function pc(t: MameTarget): Promise<number> {
  return (await t.readRegisters()).find((r) => r.name === 'PC')!.value;
}

async function register(t: MameTarget, name: string): Promise<number> {
  const r = (await t.readRegisters()).find((x) => x.name === name);
  assert.ok(r, `no register ${name}`);
  return r.value;
}

async function rejectsWith(p: Promise<unknown>, code: string, messagePart?: RegExp): Promise<RetroError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof RetroError, `expected RetroError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    if (messagePart) assert.match(err.message, messagePart);
    return err;
  }
  assert.fail(`expected a ${code} error`);
}

/** Run from the current stop to `addr` with a temporary breakpoint. */
async function runTo(t: MameTarget, addr: number): Promise<StopInfo> {
  const id = await t.setBreakpoint({ space: 'cpu', offset: addr });
  const stop = nextStop(t);
  await t.resume();
  const s = await stop;
  await t.clearBreakpoint(id);
  assert.equal(s.pc, addr);
  return s;
}

/** Address of the first `call nn` (0xCD) to `target` inside [first, last]. */
async function findCall(t: MameTarget, [first, last]: [number, number], target: number): Promise<number> {
  const code = await t.readMemory({ space: 'cpu', offset: first }, last - first + 1);
  for (let i = 0; i + 2 < code.length; i++) {
    if (code[i] === 0xcd && (code[i + 1] | (code[i + 2] << 8)) === target) return first + i;
  }
  assert.fail(`no call to 0x${target.toString(16)} in 0x${first.toString(16)}..0x${last.toString(16)}`);
}

describe('MAME target on the ZX Spectrum fixture', { timeout: 240_000 }, () => {
  let fx: ZxFixture;
  let cdb: CdbAddresses;
  let t: MameTarget;
  const events: TargetEvent[] = [];
  const progress: string[] = [];
  const line = (marker: string): [string, number] => {
    const m = fx.markers[marker];
    assert.ok(m, `marker ${marker} missing`);
    return [basename(m.file), m.line];
  };

  before(async () => {
    fx = await buildZxFixture();
    cdb = new CdbAddresses(await readFile(fx.cdb, 'utf8'));
    t = await launchMameTarget(
      { machine: 'spectrum', emulator: 'mame', program: fx.rom },
      { workDir: WORK_DIR, onProgress: (m) => progress.push(m) },
    );
    t.onEvent((e) => events.push(e));
  });

  after(async () => {
    await t?.close();
  });

  test('starts held at entry, PC 0, CPU z80', async () => {
    assert.equal(t.kind, 'mame');
    assert.equal(t.info.cpu, 'z80');
    assert.ok(progress.some((p) => p.startsWith('starting MAME')));
    assert.ok(progress.includes('bridge connected'));
    const s = await t.status();
    assert.equal(s.state, 'stopped');
    assert.equal(s.pc, 0);
    assert.equal(s.lastStop?.reason, 'entry');
  });

  test('reads the whole ROM back byte for byte', async () => {
    const rom = await readFile(fx.rom);
    const mem = await t.readMemory({ space: 'cpu', offset: 0 }, rom.length);
    assert.equal(Buffer.compare(Buffer.from(mem), rom), 0);
    const tail = await t.readMemory({ space: 'program', offset: 0xfff0 }, 16);
    assert.equal(tail.length, 16);
  });

  test('writes RAM and reads it back; writes a register and reads it back', async () => {
    const data = Uint8Array.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0x7f]);
    await t.writeMemory({ space: 'cpu', offset: 0x9000 }, data);
    assert.deepEqual(Array.from(await t.readMemory({ space: 'cpu', offset: 0x9000 }, data.length)), Array.from(data));
    await t.writeRegister('HL', 0x1234);
    assert.equal(await register(t, 'HL'), 0x1234);
  });

  test('a breakpoint at main is hit with the right PC and a sane SP', async () => {
    const main = cdb.fn('main');
    const id = await t.setBreakpoint({ space: 'cpu', offset: main });
    assert.deepEqual(
      (await t.listBreakpoints()).map((b) => [b.id, b.address.offset]),
      [[id, main]],
    );
    const stop = nextStop(t);
    await t.resume();
    const s = await stop;
    assert.equal(s.reason, 'breakpoint');
    assert.equal(s.pc, main);
    assert.equal(s.breakpointId, id);
    assert.equal(await pc(t), main);
    assert.equal(await register(t, 'SP'), 0xff00 - 2, 'crt0 sets SP to 0xFF00 and calls _main');
    await t.clearBreakpoint(id);
    assert.deepEqual(await t.listBreakpoints(), []);
    await rejectsWith(t.clearBreakpoint(id), 'not_found');
  });

  test('step into, step out and step over around calls', async () => {
    const fill = cdb.fn('fill_screen');
    const callFill = await findCall(t, cdb.lineRange(...line('fill_call')), fill);
    await runTo(t, callFill);
    const sp = await register(t, 'SP');

    let stop = nextStop(t);
    await t.stepInstruction();
    let s = await stop;
    assert.equal(s.reason, 'step');
    assert.equal(s.pc, fill, 'step into the call lands at fill_screen');
    assert.equal(await register(t, 'SP'), sp - 2);

    stop = nextStop(t);
    await t.stepOut();
    s = await stop;
    assert.equal(s.reason, 'step');
    assert.equal(s.pc, callFill + 3, 'step out returns after the call');
    assert.equal(await register(t, 'SP'), sp);

    const draw = cdb.fn('draw');
    const callDraw = await findCall(t, cdb.lineRange(...line('call_draw')), draw);
    await runTo(t, callDraw);
    stop = nextStop(t);
    await t.stepOver();
    s = await stop;
    assert.equal(s.reason, 'step');
    assert.equal(s.pc, callDraw + 3, 'step over runs the whole call');
  });

  test('step_range leaves the range, stops early at a breakpoint, and is bounded', async () => {
    const loop = cdb.lineRange(...line('loop_body'));
    const callDrawLine = cdb.lineRange(...line('call_draw'));
    await runTo(t, loop[0]);

    let stop = nextStop(t);
    await t.stepRange([loop], 'over');
    let s = await stop;
    assert.equal(s.reason, 'step');
    assert.equal(s.pc, callDrawLine[0], 'counter++ line steps to the next line');

    stop = nextStop(t);
    await t.stepRange([callDrawLine], 'into');
    s = await stop;
    assert.equal(s.reason, 'step');
    assert.equal(s.pc, cdb.fn('draw'), 'stepping into the call_draw line enters draw');

    await runTo(t, loop[0]);
    const second = loop[0] + 3; // ld a,(_counter) is 3 bytes; a breakpoint on the next instruction
    const id = await t.setBreakpoint({ space: 'cpu', offset: second });
    stop = nextStop(t);
    await t.stepRange([loop], 'over');
    s = await stop;
    assert.equal(s.reason, 'breakpoint');
    assert.equal(s.pc, second);
    assert.equal(s.breakpointId, id);
    await t.clearBreakpoint(id);

    // The whole main loop (its last line calls shade) as one range: only the bound can end it.
    const loopEnd = cdb.lineRange(...line('call_shade'))[1] + 2;
    stop = nextStop(t);
    await t.stepRange(
      [
        [loop[0], loopEnd],
        [cdb.fn('plot'), 0x3fff],
      ],
      'over',
      40,
    );
    s = await stop;
    assert.equal(s.reason, 'step');
    const now = await pc(t);
    assert.ok(now >= loop[0] && now <= loopEnd, `still in the loop at 0x${now.toString(16)}`);
  });

  test('pause while running stops with reason pause; status says running before', async () => {
    await t.resume();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await t.status()).state, 'running');
    const stop = nextStop(t);
    await t.pause();
    const s = await stop;
    assert.equal(s.reason, 'pause');
    const st = await t.status();
    assert.equal(st.state, 'stopped');
    assert.equal(st.pc, s.pc);
    assert.ok((st.frame ?? 0) > 0, 'frames ran');
    const counter = (await t.readMemory({ space: 'cpu', offset: 0x8000 }, 1))[0];
    const total = await t.readMemory({ space: 'cpu', offset: 0x8001 }, 2);
    assert.ok(counter !== 0 || total[0] !== 0 || total[1] !== 0, 'the loop ran');
    const running = events.filter((e) => e.type === 'running').length;
    assert.ok(running >= 5, `running events seen: ${running}`);
  });

  test('the screen shows the fill pattern: paper/ink alternating, border around it', async () => {
    const img = await t.screenshot();
    assert.equal(img.width, 352);
    assert.equal(img.height, 296);
    assert.equal(img.rgba.length, 352 * 296 * 4);
    assert.equal(img.maybeStale, true);
    const px = (x: number, y: number) =>
      Array.from(img.rgba.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4));
    const paper = [0xbf, 0xbf, 0xbf, 0xff]; // attribute 0x38: white paper, black ink
    const ink = [0x00, 0x00, 0x00, 0xff];
    for (let x = 48; x < 48 + 16; x++) assert.deepEqual(px(x, 48), (x - 48) % 2 === 0 ? paper : ink, `pixel ${x},48`);
    assert.deepEqual(px(0, 0), paper, 'border');
    const vram = await t.readMemory({ space: 'vram', offset: 0 }, 6912);
    assert.equal(vram[0], 0x55);
    assert.equal(vram[6144], 0x38);
  });

  test('bad addresses and sizes give the right codes and the target keeps answering', async () => {
    await rejectsWith(t.readMemory({ space: 'cpu', offset: 0xffff }, 2), 'bad_address');
    await rejectsWith(t.readMemory({ space: 'cpu', offset: 0x10000 }, 1), 'bad_address');
    await rejectsWith(t.readMemory({ space: 'cpu', offset: 0 }, 2 * 1024 * 1024), 'too_large');
    await rejectsWith(t.readMemory({ space: 'cpu', offset: -1 }, 1), 'bad_request');
    await rejectsWith(t.readMemory({ space: 'share', bank: ':nope', offset: 0 }, 1), 'bad_address');
    await rejectsWith(t.writeRegister('NOPE', 1), 'bad_request');
    await rejectsWith(t.setBreakpoint({ space: 'io', offset: 0xfe }), 'unsupported');
    await rejectsWith(t.stepRange([[5, 1]], 'over'), 'bad_request');
    const s = await t.status();
    assert.equal(s.state, 'stopped');
    assert.equal((await t.readMemory({ space: 'io', offset: 0xfefe }, 1)).length, 1);
  });

  test('step while running is refused with not_stopped', async () => {
    await t.resume();
    await rejectsWith(t.stepInstruction(), 'not_stopped');
    const stop = nextStop(t);
    await t.pause();
    assert.equal((await stop).reason, 'pause');
  });

  test('a resume runs on through PC 0: the next stop is the breakpoint, not the reset vector', async () => {
    // an RST 0 in free RAM, run from there: PC 0 (crt0) comes next, then main
    await t.writeMemory({ space: 'cpu', offset: 0x9000 }, Uint8Array.from([0xc7]));
    await t.writeRegister('PC', 0x9000);
    const main = cdb.fn('main');
    const id = await t.setBreakpoint({ space: 'cpu', offset: main });
    const stop = nextStop(t);
    await t.resume();
    const s = await stop;
    await t.clearBreakpoint(id);
    assert.deepEqual([s.reason, s.pc], ['breakpoint', main]);
  });

  test('close ends MAME: exited event, then target_lost', async () => {
    const exited = new Promise<TargetEvent>((resolve) =>
      t.onEvent((e) => {
        if (e.type === 'exited') resolve(e);
      }),
    );
    await t.close();
    const e = await exited;
    assert.equal(e.type, 'exited');
    assert.equal((e as { code?: number }).code, 0);
    assert.equal((await t.status()).state, 'exited');
    await rejectsWith(t.readRegisters(), 'target_lost');
    await rejectsWith(t.resume(), 'target_lost');
    await t.close(); // idempotent
  });
});

describe('MAME dying under the target', { timeout: 120_000 }, () => {
  test('a killed MAME gives an exited event and target_lost for pending and later requests', async () => {
    const fx = await buildZxFixture();
    const t = await launchMameTarget({ machine: 'spectrum', emulator: 'mame', program: fx.rom }, { workDir: WORK_DIR });
    try {
      const exited = new Promise<TargetEvent>((resolve) =>
        t.onEvent((e) => {
          if (e.type === 'exited') resolve(e);
        }),
      );
      await t.resume();
      // Sent just before the kill: either answered first, or failed as target_lost, never left hanging.
      const pending = t.readRegisters().then(
        () => 'answered',
        (err: RetroError) => err.code,
      );
      process.kill(t.pid!, 'SIGKILL');
      const e = await exited;
      assert.match((e as { reason: string }).reason, /SIGKILL/);
      assert.ok(['answered', 'target_lost'].includes(await pending));
      await rejectsWith(t.readRegisters(), 'target_lost');
      await rejectsWith(t.pause(), 'target_lost');
    } finally {
      await t.close();
    }
  });
});

describe('MAME launch failures', { timeout: 120_000 }, () => {
  test('a missing MAME executable is launch_failed naming the path', async () => {
    const fx = await buildZxFixture();
    await rejectsWith(
      launchMameTarget(
        { machine: 'spectrum', emulator: 'mame', program: fx.rom, mamePath: '/nonexistent/mame' },
        { workDir: WORK_DIR },
      ),
      'launch_failed',
      /\/nonexistent\/mame/,
    );
  });

  test('a machine name MAME does not know is refused with its close matches', async () => {
    const fx = await buildZxFixture();
    await rejectsWith(
      launchMameTarget({ machine: 'spectrun', emulator: 'mame', media: { cart: fx.rom } }, { workDir: WORK_DIR }),
      'launch_failed',
      /^MAME does not know the machine "spectrun"\. Close matches: .*spectrum \(ZX Spectrum\)/,
    );
  });

  test('with a program too, the unknown machine is what is refused (checked before the program is staged)', async () => {
    const fx = await buildZxFixture();
    await rejectsWith(
      launchMameTarget({ machine: 'spectrun', emulator: 'mame', program: fx.rom }, { workDir: WORK_DIR }),
      'launch_failed',
      /^MAME does not know the machine "spectrun"\. Close matches: .*spectrum \(ZX Spectrum\)/,
    );
  });

  test('a missing program file is launch_failed naming the path', async () => {
    await rejectsWith(
      launchMameTarget(
        { machine: 'spectrum', emulator: 'mame', program: '/nonexistent/game.rom' },
        { workDir: WORK_DIR },
      ),
      'launch_failed',
      /\/nonexistent\/game\.rom/,
    );
  });

  test('MAME exiting at start (no ROM) is launch_failed carrying its output', async () => {
    const err = await rejectsWith(
      launchMameTarget({ machine: 'spectrum', emulator: 'mame' }, { workDir: WORK_DIR }),
      'launch_failed',
      /exited during start-up/,
    );
    assert.match(err.message, /spectrum\.rom|required files/i);
  });
});
