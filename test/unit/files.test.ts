/** core/files: regular-file capped reads, the roots check on real paths, atomic writes, the private folder. */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeReadOnly } from '../support/read-only-folder.js';
import { after, test } from 'node:test';
import { RetroError } from '../../src/core/errors.js';
import {
  ensurePrivateDir,
  privateOutputDir,
  readRegularFile,
  readRegularFileSync,
  resolveInsideRoots,
  resolveOutputPath,
  writeOutputFile,
} from '../../src/core/files.js';

const base = mkdtempSync(join(tmpdir(), 'files-test-'));
chmodSync(base, 0o755); // so another uid can reach the folders made for it below
after(() => rmSync(base, { recursive: true, force: true }));

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof RetroError, `expected a RetroError, got ${String(err)}`);
    return err.code;
  }
  return undefined;
};
const asyncCodeOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: unknown) => {
      assert.ok(err instanceof RetroError, `expected a RetroError, got ${String(err)}`);
      return err.code;
    },
  );

test('reads: regular files only, capped before reading; a FIFO does not hang us', async () => {
  const dir = join(base, 'reads');
  mkdirSync(dir);
  writeFileSync(join(dir, 'small.prg'), Buffer.from([1, 8, 0x60]));
  symlinkSync('/dev/zero', join(dir, 'zero.prg'));
  writeFileSync(join(dir, 'big.bin'), Buffer.alloc(2000));
  execFileSync('mkfifo', [join(dir, 'pipe.prg')]);
  assert.deepEqual([...readRegularFileSync(join(dir, 'small.prg'), { maxBytes: 10 })], [1, 8, 0x60]);
  assert.equal(
    codeOf(() => readRegularFileSync(join(dir, 'zero.prg'), { maxBytes: 1 << 20 })),
    'bad_request',
  );
  assert.equal(await asyncCodeOf(readRegularFile(join(dir, 'zero.prg'), { maxBytes: 1 << 20 })), 'bad_request');
  assert.equal(
    codeOf(() => readRegularFileSync(join(dir, 'pipe.prg'), { maxBytes: 100 })),
    'bad_request',
  );
  assert.equal(await asyncCodeOf(readRegularFile(join(dir, 'pipe.prg'), { maxBytes: 100 })), 'bad_request');
  assert.equal(
    codeOf(() => readRegularFileSync(join(dir, 'big.bin'), { maxBytes: 1999 })),
    'too_large',
  );
  assert.equal(
    codeOf(() => readRegularFileSync(dir, { maxBytes: 100 })),
    'bad_request',
  );
  assert.equal(
    codeOf(() => readRegularFileSync(join(dir, 'none'), { maxBytes: 100 })),
    'not_found',
  );
  assert.equal(
    codeOf(() => readRegularFileSync(join(dir, 'a\0b'), { maxBytes: 100 })),
    'bad_request',
  );
  assert.equal(
    codeOf(() => readRegularFileSync(join(dir, 'x'.repeat(300)), { maxBytes: 100 })),
    'bad_request',
  );
  assert.equal(
    codeOf(() => readRegularFileSync('/' + 'a/'.repeat(3000), { maxBytes: 100 })),
    'bad_request',
  );
});

