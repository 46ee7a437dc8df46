import assert from 'node:assert/strict';
import { test } from 'node:test';
import { controlStatusText, holderWords, panelRefusal } from '../../src/ui/control-text.js';

test('the status-bar item says who holds control: you, an agent by name, nobody', () => {
  const dap = { id: 'd', kind: 'dap' as const, label: 'VS Code debug session "demo"' };
  const panel = { id: 'p', kind: 'ui' as const, label: 'Screen panel' };
  const agent = { id: 'a', kind: 'mcp' as const, label: 'MCP client claude-code' };
  assert.equal(controlStatusText(dap).text, '$(person) Retro: you');
  assert.equal(controlStatusText(panel).text, '$(person) Retro: you');
  assert.equal(controlStatusText(agent).text, '$(hubot) Retro: agent claude-code');
  assert.match(controlStatusText(agent).tooltip, /Click to take it back/);
  assert.equal(controlStatusText(undefined).text, '$(unlock) Retro: free');
  assert.equal(holderWords({ id: 'c', kind: 'cli', label: 'retro-debug CLI' }), 'retro-debug CLI');
  assert.match(panelRefusal(agent), /^MCP client claude-code has control of the machine: click "Take back"/);
});
