import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { attachAttributes, DEBUG_TYPE, launchAttributes } from '../../src/dap/launch-schema.js';
import { COMMANDS, contributes, MCP_PROVIDER_ID, SETTINGS } from '../../src/host/manifest.js';
import { CONNECTORS } from '../../src/connectors/registry.js';

const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

test('package.json contributes is exactly what src/host/manifest.ts generates (run scripts/sync-manifest.mjs)', () => {
  assert.deepEqual(
    manifest.contributes,
    contributes(CONNECTORS),
    'package.json is out of sync: run `node --import tsx scripts/sync-manifest.mjs`',
  );
});

test("the debugger contribution carries the adapter's launch/attach schema", () => {
  const [debuggerEntry] = manifest.contributes.debuggers;
  assert.equal(debuggerEntry.type, DEBUG_TYPE);
  // F5 from an assembly file offers this debugger (VS Code otherwise asks the Marketplace for one)
  assert.deepEqual(debuggerEntry.languages, [
    'c',
    'retro-ca65',
    'retro-sdas',
    'retro-nasm',
    'retro-acme',
    'retro-64tass',
  ]);
  assert.deepEqual(
    debuggerEntry.configurationAttributes.launch,
    JSON.parse(JSON.stringify(launchAttributes(CONNECTORS))),
  );
  assert.deepEqual(debuggerEntry.configurationAttributes.attach, JSON.parse(JSON.stringify(attachAttributes)));
  assert.deepEqual(manifest.contributes.breakpoints, [
    { language: 'c' },
    { language: 'retro-ca65' },
    { language: 'retro-sdas' },
    { language: 'retro-acme' },
    { language: 'retro-64tass' },
  ]);
});

test('every command, setting and the MCP provider the code uses is declared', () => {
  const commands = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
  assert.deepEqual(
    commands,
    Object.values(COMMANDS)
      .map((c) => c.command)
      .sort(),
  );
  assert.deepEqual(Object.keys(manifest.contributes.configuration.properties).sort(), Object.values(SETTINGS).sort());
  assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders, [{ id: MCP_PROVIDER_ID, label: 'Retro Debug' }]);
  assert.match(manifest.engines.vscode, /^\^1\.1(0[6-9]|[1-9]\d)/);
  const extension = readFileSync(join(root, 'src', 'extension.ts'), 'utf8');
  for (const key of Object.keys(COMMANDS))
    assert.match(extension, new RegExp(`COMMANDS\\.${key}\\.command`), `extension.ts registers ${key}`);
});

test("the disassembly grammar exists and colours MAME's Z80 lines", () => {
  const grammarEntry = manifest.contributes.grammars[0];
  const grammar = JSON.parse(readFileSync(join(root, grammarEntry.path), 'utf8'));
  assert.equal(grammar.scopeName, grammarEntry.scopeName);
  const begin = new RegExp(grammar.repository['instruction-line'].begin);
  const plain = begin.exec('012D: ld   a,($8000)');
  assert.equal(plain?.[2], '012D');
  assert.equal(plain?.[5], 'ld');
  const withBytes = begin.exec('0100: 31 00 80    ld   sp,$8000');
  assert.equal(withBytes?.[4]?.trim(), '31 00 80');
  assert.equal(withBytes?.[5], 'ld');
  assert.equal(begin.exec('0105: dec  a')?.[5], 'dec');
  assert.equal(new RegExp(grammar.repository['label-line'].match).exec('_main:')?.[1], '_main');
});

test('the Getting Started walkthrough: its media ship, its links run declared commands', () => {
  const [walkthrough] = manifest.contributes.walkthroughs;
  assert.equal(walkthrough.id, 'retro-debug.getStarted');
  const declared = new Set(manifest.contributes.commands.map((c: { command: string }) => c.command));
  const ignore = readFileSync(join(root, '.vscodeignore'), 'utf8');
  assert.match(ignore, /^!media\/walkthrough\/\*\*$/m, 'the walkthrough media are packaged');
  assert.deepEqual(
    walkthrough.steps.map((s: { id: string }) => s.id),
    ['install', 'firstF5', 'screen', 'agents'],
  );
  for (const step of walkthrough.steps) {
    const media = step.media.image ?? step.media.markdown;
    assert.ok(existsSync(join(root, media)), `${step.id}: ${media}`);
    if (step.media.image) assert.ok(step.media.altText, `${step.id}: alt text`);
    for (const [, command] of step.description.matchAll(/\(command:([\w.]+)\)/g))
      assert.ok(declared.has(command) || command.startsWith('workbench.'), `${step.id}: ${command}`);
  }
});
