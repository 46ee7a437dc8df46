/** Pure parts of the debug adapter: argument parsing, error sentences, memory references, stop text. */
import { DAP_TOKEN_ATTRIBUTE } from '../../src/dap/dap-gate.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RetroError } from '../../src/core/errors.js';
import type { BreakpointInfo, ClientRef } from '../../src/session/types.js';
import { parseAttachArgs, parseLaunchArgs } from '../../src/dap/launch-args.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { launchAttributes, attachAttributes, debuggerContribution } from '../../src/dap/launch-schema.js';
import { toDapMessage, userSentence } from '../../src/dap/error-text.js';
import { toDapVariable, VariableHandles } from '../../src/dap/variables.js';
import { memoryReference, parseCpuReference, parseMemoryReference } from '../../src/core/memory-reference.js';
import { foreignBreakpointSummary } from '../../src/dap/breakpoints.js';
import { dapStopReason, describeStop } from '../../src/dap/stop-text.js';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof RetroError, `expected a RetroError, got ${String(err)}`);
    return err.code;
  }
  assert.fail('expected a throw');
}

test('launch args: every schema attribute is read, and the session is always asked to stop at main', () => {
  const { config, stopOnEntry } = parseLaunchArgs(
    {
      machine: 'spectrum',
      emulator: 'mame',
      program: 'a.rom',
      debugInfo: 'a.cdb',
      mamePath: '/m',
      rompath: 'r',
      media: { cart: 'x.bin' },
      headless: false,
      stopOnEntry: false,
      cwd: '/w',
    },
    CONNECTORS,
  );
  assert.equal(stopOnEntry, false);
  assert.deepEqual(config, {
    machine: 'spectrum',
    emulator: 'mame',
    program: 'a.rom',
    debugInfo: 'a.cdb',
    mamePath: '/m',
    rompath: 'r',
    media: { cart: 'x.bin' },
    headless: false,
    stopOnEntry: true,
    cwd: '/w',
  });
  // emulator-specific attributes are read for their emulator (machine "dos": the dosbox options)
  const dosConfig = parseLaunchArgs({ machine: 'dos', program: 'A.COM', dos: {} }, CONNECTORS).config;
  const viceConfig = parseLaunchArgs(
    {
      machine: 'c64',
      emulator: 'vice',
      program: 'a.prg',
      vicePath: '/v',
      viceMonitor: '127.0.0.1:6502',
      screenRefreshFps: 2,
      dapToken: 'serve-token',
    },
    CONNECTORS,
  ).config;
  assert.equal(viceConfig.screenRefreshFps, 2);
  const builtinConfig = parseLaunchArgs(
    {
      machine: 'c64',
      emulator: 'builtin',
      program: 'a.prg',
      drive8: 'disk.d64',
      builtinMonitorPort: 0,
      history: { seconds: 0 },
    },
    CONNECTORS,
  ).config;
  assert.equal(builtinConfig.drive8, 'disk.d64');
  const sprinterConfig = parseLaunchArgs(
    { machine: 'sprinter', program: 'A.EXE', rompath: 'roms', bridgeLoad: { bootAddress: 0x40, dss: 'absent' } },
    CONNECTORS,
  ).config;
  assert.deepEqual(sprinterConfig.bridgeLoad, { bootAddress: 0x40, dss: 'absent' });
  // dapToken is read by serve's gate (src/dap/dap-gate.ts) before the adapter sees the request
  const adapterKeys = (props: object) => Object.keys(props).filter((k) => k !== DAP_TOKEN_ATTRIBUTE);
  for (const key of adapterKeys(launchAttributes(CONNECTORS).properties))
    assert.ok(
      key in config || key in dosConfig || key in viceConfig || key in builtinConfig || key in sprinterConfig,
      `schema attribute ${key} is not passed on`,
    );
  assert.deepEqual(
    adapterKeys(attachAttributes.properties).sort(),
    Object.keys(parseAttachArgs({ sessionId: 's', cwd: '/w' })).sort(),
  );
  assert.equal(debuggerContribution(CONNECTORS).type, 'retro');
});

test('launch args: defaults and refusals', () => {
  assert.equal(parseLaunchArgs({ machine: 'spectrum', program: 'p.rom' }, CONNECTORS).stopOnEntry, true);
  assert.equal(parseLaunchArgs({ machine: 'spectrum', program: 'p.rom' }, CONNECTORS).config.emulator, 'mame');
  assert.equal(
    codeOf(() => parseLaunchArgs({ program: 'p.rom' }, CONNECTORS)),
    'bad_request',
  );
  assert.equal(
    codeOf(() => parseLaunchArgs({ machine: 'spectrum' }, CONNECTORS)),
    'bad_request',
  );
  assert.equal(
    codeOf(() => parseLaunchArgs({ machine: 'spectrum', program: 'p', emulator: 'vice' }, CONNECTORS)),
    'bad_request',
  );
  assert.equal(
    codeOf(() => parseLaunchArgs({ machine: 'spectrum', program: 'p', headless: 'yes' }, CONNECTORS)),
    'bad_request',
  );
  assert.equal(
    codeOf(() => parseLaunchArgs({ machine: 'spectrum', program: 'p', media: { cart: 3 } }, CONNECTORS)),
    'bad_request',
  );
  assert.equal(
    codeOf(() => parseLaunchArgs('nonsense', CONNECTORS)),
    'bad_request',
  );
});

