// Instruction-level debugging over the DAP wire on the built-in C64 (whose
// monitor speaks VICE's binary protocol) and a cc65 program: disassemble at
// the PC (with instructions before it) and at a function's label, C lines
// interleaved, an instruction breakpoint, instruction stepping, and the
// decoded 6502 flags under FL in Registers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { RecordingClient } from '../dap/dap-client.js';
import { freshBundle } from '../support/bundle.js';

let fx: C64Fixture;
let dc: RecordingClient;
let caps: DebugProtocol.Capabilities;

before(async () => {
  freshBundle();
  fx = await buildC64Fixture();
  dc = new RecordingClient();
  await dc.start();
  caps = (await dc.initialize()).body ?? {};
  await dc.launchAndConfigure({ machine: 'c64', emulator: 'builtin', program: fx.prg, cwd: fx.dir, stopOnEntry: true });
  await dc.next('stopped', 60_000);
});

after(async () => {
  await dc?.stop();
});

type Row = DebugProtocol.DisassembledInstruction;

async function disassemble(memoryReference: string, instructionOffset: number, instructionCount: number) {
  const r = (await dc.send('disassemble', {
    memoryReference,
    instructionOffset,
    instructionCount,
    resolveSymbols: true,
  })) as DebugProtocol.DisassembleResponse;
  return r.body?.instructions ?? [];
}

const addr = (row: Row) => parseInt(row.address, 16);
const size = (row: Row) => (row.instructionBytes ?? '').split(' ').filter(Boolean).length;

async function stoppedAfter(action: () => Promise<unknown>): Promise<DebugProtocol.StoppedEvent> {
  dc.drain('stopped');
  await action();
  return dc.next<DebugProtocol.StoppedEvent>('stopped', 30_000);
}

test('initialize offers disassembly and instruction breakpoints', () => {
  assert.equal(caps.supportsDisassembleRequest, true);
  assert.equal(caps.supportsInstructionBreakpoints, true);
  assert.equal(caps.supportsSteppingGranularity, true);
});

test('disassemble around the PC: the rows before end exactly at it, bytes as in memory, C lines interleaved', async () => {
  const frame = await dc.topFrame();
  assert.ok(frame.instructionPointerReference, 'every frame names its instruction');
  const pc = parseInt(frame.instructionPointerReference!, 16);
  const rows = await disassemble(frame.instructionPointerReference!, -8, 16);
  assert.equal(rows.length, 16);
  assert.equal(addr(rows[8]), pc, 'row 8 is the PC');
  for (let i = 0; i < 15; i++)
    assert.equal(addr(rows[i]) + size(rows[i]), addr(rows[i + 1]), `row ${i} runs into ${i + 1}`);
  const mem = await dc.send('readMemory', { memoryReference: frame.instructionPointerReference, count: size(rows[8]) });
  assert.equal(
    Buffer.from((mem as DebugProtocol.ReadMemoryResponse).body!.data!, 'base64')
      .toString('hex')
      .match(/../g)!
      .join(' '),
    rows[8].instructionBytes,
  );
  assert.equal(rows[8].location?.path, frame.source?.path);
  assert.equal(rows[8].line, frame.line);
});

test('disassemble at a function label, break in the middle of a line, step one instruction', async () => {
  const fb = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'add_scaled' }] });
  const entry = fb.body.breakpoints[0].instructionReference;
  assert.ok(entry, 'a function breakpoint names its instruction');
  await dc.setFunctionBreakpointsRequest({ breakpoints: [] });

  // the breakpoint stands after cc65's one-instruction prologue (JSR pushax): the label is one row back
  const rows = await disassemble(entry!, -1, 6);
  assert.equal(rows[0].symbol, 'add_scaled');
  assert.match(rows[0].instruction, /^JSR \$[0-9A-F]{4}$/);
  assert.equal(addr(rows[0]) + size(rows[0]), parseInt(entry!, 16));
  assert.equal(rows[1].location?.path, fx.sources[1]);
  assert.equal(rows[1].line, fx.markers.scaled.line);

  const set = await dc.send('setInstructionBreakpoints', { breakpoints: [{ instructionReference: rows[2].address }] });
  const bp = (set as DebugProtocol.SetInstructionBreakpointsResponse).body.breakpoints[0];
  assert.equal(bp.verified, true, bp.message);
  const hit = await stoppedAfter(() => dc.continueRequest({ threadId: 1 }));
  assert.equal(hit.body.reason, 'instruction breakpoint');
  const top = await dc.topFrame();
  assert.equal(parseInt(top.instructionPointerReference!, 16), addr(rows[2]));
  assert.equal(top.name, 'add_scaled');

  const stepped = await stoppedAfter(() => dc.stepInRequest({ threadId: 1, granularity: 'instruction' }));
  assert.equal(stepped.body.reason, 'step');
  const after = parseInt((await dc.topFrame()).instructionPointerReference!, 16);
  const jsr = /^JSR \$([0-9A-F]{4})$/.exec(rows[2].instruction);
  assert.equal(after, jsr ? parseInt(jsr[1], 16) : addr(rows[3]));
  await dc.send('setInstructionBreakpoints', { breakpoints: [] });

  // a C condition on an instruction breakpoint: evaluated at that address like a line's
  const conditional = await dc.send('setInstructionBreakpoints', {
    breakpoints: [{ instructionReference: rows[2].address, condition: 'value == 3' }],
  });
  assert.equal((conditional as DebugProtocol.SetInstructionBreakpointsResponse).body.breakpoints[0].verified, true);
  const third = await stoppedAfter(() => dc.continueRequest({ threadId: 1 }));
  assert.equal(third.body.reason, 'instruction breakpoint');
  assert.equal((await dc.evaluateRequest({ expression: 'counter', context: 'watch' })).body.result, '3', 'not at 2');
  await dc.send('setInstructionBreakpoints', { breakpoints: [] });
});