test('roots: checked on the real path, so symlinked files and folders cannot escape', async () => {
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  writeFileSync(join(root, 'ok.txt'), 'ok');
  symlinkSync(outside, join(root, 'linkdir'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
  const roots = [root];
  assert.equal(readRegularFileSync(join(root, 'ok.txt'), { maxBytes: 10, roots }).toString(), 'ok');
  assert.equal(
    codeOf(() => readRegularFileSync(join(root, 'link.txt'), { maxBytes: 10, roots })),
    'outside_roots',
  );
  assert.equal(
    await asyncCodeOf(readRegularFile(join(root, 'linkdir', 'secret.txt'), { maxBytes: 10, roots })),
    'outside_roots',
  );
  assert.equal(
    codeOf(() => readRegularFileSync(join(outside, 'secret.txt'), { maxBytes: 10, roots })),
    'outside_roots',
  );
  assert.equal(
    codeOf(() => resolveInsideRoots(join(root, '..', 'outside', 'new.bin'), roots)),
    'outside_roots',
  );
  assert.equal(
    codeOf(() => resolveInsideRoots(join(root, 'linkdir', 'new', 'deeper.bin'), roots)),
    'outside_roots',
  );
  assert.equal(resolveInsideRoots(join(root, 'new', 'deeper.bin'), roots), join(root, 'new', 'deeper.bin'));
  // the outputs folder: a symlinked directory inside it is refused for writes too
  assert.equal(
    codeOf(() => resolveOutputPath(root, 'linkdir/x.png')),
    'outside_roots',
  );
  assert.equal(await asyncCodeOf(writeOutputFile(root, 'linkdir/x.png', Uint8Array.from([1]))), 'outside_roots');
  assert.ok(!existsSync(join(outside, 'x.png')), 'nothing was written through the link');
});

test('the private output folder: 0700, not a link, not pre-created by someone else', () => {
  const cache = join(base, 'cache');
  const dir = privateOutputDir({ XDG_CACHE_HOME: cache });
  assert.equal(dir, join(cache, 'retro-debug', 'output'));
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  assert.equal(statSync(join(cache, 'retro-debug')).mode & 0o777, 0o700);
  // one we made too open is tightened
  const loose = join(base, 'loose');
  mkdirSync(loose, { mode: 0o777 });
  chmodSync(loose, 0o777);
  ensurePrivateDir(loose);
  assert.equal(statSync(loose).mode & 0o777, 0o700);
  // a symlink planted where the folder should be is refused
  symlinkSync(join(base, 'outside-target'), join(base, 'planted'));
  mkdirSync(join(base, 'outside-target'));
  assert.equal(
    codeOf(() => ensurePrivateDir(join(base, 'planted'))),
    'bad_request',
  );
});

const isRoot = process.getuid?.() === 0;
const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0;

test(
  'another uid: cannot enter the private folder, and a folder it pre-created is refused',
  { skip: !isRoot || !hasSetpriv },
  () => {
    const cache = join(base, 'cache-other');
    mkdirSync(cache, { mode: 0o755 });
    chmodSync(cache, 0o755);
    const dir = privateOutputDir({ XDG_CACHE_HOME: cache });
    writeFileSync(join(dir, 'screen.png'), 'png');
    const asNobody = (...args: string[]) =>
      spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', ...args], { encoding: 'utf8' });
    const probe = asNobody('cat', join(dir, 'screen.png'));
    assert.notEqual(probe.status, 0, 'uid 65534 read a file in the private output folder');
    assert.match(probe.stderr, /Permission denied/);
    // another user pre-creates the folder (world-readable, theirs): we refuse it and fall back elsewhere
    const shared = join(base, 'shared-cache');
    mkdirSync(shared, { mode: 0o777 });
    chmodSync(shared, 0o1777);
    const made = asNobody('mkdir', '-m', '0777', '-p', join(shared, 'retro-debug', 'output'));
    assert.equal(made.status, 0, made.stderr);
    assert.equal(
      codeOf(() => ensurePrivateDir(join(shared, 'retro-debug'))),
      'bad_request',
    );
    const fallback = privateOutputDir({ XDG_CACHE_HOME: shared });
    assert.ok(!fallback.startsWith(shared), `fell back to ${fallback}, not the planted folder`);
    assert.equal(statSync(fallback).mode & 0o777, 0o700);
    rmSync(fallback, { recursive: true, force: true });
    chownSync(shared, 0, 0);
  },
);

test('a write the file system refuses names the path and why: a read-only folder, a folder gone meanwhile', async () => {
  // /sys refuses new entries even to root (CI runs as root, so a chmod'ed folder would not refuse anything)
  await assert.rejects(writeOutputFile('/sys', 'retro-debug/shot.png', Uint8Array.of(1)), (e: RetroError) => {
    assert.equal(e.code, 'not_allowed');
    assert.match(e.message, /Cannot write \/sys\/retro-debug\/shot\.png: the folder \/sys\/retro-debug is read-only/);
    return true;
  });
  // a read-only mount: Node's recursive mkdir says ENOENT there; the folder is not gone, the write is refused
  const ro = mkdtempSync(join(tmpdir(), 'files-ro-'));
  const undo = makeReadOnly(ro);
  try {
    await assert.rejects(writeOutputFile(ro, 'snapshots/a.rdsnap', Uint8Array.of(1)), (e: RetroError) => {
      assert.equal(e.code, 'not_allowed', e.message);
      assert.match(e.message, /the folder .*files-ro-\w+\/snapshots is read-only here \(E(ROFS|ACCES)\)/);
      return true;
    });
  } finally {
    undo();
    rmSync(ro, { recursive: true });
  }
  const out = mkdtempSync(join(tmpdir(), 'files-gone-'));
  writeFileSync(join(out, 'sub'), 'a file where a folder was');
  await assert.rejects(writeOutputFile(out, 'sub/shot.png', Uint8Array.of(1)), (e: RetroError) => {
    assert.equal(e.code, 'not_found');
    assert.match(e.message, /the folder .*sub is gone/);
    return true;
  });
  // deleted while a session ran: the next write makes it again, inside the output folder
  rmSync(out, { recursive: true });
  assert.equal(await writeOutputFile(out, 'again.png', Uint8Array.of(2)), join(out, 'again.png'));
  rmSync(out, { recursive: true });
});
