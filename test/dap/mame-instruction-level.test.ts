// Instruction level and data breakpoints over the DAP wire on real MAME (Z80,
// the SDCC-built ZX fixture): MAME's own disassembler at the PC and around a
// function's label, an instruction breakpoint, an instruction step, the Z80
// flags under AF, and Break on Value Change on a struct field and a global
// (MAME watchpoints name the writing instruction).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { buildZxFixture, type ZxFixture } from '../support/zx-fixture.js';
import { lineOf, RecordingClient } from './dap-client.js';
import { freshBundle } from '../support/bundle.js';

let fx: ZxFixture;
let dc: RecordingClient;

before(async () => {
  freshBundle();
  fx = await buildZxFixture();
  dc = new RecordingClient();
  await dc.start();
  await dc.initialize();
  await dc.launchAndConfigure({
    machine: 'spectrum',
    emulator: 'mame',
    program: fx.rom,
    debugInfo: fx.cdb,
    cwd: fx.dir,
    stopOnEntry: true,
  });
  await dc.next('stopped', 120_000);
});

after(async () => {
  await dc?.stop();
});

type Row = DebugProtocol.DisassembledInstruction;
const addr = (row: Row) => parseInt(row.address, 16);
const size = (row: Row) => (row.instructionBytes ?? '').split(' ').filter(Boolean).length;

async function disassemble(memoryReference: string, instructionOffset: number, instructionCount: number) {
  const r = (await dc.send('disassemble', {
    memoryReference,
    instructionOffset,
    instructionCount,
  })) as DebugProtocol.DisassembleResponse;
  return r.body?.instructions ?? [];
}

async function stoppedAfter(action: () => Promise<unknown>): Promise<DebugProtocol.StoppedEvent> {
  dc.drain('stopped');
  dc.drain('output');
  await action();
  return dc.next<DebugProtocol.StoppedEvent>('stopped', 30_000);
}

async function dataInfo(name: string): Promise<DebugProtocol.DataBreakpointInfoResponse['body']> {
  return ((await dc.send('dataBreakpointInfo', { name })) as DebugProtocol.DataBreakpointInfoResponse).body;
}

async function setData(breakpoints: DebugProtocol.DataBreakpoint[]): Promise<DebugProtocol.Breakpoint[]> {
  return ((await dc.send('setDataBreakpoints', { breakpoints })) as DebugProtocol.SetDataBreakpointsResponse).body
    .breakpoints;
}

const dataLine = async () =>
  (await dc.next<DebugProtocol.OutputEvent>('output', 10_000, (e) => e.body.output.startsWith('Data breakpoint'))).body
    .output;

test('a data breakpoint on a struct field: MAME names the writing instruction and its C line', async () => {
  const info = await dataInfo('origin.x');
  assert.match(info.description, /^origin\.x \(int, 2 bytes at 0x[0-9A-F]{4}\)$/);
  const [bp] = await setData([{ dataId: info.dataId!, accessType: 'write' }]);
  assert.equal(bp.verified, true, bp.message);
  const stop = await stoppedAfter(() => dc.continueRequest({ threadId: 1 }));
  assert.equal(stop.body.reason, 'data breakpoint');
  const line = lineOf(fx.sources[0], 'origin.x = 3;');
  assert.match(
    await dataLine(),
    // the writing instruction as MAME disassembles it: a store to origin.x
    new RegExp(
      `^Data breakpoint origin\\.x: 0 → 3 by ld \\(\\$${info.description.match(/0x([0-9A-F]{4})/)![1]}\\),hl at 0x[0-9A-F]{4} \\(main, main\\.c:${line}\\)\\n$`,
    ),
  );
  await setData([]);
});

test("disassemble around the PC with MAME's disassembler: contiguous rows, bytes as in memory, the C line", async () => {
  const frame = await dc.topFrame();
  const rows = await disassemble(frame.instructionPointerReference!, -6, 12);
  assert.equal(rows.length, 12);
  assert.equal(addr(rows[6]), parseInt(frame.instructionPointerReference!, 16));
  for (let i = 0; i < 11; i++)
    assert.equal(addr(rows[i]) + size(rows[i]), addr(rows[i + 1]), `row ${i} runs into ${i + 1}`);
  const mem = (await dc.send('readMemory', {
    memoryReference: rows[6].address,
    count: size(rows[6]),
  })) as DebugProtocol.ReadMemoryResponse;
  assert.equal(
    Buffer.from(mem.body!.data!, 'base64').toString('hex').match(/../g)!.join(' '),
    rows[6].instructionBytes,
  );
  assert.equal(rows[6].line, frame.line);
  assert.equal(rows[6].location?.path, frame.source?.path);
  assert.match(rows[6].instruction, /^[a-z]+( |$)/, 'MAME spells Z80 mnemonics in lower case');
});