test('error sentences: lease refusals name the holder and the command to take over', () => {
  const held = new RetroError('lease_held', 'Control is held by X.', {
    holder: { id: 'c1', kind: 'mcp', label: 'MCP client claude-code' },
  });
  assert.equal(
    userSentence(held),
    "Control is held by MCP client claude-code; click Retro Debug's control item in the status bar (or run 'Retro Debug: Take Control') to take it back.",
  );
  const msg = toDapMessage(held);
  assert.equal(
    msg.format,
    "Control is held by MCP client claude-code; click Retro Debug's control item in the status bar (or run 'Retro Debug: Take Control') to take it back.",
  );
  assert.equal(msg.showUser, true);
  assert.notEqual(msg.id, toDapMessage(new RetroError('bad_address', 'x')).id);
  assert.equal(toDapMessage(new Error('boom')).format, 'boom');
  assert.equal(toDapMessage(new RetroError('not_found', 'No variable {x}.')).format, 'No variable {x}.');
});

test('memory references: CPU addresses in hex or decimal, other spaces by name and bank; anything else is refused', () => {
  assert.deepEqual(parseMemoryReference('0x8000'), { space: 'cpu', offset: 0x8000 });
  assert.deepEqual(parseMemoryReference('0x8000', 16), { space: 'cpu', offset: 0x8010 });
  assert.deepEqual(parseMemoryReference('256'), { space: 'cpu', offset: 256 });
  assert.deepEqual(parseMemoryReference('vram:0x3718', 2), { space: 'vram', offset: 0x371a });
  assert.deepEqual(parseMemoryReference('cpu@3:0x8000'), { space: 'cpu', bank: 3, offset: 0x8000 });
  assert.deepEqual(parseMemoryReference('share@:maincpu:ram:0x10'), {
    space: 'share',
    bank: ':maincpu:ram',
    offset: 16,
  });
  for (const address of [
    { space: 'cpu', offset: 0xd020 },
    { space: 'vram', offset: 0x3718 },
    { space: 'cpu', bank: 7, offset: 0xc000 },
    { space: 'share', bank: ':vram', offset: 0 },
  ] as const)
    assert.deepEqual(parseMemoryReference(memoryReference(address)), address, memoryReference(address));
  assert.equal(memoryReference({ space: 'cpu', offset: 0xd020 }), '0xD020', 'a CPU address stays a bare number');
  for (const bad of ['main', 'rom:0x10', 'vram:', 'vram@:0x10', ':0x10', 'vram:main'])
    assert.equal(
      codeOf(() => parseMemoryReference(bad)),
      'bad_address',
      bad,
    );
  assert.equal(
    codeOf(() => parseMemoryReference('0x10', -32)),
    'bad_address',
  );
  assert.deepEqual(parseCpuReference('0x10', 2), { space: 'cpu', offset: 0x12 });
  for (const notCpu of ['vram:0x10', 'cpu@3:0x8000'])
    assert.equal(
      codeOf(() => parseCpuReference(notCpu)),
      'bad_address',
      notCpu,
    );
});

test('typed values become DAP variables with children behind a handle', () => {
  const handles = new VariableHandles();
  const v = toDapVariable(
    {
      name: 'origin',
      type: 'struct point',
      value: '{x=3, y=-4}',
      address: { space: 'cpu', offset: 0x8002 },
      children: [
        { name: 'x', type: 'int', value: '3', numeric: 3 },
        { name: 'y', type: 'int', value: '-4', numeric: -4 },
      ],
    },
    handles,
  );
  assert.equal(v.memoryReference, '0x8002');
  assert.ok(v.variablesReference > 0);
  const container = handles.get(v.variablesReference);
  assert.equal(container?.kind, 'children');
  assert.deepEqual(container?.kind === 'children' ? container.children.map((c) => c.value) : [], ['3', '-4']);
  handles.reset();
  assert.equal(handles.get(v.variablesReference), undefined);
});

test('foreign breakpoints are summarised per owner; own ones are left out', () => {
  const mine = { id: 'me', kind: 'dap' as const, label: 'VS Code debug session' };
  const agent = { id: 'a1', kind: 'mcp' as const, label: 'MCP client agent' };
  const bp = (id: number, owner: ClientRef, extra: Partial<BreakpointInfo>): BreakpointInfo => ({
    id,
    owner,
    kind: 'line',
    verified: true,
    hit_count: 0,
    ...extra,
  });
  assert.equal(foreignBreakpointSummary([bp(1, mine, { file: 'main.c', line: 3 })], 'me'), undefined);
  const text = foreignBreakpointSummary(
    [
      bp(1, mine, { file: 'main.c', line: 3 }),
      bp(2, agent, { file: '/x/util.c', line: 20, condition: 'i == 2' }),
      bp(3, agent, { kind: 'function', function: 'plot' }),
    ],
    'me',
  );
  assert.equal(
    text,
    'Breakpoints owned by other clients (shown here read-only): MCP client agent: util.c:20 if i == 2, plot()\n',
  );
});

test('stop reasons and descriptions', () => {
  assert.equal(dapStopReason('watchpoint'), 'data breakpoint');
  assert.equal(dapStopReason('unknown'), 'pause');
  assert.equal(
    describeStop(
      { reason: 'breakpoint', pc: 0x123 },
      { file: 'util.c', path: '/a/util.c', line: 20, function: 'draw' },
    ),
    'Paused on breakpoint (draw, util.c:20)',
  );
  assert.equal(describeStop({ reason: 'pause', pc: 0x1a }), 'Paused (PC 0x001A)');
  assert.equal(
    describeStop({ reason: 'goto', pc: 0x1a, inPast: true, pastFrame: { frame: 64, present: 70 } }),
    'Went back in time (PC 0x001A) — time travel: in the past, frame 64 of 70, read-only (resuming discards the later history)',
  );
  assert.equal(describeStop({ reason: 'goto', pc: 0x1a, inPast: false }), 'Back at the present (PC 0x001A)');
});
