import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mameSearchPath } from '../../src/connectors/mame/search-path.js';
import { rompathFolders } from '../../src/core/launch.js';

test("rompath: a string splits on ';' as MAME reads it, a list is taken entry by entry", () => {
  assert.deepEqual(rompathFolders('a;b;;c'), ['a', 'b', 'c']);
  assert.deepEqual(rompathFolders(['x; y', 'z']), ['x; y', 'z']);
  assert.deepEqual(rompathFolders(undefined), []);
});

test("a folder with ';' in its path reaches MAME as a plain-named link to it; others as they are", async () => {
  const links = mkdtempSync(join(tmpdir(), 'search-path-'));
  try {
    const joined = await mameSearchPath(['/plain', '/Games; old/roms', '/a;b'], join(links, 'l'));
    const parts = joined.split(';');
    assert.equal(parts.length, 3);
    assert.equal(parts[0], '/plain');
    assert.equal(readlinkSync(parts[1]), '/Games; old/roms');
    assert.equal(readlinkSync(parts[2]), '/a;b');
  } finally {
    rmSync(links, { recursive: true, force: true });
  }
});
