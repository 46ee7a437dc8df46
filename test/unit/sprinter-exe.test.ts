import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pagesNeeded, parseExeHeader, pspLayout, windowsForLoad } from '../../src/machines/sprinter/exe-header.js';
import { diskProgram } from '../../src/connectors/mame/disk-program.js';
import { RetroError } from '../../src/core/errors.js';

/** A header as z88dk's pps_crt0 writes it: version 0, code at 512, load = start = 0x8100, stack 0xBFFF. */
function header(
  fields: { version?: number; offset?: number; loader?: number; load?: number; start?: number; stack?: number } = {},
): Buffer {
  const h = Buffer.alloc(512);
  h.write('EXE', 0, 'latin1');
  h[3] = fields.version ?? 0;
  h.writeUInt32LE(fields.offset ?? 512, 4);
  h.writeUInt16LE(fields.loader ?? 0, 8);
  h.writeUInt16LE(fields.load ?? 0x8100, 0x10);
  h.writeUInt16LE(fields.start ?? 0x8100, 0x12);
  h.writeUInt16LE(fields.stack ?? 0xbfff, 0x14);
  return h;
}

test('parses the fields of a DSS EXE header', () => {
  assert.deepEqual(parseExeHeader(header()), {
    version: 0,
    codeOffset: 512,
    loaderSize: 0,
    load: 0x8100,
    start: 0x8100,
    stack: 0xbfff,
  });
  const sdk = parseExeHeader(header({ version: 1, load: 0x4100, start: 0x4123, stack: 0xfffe, loader: 0x300 }));
  assert.deepEqual([sdk.version, sdk.load, sdk.start, sdk.stack, sdk.loaderSize], [1, 0x4100, 0x4123, 0xfffe, 0x300]);
});

test('refuses what is not an EXE, with a reason', () => {
  const bad = (b: Buffer, re: RegExp) =>
    assert.throws(
      () => parseExeHeader(b),
      (e) => e instanceof RetroError && e.code === 'bad_request' && re.test(e.message),
    );
  bad(Buffer.from('MZ\x90\x00'), /at least 22 bytes/);
  const mz = header();
  mz.write('MZ!', 0, 'latin1');
  bad(mz, /does not start with "EXE"/);
  bad(header({ offset: 4 }), /inside its header/);
  bad(header({ load: 0x80 }), /PSP/);
});

test('pages needed and the windows the block maps into follow DSS EXEC', () => {
  const h = parseExeHeader(header());
  assert.equal(pagesNeeded(h, 512 + 0x3f00), 1); // 0x100 + 0x3F00 = exactly one page
  assert.equal(pagesNeeded(h, 512 + 0x3f01), 2);
  assert.deepEqual(windowsForLoad(0x8100), [2, 3]);
  assert.deepEqual(windowsForLoad(0x4100), [1, 2, 3]);
  assert.deepEqual(windowsForLoad(0xc000), [3]);
  assert.deepEqual(pspLayout(0x8100), { commandLine: 0x8080, taskId: 0x807f, blockId: 0x807e, fileHandle: 0x807d });
});

test('a sprinter launch checks the EXE instead of staging it as a ROM; other machines are not disk-loaded', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sprinter-exe-'));
  writeFileSync(join(dir, 'HELLO.EXE'), Buffer.concat([header(), Buffer.from([0xc9])]));
  writeFileSync(join(dir, 'junk.exe'), Buffer.from('not an exe at all, really'));
  assert.equal((await diskProgram('sprinter', join(dir, 'HELLO.EXE')))?.header.start, 0x8100);
  await assert.rejects(
    diskProgram('sprinter', join(dir, 'junk.exe')),
    (e) => e instanceof RetroError && e.code === 'launch_failed' && /not a DSS program/.test(e.message),
  );
  assert.equal(await diskProgram('spectrum', join(dir, 'junk.exe')), undefined);
});

test("a sprinter launch takes SDCC's Intel HEX as the .EXE retro-debug exe writes from it", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sprinter-ihx-'));
  // ld a,1 / ret at 0x8100
  writeFileSync(join(dir, 'p.ihx'), ':038100003E01C974\n:00000001FF\n');
  writeFileSync(join(dir, 'bad.ihx'), ':038100003E01C975\n');
  const exe = await diskProgram('sprinter', join(dir, 'p.ihx'));
  assert.deepEqual([exe?.header.load, exe?.header.start, exe?.header.stack], [0x8100, 0x8100, 0xbfff]);
  assert.deepEqual([...(exe?.code ?? [])], [0x3e, 0x01, 0xc9]);
  await assert.rejects(
    diskProgram('sprinter', join(dir, 'bad.ihx')),
    (e) =>
      e instanceof RetroError && e.code === 'launch_failed' && /bad\.ihx line 1: checksum mismatch/.test(e.message),
  );
});
