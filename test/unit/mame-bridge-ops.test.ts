/**
 * The TypeScript op table (`bridge-ops.ts`) and the Lua plugin's `ops` table name the same operations: an op added
 * on one side only fails here, not at run time in MAME.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BRIDGE_OPS } from '../../src/connectors/mame/bridge-ops.js';

const PLUGIN = join(__dirname, '../../src/connectors/mame/plugin/mamebridge');

/** `function ops.name(` and `ops.name = …` in ops.lua: the names the plugin dispatches on. */
function luaOps(): string[] {
  const text = readFileSync(join(PLUGIN, 'ops.lua'), 'utf8');
  const names = [...text.matchAll(/^\s*(?:function\s+ops\.(\w+)\s*\(|ops\.(\w+)\s*=)/gm)].map((m) => m[1] ?? m[2]);
  return [...new Set(names)].sort();
}

test('the Lua ops table and the TypeScript op table name the same operations', () => {
  const lua = luaOps();
  const ts = Object.keys(BRIDGE_OPS).sort();
  assert.ok(lua.length >= 30, `ops.lua should define the plugin's ops (found ${lua.length})`);
  assert.deepEqual(
    lua.filter((n) => !ts.includes(n)),
    [],
    'ops in ops.lua missing from bridge-ops.ts',
  );
  assert.deepEqual(
    ts.filter((n) => !lua.includes(n)),
    [],
    'ops in bridge-ops.ts missing from ops.lua',
  );
});

test('the plugin dispatches requests through the ops table only', () => {
  const init = readFileSync(join(PLUGIN, 'init.lua'), 'utf8');
  assert.match(init, /local handler = ops\[msg\.op\]/);
});
