/** Raw abilities 3-7: steps by instruction and by C line, into, over and out, resume and pause; then the check
 * that the run left no breakpoint, watchpoint or held input behind. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { call, callRaw } from '../mcp-helpers.js';
import type { RawRun } from './run.js';

export function stepTests(run: RawRun): void {
  const { subject } = run;
  const m = subject.machine;

  test(`${m}: step, step_over, step_out, step_instruction with a count, resume and pause`, async () => {
    const { agent } = run;
    const at = run.marker(subject.step.line);
    const bp = await call(agent, 'set_breakpoint', { file: basename(at.file), line: at.line });
    await call(agent, 'resume', { wait: true, timeout_ms: 20_000 });
    await call(agent, 'clear_breakpoint', { id: bp.breakpoint.id });
    const start = (await call(agent, 'session_status')).pc;
    const three = await call(agent, 'step_instruction', { count: 3 });
    assert.equal(three.steps, 3);
    assert.notEqual(three.stop.pc, start);
    const over = await call(agent, 'step', { kind: 'over', granularity: 'instruction' });
    assert.equal(over.state, 'stopped');
    const out = await call(agent, 'step', { kind: 'out' });
    assert.equal(out.location.function, subject.step.caller);
    const into = await call(agent, 'step', { kind: 'into' });
    assert.equal(into.state, 'stopped');
    await call(agent, 'resume', { wait: false });
    assert.equal((await call(agent, 'session_status')).state, 'running');
    const paused = await run.stopped();
    assert.equal(paused.stop.reason, 'pause');
  });

  test(`${m}: after everything: no breakpoint, watchpoint or held input is left`, async () => {
    const { agent } = run;
    assert.deepEqual((await call(agent, 'list_breakpoints')).breakpoints, []);
    assert.deepEqual((await call(agent, 'list_watchpoints')).watchpoints, []);
    assert.deepEqual((await call(agent, 'list_held_inputs')).held, []);
    const lines = (await call(agent, 'debugger_command', { command: 'bplist' })).lines.join('\n');
    assert.match(lines, /No breakpoints/);
    const raw = await callRaw(agent, 'debugger_command', { command: 'wplist' });
    assert.match(JSON.stringify(raw.structuredContent), /No watchpoints/);
  });
}
