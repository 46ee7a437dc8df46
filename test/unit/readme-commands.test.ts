import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MCP_TOKEN_ENV } from '../../src/host/mcp-snippets.js';

const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

function twoCommands(): string[] {
  const readme = read('README.md');
  const section = readme.slice(
    readme.indexOf('## The two commands'),
    readme.indexOf('\n## ', readme.indexOf('## The two commands') + 3),
  );
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].trim());
}

test("README's two commands: the demo, and the tests with their set-up; .ci/run runs that same test command", () => {
  const [demo, tests, ...more] = twoCommands();
  assert.deepEqual(more, []);
  assert.equal(demo, 'bash scripts/setup.sh && node dist/cli.js demo --machine c64');
  assert.equal(tests, 'bash scripts/setup.sh --tests && npm test');
  const ci = read('.ci/run');
  assert.equal(/README_TEST_COMMAND='([^']*)'/.exec(ci)?.[1], tests);
  assert.match(ci, /^eval "\$README_TEST_COMMAND"$/m);
  // --tests installs every Debian package the tests need, and code-server through install-e2e.sh
  const setup = read('scripts/setup.sh');
  assert.match(setup, /grep -v '\^#' scripts\/test-packages\.txt/);
  assert.match(setup, /bash scripts\/install-e2e\.sh/);
  const packages = read('scripts/test-packages.txt')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'));
  for (const tool of ['mame', 'sdcc', 'cc65', 'dosbox', 'nasm', 'unzip']) assert.ok(packages.includes(tool), tool);
});

test('README and the extension name the same MCP token variable', () => {
  const names = new Set([...read('README.md').matchAll(/RETRO_DEBUG_[A-Z_]*TOKEN[A-Z_]*/g)].map((m) => m[0]));
  assert.deepEqual([...names], [MCP_TOKEN_ENV]);
});
