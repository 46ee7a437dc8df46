// cc65's runtime routines by name on the built-in C64 over the DAP wire: a program built by cl65 with its label
// file (-Ln, as F5's build task writes it) stops in `pushax`; the call stack names the frame `pushax`, and the
// Disassembly of the C caller reads `JSR $XXXX <pushax>`; a function breakpoint by that name stops there. The loader reads the map file's exports the same way.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { loadDebugInfo } from '../../src/debuginfo/load.js';
import { DebugIndex } from '../../src/debuginfo/index.js';
import { REPO_ROOT } from '../support/c64-fixture.js';
import { RecordingClient } from '../dap/dap-client.js';
import { freshBundle } from '../support/bundle.js';

let dir: string;
let dc: RecordingClient;
let labels: Map<string, number>;

before(async () => {
  freshBundle();
  dir = mkdtempSync(join(tmpdir(), 'rd-runtime-labels-'));
  for (const f of ['main.c', 'shapes.c', 'shapes.h'])
    copyFileSync(join(REPO_ROOT, 'test/fixtures/c64/defs', f), join(dir, f));
  execFileSync(
    'cl65',
    ['-t', 'c64', '-g', '-Wl', '--dbgfile,defs.dbg', '-Ln', 'defs.lbl', '-m', 'defs.map', '-o', 'defs.prg'].concat([
      'main.c',
      'shapes.c',
    ]),
    { cwd: dir },
  );
  labels = new Map(
    [...readFileSync(join(dir, 'defs.lbl'), 'latin1').matchAll(/^al ([0-9A-F]+) \.(\w+)$/gm)].map((m) => [
      m[2],
      parseInt(m[1], 16),
    ]),
  );
  dc = new RecordingClient();
  await dc.start();
  await dc.initialize();
  await dc.launchAndConfigure({
    machine: 'c64',
    emulator: 'builtin',
    program: join(dir, 'defs.prg'),
    cwd: dir,
    stopOnEntry: true,
  });
  await dc.next('stopped', 60_000);
});

after(async () => {
  await dc?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('a stop in cc65 runtime code is named by its label in the call stack, the C caller below it', async () => {
  const pushax = labels.get('pushax')!;
  assert.ok(pushax > 0x0801, 'the label file names pushax');
  await dc.send('setInstructionBreakpoints', { breakpoints: [{ instructionReference: `0x${pushax.toString(16)}` }] });
  dc.drain('stopped');
  await dc.continueRequest({ threadId: 1 });
  await dc.next('stopped', 30_000);
  const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  assert.equal(frames[0].name, 'pushax');
  assert.equal(frames[0].source, undefined);
  assert.ok(['total', 'main', 'area'].includes(frames[1].name), `C caller below: ${frames.map((f) => f.name)}`);
  await dc.send('setInstructionBreakpoints', { breakpoints: [] });
});

test('a function breakpoint on a runtime label stops there; a name that is neither is refused', async () => {
  const [named, unknown] = (
    await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'pushax' }, { name: 'pushaxx' }] })
  ).body.breakpoints;
  assert.equal(named.verified, true, JSON.stringify(named));
  assert.equal(parseInt(named.instructionReference!, 16), labels.get('pushax'));
  assert.equal(unknown.verified, false);
  assert.match(unknown.message ?? '', /No function named pushaxx/);
  dc.drain('stopped');
  await dc.continueRequest({ threadId: 1 });
  const stop = await dc.next('stopped', 30_000);
  assert.equal(stop.body.reason, 'breakpoint');
  const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  assert.equal(frames[0].name, 'pushax');
  // at the routine's first instruction the C caller's frame is known: its locals read (they said "CSP unknown")
  const scopes = (await dc.scopesRequest({ frameId: frames[1].id })).body.scopes;
  const locals = scopes.find((sc) => sc.name === 'Locals')!;
  const vars = (await dc.variablesRequest({ variablesReference: locals.variablesReference })).body.variables;
  assert.ok(vars.length > 0, `${frames[1].name} has locals`);
  for (const v of vars) assert.doesNotMatch(v.value, /unknown in this frame/, `${frames[1].name}: ${v.name}`);
  await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
});

test('Disassembly names the runtime routine a JSR calls', async () => {
  const main = (await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'total' }] })).body.breakpoints[0];
  await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
  const rows = (
    (await dc.send('disassemble', {
      memoryReference: main.instructionReference,
      instructionOffset: 0,
      instructionCount: 60,
      resolveSymbols: true,
    })) as DebugProtocol.DisassembleResponse
  ).body!.instructions;
  const calls = rows.filter((r) => r.instruction.startsWith('JSR')).map((r) => r.instruction);
  const named = calls.filter((c) => /<(\w+)>$/.test(c) && labels.has(/<(\w+)>$/.exec(c)![1]));
  assert.ok(named.length > 0, `a JSR into the runtime by name: ${calls.join(' | ')}`);
  for (const c of named) {
    const [, target, name] = /^JSR \$([0-9A-F]{4}) <(\w+)>$/.exec(c)!;
    assert.equal(parseInt(target, 16), labels.get(name), c);
  }
});

test("without a label file the map file's exports name the runtime; the .dbg's own names win", async () => {
  rmSync(join(dir, 'defs.lbl'));
  const index = new DebugIndex(await loadDebugInfo(join(dir, 'defs.dbg')));
  const pushax = labels.get('pushax')!;
  assert.equal(index.symbolAt(pushax), 'pushax');
  assert.equal(index.symbolCovering(pushax + 2), 'pushax+2');
  assert.equal(index.functionAt(labels.get('_main')!)?.name, 'main');
  assert.equal(index.symbolAt(labels.get('_main')!), '_main', "the .dbg's own label");
});