test('an instruction breakpoint inside plot, then one instruction step', async () => {
  const fb = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'plot' }] });
  const entry = fb.body.breakpoints[0].instructionReference!;
  await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
  // SDCC's prologue (push ix; ld ix,#0; add ix,sp) lies between the label and the breakpoint
  const rows = await disassemble(entry, -5, 10);
  const label = rows.findIndex((r) => r.symbol === 'plot');
  const at = rows.findIndex((r) => r.address === entry || addr(r) === parseInt(entry, 16));
  assert.ok(label >= 0 && label < at, 'the label plot is before the breakpoint');
  assert.match(rows[label].instruction, /^push ix$/);
  const target = rows[at + 1];
  const set = (await dc.send('setInstructionBreakpoints', {
    breakpoints: [{ instructionReference: target.address }],
  })) as DebugProtocol.SetInstructionBreakpointsResponse;
  assert.equal(set.body.breakpoints[0].verified, true, set.body.breakpoints[0].message);
  const hit = await stoppedAfter(() => dc.continueRequest({ threadId: 1 }));
  assert.equal(hit.body.reason, 'instruction breakpoint');
  assert.equal(parseInt((await dc.topFrame()).instructionPointerReference!, 16), addr(target));
  const step = await stoppedAfter(() => dc.nextRequest({ threadId: 1, granularity: 'instruction' }));
  assert.equal(step.body.reason, 'step');
  assert.equal(parseInt((await dc.topFrame()).instructionPointerReference!, 16), addr(rows[at + 2]));
  await dc.send('setInstructionBreakpoints', { breakpoints: [] });
});

async function functionEntry(name: string): Promise<string> {
  const fb = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name }] });
  await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
  return fb.body.breakpoints[0].instructionReference!;
}

test("a call shows the function it calls: draw's call to plot reads call $XXXX <plot>", async () => {
  const plotRows = await disassemble(await functionEntry('plot'), -5, 10);
  const plot = plotRows.find((r) => r.symbol === 'plot')!;
  const rows = await disassemble(await functionEntry('draw'), 0, 40);
  const call = rows.find((r) => /^call /.test(r.instruction) && r.instruction.endsWith(' <plot>'));
  assert.ok(call, `no call naming plot in ${rows.map((r) => r.instruction).join(' | ')}`);
  // the name is that of the destination MAME printed, and plot's label is there
  const [, destination] = /^call \$([0-9A-F]{4}) <plot>$/i.exec(call.instruction) ?? [];
  assert.equal(parseInt(destination, 16), addr(plot), call.instruction);
  assert.ok(
    rows.every((r) => !/ <[^>]+>$/.test(r.instruction) || /^(call|jp|jr|djnz|rst) /.test(r.instruction)),
    'only control transfers are named',
  );
});

test('Registers: the Z80 flags S Z H P/V N C under AF, matching its low byte', async () => {
  const frame = await dc.topFrame();
  const scopes = (await dc.scopesRequest({ frameId: frame.id })).body.scopes;
  const regs = (
    await dc.variablesRequest({ variablesReference: scopes.find((s) => s.name === 'Registers')!.variablesReference })
  ).body.variables;
  const af = regs.find((r) => r.name === 'AF' || r.name === 'F');
  assert.ok(af && af.variablesReference > 0, 'the flags register opens');
  const flags = (await dc.variablesRequest({ variablesReference: af.variablesReference })).body.variables;
  const f = parseInt(af.value, 16) & 0xff;
  assert.deepEqual(
    flags.map((x) => [x.name, x.value]),
    [
      ['S', 7],
      ['Z', 6],
      ['H', 4],
      ['P/V', 2],
      ['N', 1],
      ['C', 0],
    ].map(([n, bit]) => [n, String((f >> (bit as number)) & 1)]),
  );
});

test('memory references name their space: vram:0x0 reads and writes the display file that the CPU sees at $4000', async () => {
  const read = async (memoryReference: string, count: number) =>
    Buffer.from(
      ((await dc.send('readMemory', { memoryReference, count })) as DebugProtocol.ReadMemoryResponse).body!.data!,
      'base64',
    );
  const cpuScreen = await read('0x4000', 32);
  assert.deepEqual(await read('vram:0x0', 32), cpuScreen, "MAME's video share is the Spectrum's display file");
  assert.notDeepEqual(await read('0x0', 32), cpuScreen, 'not the CPU address 0 (ROM)');
  const written = (await dc.send('writeMemory', {
    memoryReference: 'vram:0x1',
    data: Buffer.from([0xa5]).toString('base64'),
  })) as DebugProtocol.WriteMemoryResponse;
  assert.equal(written.success, true);
  assert.equal((await read('0x4001', 1))[0], 0xa5);
  await assert.rejects(dc.send('readMemory', { memoryReference: 'rom:0x0', count: 1 }), /not a memory address/);
  await assert.rejects(
    dc.send('disassemble', { memoryReference: 'vram:0x0', instructionCount: 1 }),
    /not a CPU address/,
  );
});
