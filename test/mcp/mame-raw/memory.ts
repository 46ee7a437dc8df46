/**
 * Raw abilities 1-2, 8-16, 19-20: the session's start and status, registers, memory in every view (logical,
 * physical, shares, video), writes under the lease, breakpoints by address with a condition, disassembly, and the
 * MAME console with its read-only set and the raw lease.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { call, callExpectingError, waitUntilReady, type Structured } from '../mcp-helpers.js';
import type { RawRun } from './run.js';

export function memoryTests(run: RawRun): void {
  const { subject } = run;
  const m = subject.machine;

  test(`${m}: start_session returns at once with a phase; the session reaches main; a second start is refused`, async () => {
    const t0 = Date.now();
    const started = await call(run.agent, 'start_session', run.startArgs);
    assert.ok(Date.now() - t0 < 3000, 'start_session does not wait for the boot');
    assert.ok(['starting_emulator', 'booting'].includes(started.phase));
    run.sessionId = started.session_id;
    const ready = await waitUntilReady(run.agent, run.sessionId);
    assert.equal(ready.location.function, 'main');
    await callExpectingError(run.agent, 'start_session', run.startArgs, 'session_exists');
  });

  test(`${m}: status and read_registers agree on the PC`, async () => {
    const st = await call(run.agent, 'session_status');
    assert.equal(await run.register('PC'), st.pc);
    assert.equal(st.stop.reason, 'entry');
  });

  test(`${m}: read_memory (logical), read_program_memory (raw) and read_share of the ROM region agree with the ROM`, async () => {
    const rom = run.built.rom.subarray(0, 64).toString('hex').toUpperCase();
    const logical = await call(run.agent, 'read_memory', { address: 0, length: 64 });
    const raw = await call(run.agent, 'read_program_memory', { space: 'program', offset: 0, length: 64 });
    const region = await call(run.agent, 'read_share', {
      tag: ':maincpu',
      offset: subject.rom.regionOffset,
      length: 64,
    });
    assert.deepEqual([logical.hex, raw.hex, region.hex], [rom, rom, rom]);
    assert.equal(raw.space, 'program');
    assert.deepEqual(raw.pages, subject.rom.pages, 'the window pages (none on a machine without banks)');
    const past = { offset: subject.programSize - 16, length: 32 };
    await callExpectingError(run.agent, 'read_program_memory', past, 'bad_address');
  });

  test(`${m}: list_shares names the video RAM and the ROM region with sizes and the CPU spaces`, async () => {
    const res = await call(run.agent, 'list_shares');
    const vram = res.shares.find((s: Structured) => s.tag === subject.videoShare.tag);
    assert.deepEqual([vram.kind, vram.size], ['share', subject.videoShare.size]);
    assert.equal(res.shares.find((s: Structured) => s.tag === ':maincpu').size, subject.romRegionSize);
    assert.deepEqual(
      res.spaces.find((s: Structured) => s.name === 'program'),
      { name: 'program', address_mask: subject.programSize - 1, data_width: 8 },
    );
  });

  test(`${m}: a breakpoint by address with a condition stops there; list and clear it`, async () => {
    const loop = run.marker(subject.loop);
    const line = await call(run.agent, 'set_breakpoint', { file: basename(loop.file), line: loop.line });
    const address = line.breakpoint.address.offset;
    await call(run.agent, 'clear_breakpoint', { id: line.breakpoint.id });
    const bp = await call(run.agent, 'set_breakpoint', { address, condition: '$a == $a' });
    const hit = await call(run.agent, 'resume', { wait: true, timeout_ms: 20_000 });
    assert.equal(hit.stop.reason, 'breakpoint');
    assert.equal(hit.stop.pc, address);
    assert.deepEqual(hit.stop.breakpoint_ids, [bp.breakpoint.id]);
    const listed = (await call(run.agent, 'list_breakpoints')).breakpoints;
    assert.deepEqual(
      listed.map((b: Structured) => [b.id, b.condition, b.read_only]),
      [[bp.breakpoint.id, '$a == $a', false]],
    );
    await call(run.agent, 'clear_breakpoint', { id: bp.breakpoint.id });
    assert.deepEqual((await call(run.agent, 'list_breakpoints')).breakpoints, []);
  });

  test(`${m}: read_vram and read_share show what the program drew`, async () => {
    const { tag } = subject.videoShare;
    const vram = await call(run.agent, 'read_vram', { offset: 0, length: 8 });
    const share = await call(run.agent, 'read_share', { tag, offset: 0, length: 8 });
    assert.equal(vram.hex, share.hex, 'read_vram reads the video share');
    if (subject.vramHead) assert.equal(vram.hex, subject.vramHead);
    await callExpectingError(run.agent, 'read_share', { tag: ':nope', length: 1 }, 'bad_address');
  });

  test(`${m}: write_memory writes RAM under the lease with read-back; a write into code bumps the generation`, async () => {
    const before = (await call(run.agent, 'session_status')).generation;
    const w = await call(run.agent, 'write_memory', { address: 0x9000, hex: 'DEADBEEF' });
    assert.deepEqual([w.verified, w.read_back], [true, 'DEADBEEF']);
    assert.equal(w.generation, before, 'a RAM write keeps the generation');
    const main = (await call(run.agent, 'disassemble', { count: 1 })).instructions[0];
    const code = (await call(run.agent, 'read_memory', { address: main.address, length: 1 })).hex;
    if (subject.codeInRom) {
      const other = code === '00' ? '01' : '00';
      const err = await callExpectingError(
        run.agent,
        'write_memory',
        { address: main.address, hex: other },
        'bad_address',
      );
      assert.match(err.message, /ROM/);
    } else {
      // code in RAM: the same byte written back, so the program runs on unchanged
      const same = await call(run.agent, 'write_memory', { address: main.address, hex: code });
      assert.deepEqual([same.verified, same.read_back], [true, code]);
    }
    assert.ok(
      (await call(run.agent, 'session_status')).generation > before,
      'a write aimed at code names a new generation',
    );
  });

  test(`${m}: disassemble names C functions and lines, with bytes equal to memory`, async () => {
    const st = await call(run.agent, 'session_status');
    const res = await call(run.agent, 'disassemble', { address: st.pc, count: 8 });
    assert.equal(res.instructions.length, 8);
    const first = res.instructions[0];
    assert.equal(first.address, st.pc);
    assert.equal(first.function, 'main');
    assert.equal(first.line, run.marker(subject.loop).line);
    const mem = await call(run.agent, 'read_memory', { address: st.pc, length: first.bytes.length / 2 });
    assert.equal(first.bytes, mem.hex);
    assert.ok(
      res.instructions.every((i: Structured, k: number) => k === 0 || i.address > res.instructions[k - 1].address),
    );
    assert.match(first.text, /^[a-z]+/);
  });

  test(`${m}: debugger_command: read-only commands run; others are refused by name and not run; the raw lease runs them and bumps the generation`, async () => {
    const { agent } = run;
    const st = await call(agent, 'session_status');
    const printed = await call(agent, 'debugger_command', { command: 'print pc' });
    assert.equal(parseInt(printed.lines.at(-1), 16), st.pc);
    assert.equal(printed.read_only, true);
    const hl = await run.register('HL');
    const refused = await callExpectingError(agent, 'debugger_command', { command: 'hl = 1234' }, 'no_lease');
    assert.match(refused.message, /"hl"/);
    await callExpectingError(agent, 'debugger_command', { command: 'print hl=5' }, 'no_lease');
    await callExpectingError(agent, 'debugger_command', { command: 'go' }, 'no_lease');
    assert.equal(await run.register('HL'), hl, 'nothing ran');
    await call(agent, 'claim_raw_lease');
    const gen = (await call(agent, 'session_status')).generation;
    const ran = await call(agent, 'debugger_command', { command: 'hl = 1234' });
    assert.equal(ran.read_only, false);
    assert.equal(ran.generation, gen + 1, 'the session moved to a new generation');
    assert.equal(await run.register('HL'), 0x1234);
    // HL back as it was: the program's next line may use it
    await call(agent, 'debugger_command', { command: `hl = ${hl.toString(16)}` });
    await call(agent, 'release_raw_lease');
    await callExpectingError(agent, 'debugger_command', { command: 'hl = 1' }, 'no_lease');
  });
}