test("a JSR names the C function it calls: main's call of add_scaled reads JSR $XXXX <add_scaled>", async () => {
  const entry = async (name: string) => {
    const fb = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name }] });
    await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
    return fb.body.breakpoints[0].instructionReference!;
  };
  const label = (await disassemble(await entry('add_scaled'), -1, 1))[0];
  assert.equal(label.symbol, 'add_scaled');
  const rows = await disassemble(await entry('main'), 0, 80);
  const call = rows.find((r) => r.instruction.endsWith(' <add_scaled>'));
  assert.ok(call, `no JSR naming add_scaled in ${rows.map((r) => r.instruction).join(' | ')}`);
  assert.equal(call.instruction, `JSR $${label.address.slice(2).toUpperCase()} <add_scaled>`);
});

test('into a runtime routine without C source: the frame says so (the extension opens the Disassembly view)', async () => {
  // step instructions until the PC leaves every C line (the next JSR into cc65's runtime)
  let frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  for (let i = 0; i < 20 && frames[0].source; i++) {
    await stoppedAfter(() => dc.stepInRequest({ threadId: 1, granularity: 'instruction' }));
    frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  }
  assert.equal(frames[0].source, undefined, 'reached code without source');
  const reply = (await dc.send('retro/frameSource', { frameId: frames[0].id })) as DebugProtocol.Response;
  assert.deepEqual(reply.body, {
    hasSource: false,
    instructionPointerReference: frames[0].instructionPointerReference,
  });
  const caller = (await dc.send('retro/frameSource', { frameId: frames[1].id })) as DebugProtocol.Response;
  assert.equal(caller.body.hasSource, true);
  assert.equal(frames[1].name, 'add_scaled');
  const rows = await disassemble(frames[0].instructionPointerReference!, 0, 2);
  assert.equal(rows[0].location, undefined);
  assert.ok(rows[0].instruction.length > 0);
});

test('Registers: FL has the 6502 flags N V - B D I Z C as children, matching its bits', async () => {
  const frame = await dc.topFrame();
  const scopes = (await dc.scopesRequest({ frameId: frame.id })).body.scopes;
  const regs = (
    await dc.variablesRequest({ variablesReference: scopes.find((s) => s.name === 'Registers')!.variablesReference })
  ).body.variables;
  const fl = regs.find((r) => r.name === 'FL');
  assert.ok(fl && fl.variablesReference > 0, 'FL opens');
  const flags = (await dc.variablesRequest({ variablesReference: fl.variablesReference })).body.variables;
  const value = parseInt(fl.value, 16);
  // each flag row evaluates: its evaluateName is the bit as C over $FL
  const carry = flags.find((f) => f.name === 'C')!;
  assert.equal(carry.evaluateName, '($FL >> 0) & 1');
  assert.equal(
    (await dc.evaluateRequest({ expression: carry.evaluateName!, frameId: frame.id })).body.result,
    String(value & 1),
  );
  assert.deepEqual(
    flags.map((f) => [f.name, f.value]),
    ['N', 'V', '-', 'B', 'D', 'I', 'Z', 'C'].map((n, i) => [n, String((value >> (7 - i)) & 1)]),
  );
});
