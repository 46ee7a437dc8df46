// File statics in the debug index, on real toolchain output of two files
// with statics of the same names (test/fixtures/c64/statics): SDCC's
// `F<module>` symbols and cc65's module-local labels (typed from the C
// declarations, or without the sources from being defined twice) carry
// their file; DebugIndex.global(name, file) gives that file's static, the
// external global otherwise, and another file's static not at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DebugIndex } from '../../src/debuginfo/index.js';
import { parseCdb } from '../../src/debuginfo/sdcc-cdb.js';
import { parseCc65Dbg } from '../../src/debuginfo/cc65-dbg.js';
import { loadDebugInfo } from '../../src/debuginfo/load.js';
import type { Variable } from '../../src/debuginfo/model.js';
import { REPO_ROOT } from '../support/c64-fixture.js';

const SRC = join(REPO_ROOT, 'test', 'fixtures', 'c64', 'statics');

function inTemp<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'file-statics-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const run = (dir: string, cmd: string, args: string[]) =>
  execFileSync(cmd, args, { cwd: dir, timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });

function checkScoping(index: DebugIndex, typed: boolean): void {
  const a = index.global('count', 'a.c');
  const b = index.global('count', 'b.c');
  assert.equal(a?.file, 'a.c');
  assert.equal(b?.file, 'b.c');
  assert.notEqual(storageAddress(a!), storageAddress(b!), 'two objects');
  if (typed) {
    assert.equal(a?.type.name, 'int');
    assert.equal(b?.type.name, 'long');
    assert.equal(index.global('tag', 'a.c')?.type.name, 'unsigned char[3]');
    assert.equal(index.global('tag', 'b.c')?.type.name, 'int');
  }
  assert.equal(index.global('shared', 'b.c')?.file, undefined, 'the global is seen from any file');
  assert.equal(index.global('shared', 'a.c'), index.global('shared', 'b.c'));
  assert.equal(index.global('count', 'c.c'), undefined, "another file's statics are not visible");
  assert.ok(index.global('count'), 'without a file: one of them');
}

function storageAddress(v: Variable): number {
  assert.equal(v.storage.kind, 'static');
  return (v.storage as { address: number }).address;
}

test('SDCC: F<module> statics of the same name belong to their files', () => {
  inTemp((dir) => {
    for (const f of ['a.c', 'b.c']) {
      // the z80 build has no stdio: main returns its figures instead of printing them
      const text = readFileSync(join(SRC, f), 'latin1')
        .replace('#include <stdio.h>', '')
        .replace(/printf\([^;]*;/, 'return count + tag[0];');
      writeFileSync(join(dir, f), text);
      run(dir, 'sdcc', ['-mz80', '--debug', '-c', f]);
    }
    run(dir, 'sdcc', ['-mz80', '--debug', '-o', 'p.ihx', 'a.rel', 'b.rel']);
    const info = parseCdb(readFileSync(join(dir, 'p.cdb'), 'latin1'));
    checkScoping(new DebugIndex(info), true);
  });
});

test('cc65: module-local labels of the same name, typed and scoped from the C declarations', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'file-statics-'));
  try {
    for (const f of ['a.c', 'b.c']) copyFileSync(join(SRC, f), join(dir, f));
    run(dir, 'cl65', ['-t', 'c64', '-g', '-O', '-Wl', '--dbgfile,p.dbg', '-o', 'p.prg', 'a.c', 'b.c']);
    checkScoping(new DebugIndex(await loadDebugInfo(join(dir, 'p.dbg'))), true);
    // without the sources (no types, no linkage): a name two modules define is static in both
    checkScoping(new DebugIndex(parseCc65Dbg(readFileSync(join(dir, 'p.dbg'), 'latin1'))), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
