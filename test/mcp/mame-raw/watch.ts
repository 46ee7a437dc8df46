/**
 * Raw abilities 17-18: watchpoints on C variables (sized by their C type) and on addresses in the program and I/O
 * spaces, fired by the program's own accesses and never by the debugger's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, callExpectingError } from '../mcp-helpers.js';
import type { RawRun } from './run.js';

export function watchTests(run: RawRun): void {
  const { subject } = run;
  const m = subject.machine;

  test(`${m}: a write watchpoint on a C variable stops with the writer's PC; our own writes never fire it`, async () => {
    const { agent } = run;
    const wp = await call(agent, 'set_watchpoint', { variable: 'counter', kind: 'write' });
    const counter = await run.global('counter');
    assert.deepEqual([wp.watchpoint.address.offset, wp.watchpoint.length], [counter.address.offset, 1]);
    const stopBefore = (await call(agent, 'session_status')).stop;
    await call(agent, 'write_memory', { address: counter.address.offset, hex: '42' });
    const still = await call(agent, 'session_status');
    assert.deepEqual(
      [still.state, still.stop.pc, still.stop.reason],
      ['stopped', stopBefore.pc, stopBefore.reason],
      'the debugger write did not fire it',
    );
    const hit = await call(agent, 'resume', { wait: true, timeout_ms: 20_000 });
    assert.equal(hit.stop.reason, 'watchpoint');
    assert.deepEqual((await run.manager.get(run.sessionId).status()).last_stop?.watchpoint_ids, [wp.watchpoint.id]);
    const listed = (await call(agent, 'list_watchpoints')).watchpoints;
    assert.equal(listed[0].hit_count, 1);
    const last = listed[0].last_hit;
    assert.deepEqual(
      [last.access, last.address, last.value],
      ['writing', counter.address.offset, 0x43],
      'counter++ wrote 0x43',
    );
    assert.equal(last.pc, hit.stop.pc);
    assert.equal(hit.location.line, run.marker(subject.counterWriter).line, 'stopped in the line that wrote');
    assert.ok(
      last.access_pc < hit.stop.pc && hit.stop.pc - last.access_pc <= 4,
      'access_pc is the writing instruction, pc the next one',
    );
    await call(agent, 'clear_watchpoint', { id: wp.watchpoint.id });
    assert.deepEqual((await call(agent, 'list_watchpoints')).watchpoints, []);
    assert.match((await call(agent, 'debugger_command', { command: 'wplist' })).lines.join('\n'), /No watchpoints/);
  });

  test(`${m}: set_watchpoint on C lvalues: sized by the C type; a value that is no object is refused`, async () => {
    const { agent } = run;
    const origin = await run.global('origin');
    const field = await call(agent, 'set_watchpoint', { variable: 'origin.y', kind: 'write' });
    assert.deepEqual([field.watchpoint.address.offset, field.watchpoint.length], [origin.address.offset + 2, 2]);
    await call(agent, 'clear_watchpoint', { id: field.watchpoint.id });
    const typed = await run.global('typed');
    const element = await call(agent, 'set_watchpoint', { variable: 'typed[2]', kind: 'readwrite' });
    assert.deepEqual([element.watchpoint.address.offset, element.watchpoint.length], [typed.address.offset + 2, 1]);
    await call(agent, 'clear_watchpoint', { id: element.watchpoint.id });
    const refused = await callExpectingError(agent, 'set_watchpoint', { variable: 'counter + 1' }, 'bad_request');
    assert.match(JSON.stringify(refused), /not an object in memory/);
  });

  test(`${m}: read and I/O watchpoints fire on the program's own accesses`, async () => {
    const { agent } = run;
    const { variable, length, line } = subject.read;
    const read = await run.global(variable);
    const rd = await call(agent, 'set_watchpoint', { address: read.address.offset, length, kind: 'read' });
    const hit = await call(agent, 'resume', { wait: true, timeout_ms: 20_000 });
    assert.equal(hit.stop.reason, 'watchpoint');
    assert.equal(hit.location.line, run.marker(line).line, `the line that reads ${variable}`);
    await call(agent, 'clear_watchpoint', { id: rd.watchpoint.id });
    const io = await call(agent, 'set_watchpoint', { address: { space: 'io', offset: 0xfdfe }, kind: 'read' });
    const ioHit = await call(agent, 'resume', { wait: true, timeout_ms: 20_000 });
    assert.equal(ioHit.stop.reason, 'watchpoint');
    assert.equal(ioHit.location?.function, subject.keyReader, 'the key matrix is read there');
    const ioLast = (await call(agent, 'list_watchpoints')).watchpoints[0].last_hit;
    assert.deepEqual([ioLast.access, ioLast.address], ['reading', 0xfdfe]);
    await call(agent, 'clear_watchpoint', { id: io.watchpoint.id });
  });
}
