// The comparison harness's device-8 part: test/fixtures/c64/drive8 (a cc65
// program: stdio read and write, a TGI driver loaded from the drive, the
// status of a failed open on channel 15) run from a host folder on the
// built-in C64 and on a real x64sc (X64SC; its file-system device 8 on a
// folder, -fs8), or against the results recorded once from x64sc r46200
// (C64_DRIVE8_RECORD=1 with X64SC rewrites them): the bytes it leaves at
// $0340 and the file it wrote.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';

const X64SC = process.env.X64SC;
const DIR = join(REPO_ROOT, 'test', 'fixtures', 'c64', 'drive8');
const RECORDED = join(DIR, 'vice-results.json');
const TGI_DRIVER = '/usr/share/cc65/target/c64/drv/tgi/c64-hi.tgi';

const manager = new SessionManager({ connectors: CONNECTORS, leaseMs: 60_000 });
after(() => manager.closeAll());

interface Results {
  memory: number[];
  written: number[];
}

async function run(emulator: 'builtin' | 'vice', built: string): Promise<Results> {
  const folder = mkdtempSync(join(tmpdir(), `c64-drive8-${emulator}-`));
  copyFileSync(join(built, 'program.prg'), join(folder, 'drive8.prg'));
  copyFileSync(TGI_DRIVER, join(folder, 'c64-hi.tgi'));
  writeFileSync(join(folder, 'greeting.txt'), Buffer.from('HELLO DRIVE\r', 'latin1'));
  const dap = manager.start(
    {
      machine: 'c64',
      emulator,
      program: join(folder, 'drive8.prg'),
      debugInfo: join(built, 'program.dbg'),
      cwd: folder,
      ...(emulator === 'vice'
        ? { vicePath: X64SC, extraArgs: ['+drive8truedrive', '-busdevice8', '-devicebackend8', '1', '-fs8', folder] }
        : { drive8: folder }),
    },
    { kind: 'dap', label: `drive8-${emulator}` },
  );
  const beat = setInterval(() => dap.beat(), 500);
  try {
    await dap.session.waitForStop(60_000);
    await dap.resume();
    const deadline = Date.now() + 60_000;
    while ((await dap.session.readMemory({ space: 'cpu', bank: 'ram', offset: 0x02a7 }, 1))[0] !== 0x5a) {
      if (Date.now() > deadline) assert.fail(`${emulator}: the device-8 program did not finish`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const memory = [...(await dap.session.readMemory({ space: 'cpu', bank: 'ram', offset: 0x0340 }, 26))];
    return { memory, written: [...readFileSync(join(folder, 'written.txt'))] };
  } finally {
    clearInterval(beat);
    dap.close();
  }
}

test('device 8 from a folder: reads, a write, a TGI driver and channel 15 as on VICE', async () => {
  const built = await buildCc65Program(DIR, ['drive8.c']);
  const ours = await run('builtin', built);
  let theirs: Results;
  if (X64SC) {
    theirs = await run('vice', built);
    if (process.env.C64_DRIVE8_RECORD === '1') writeFileSync(RECORDED, JSON.stringify(theirs) + '\n');
  } else theirs = JSON.parse(readFileSync(RECORDED, 'utf8'));
  const text = (bytes: number[]) => String.fromCharCode(...bytes.filter((b) => b >= 0x20 && b < 0x80));
  console.log(
    `drive8: built-in ${JSON.stringify(ours)} "${text(ours.memory.slice(10))}"\n` +
      `        VICE     ${JSON.stringify(theirs)} "${text(theirs.memory.slice(10))}"`,
  );
  assert.deepEqual(ours.memory.slice(0, 9), theirs.memory.slice(0, 9), 'the bytes read from greeting.txt');
  assert.equal(ours.memory[9], theirs.memory[9], 'tgi_geterror after loading the driver from the drive');
  assert.deepEqual(ours.memory.slice(10), theirs.memory.slice(10), "channel 15's status after a failed open");
  assert.deepEqual(ours.written, theirs.written, 'the file the program wrote');
});
