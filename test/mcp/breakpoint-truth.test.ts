// Breakpoint truth after lifecycle events on real MAME (spectrum): a hard reset left every breakpoint armed twice
// (MAME keeps its own over the reset and the session armed them all again), a raw `bpclear` left list_breakpoints
// listing one the emulator no longer held. After each, MAME's own bplist and list_breakpoints agree, each fires once.
// Also: a stale generation is refused by every breakpoint and watchpoint tool.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildZxFixture } from '../support/zx-fixture.js';
import { ToolDriver } from '../support/dos-fixture.js';

const d = new ToolDriver();
after(() => d.close());

/** MAME's own breakpoints (bplist lines such as `1 @ 0146`): its id and address. */
async function mameBreakpoints(session_id: string): Promise<{ id: number; address: number }[]> {
  const { lines } = await d.call<{ lines: string[] }>('debugger_command', { session_id, command: 'bplist' });
  return lines.flatMap((l) => {
    const m = /^\s*(\d+)\s*D?\s*@\s*([0-9A-Fa-f]+)/.exec(l);
    return m ? [{ id: Number(m[1]), address: parseInt(m[2], 16) }] : [];
  });
}

test('spectrum: hard reset and raw bpclear leave one arm per listed breakpoint; each fires once; stale generation refused', async () => {
  const zx = await buildZxFixture();
  const started = await d.call('start_session', { machine: 'spectrum', emulator: 'mame', program: zx.rom, wait: true });
  const session_id = started.session_id as string;
  try {
    const names = ['loop_body', 'call_draw', 'call_shade'];
    const bps: { id: number; address: number }[] = [];
    for (const name of names) {
      const { file, line } = zx.markers[name];
      const r = await d.call('set_breakpoint', { session_id, file, line });
      bps.push({ id: r.breakpoint.id, address: r.breakpoint.address.offset as number });
    }
    const agree = async (what: string) => {
      const listed = (await d.call('list_breakpoints', { session_id })).breakpoints as {
        id: number;
        verified: boolean;
      }[];
      assert.deepEqual(
        listed.map((b) => [b.id, b.verified]),
        bps.map((b) => [b.id, true]),
        what,
      );
      const held = await mameBreakpoints(session_id);
      assert.equal(held.length, bps.length, `${what}: MAME holds ${JSON.stringify(held)}`);
      return held;
    };
    // each fires once a turn of the loop, in order, naming exactly its own breakpoint
    const turn = async (what: string) => {
      for (const bp of bps) {
        const r = await d.call('resume', { session_id, wait: true });
        assert.deepEqual(r.stop?.breakpoint_ids, [bp.id], `${what}: ${JSON.stringify(r.stop)}`);
      }
    };
    await d.call('claim_control', { session_id });
    await d.call('claim_raw_lease', { session_id });
    await agree('before');
    await turn('before the reset');

    // the reset reaches the session as an event after the command's reply: wait for it (its generation)
    const reset = new Promise<void>((resolve) => {
      const off = d.manager.get(session_id).onEvent(({ event }) => {
        if (event.type === 'generation' && event.reason === 'hard reset') resolve(off());
      });
    });
    await d.call('debugger_command', { session_id, command: 'hardreset' });
    await reset;
    await agree('after a hard reset');
    await turn('after the hard reset');

    const held = await agree('before bpclear');
    const victim = held.find((h) => h.address === bps[1].address);
    assert.ok(victim, JSON.stringify(held));
    await d.call('debugger_command', { session_id, command: `bpclear ${victim!.id}` });
    await agree('after a raw bpclear');
    await turn('after the raw bpclear');

    // a stale generation is refused by every breakpoint and watchpoint tool, naming the current one
    const { generation } = await d.call('session_status', { session_id });
    const stale = { session_id, generation: (generation as number) - 1 };
    const { file, line } = zx.markers.fill_call;
    for (const [tool, args] of [
      ['set_breakpoint', { file, line }],
      ['clear_breakpoint', { id: bps[0].id }],
      ['set_watchpoint', { address: '0x5C00', length: 1 }],
      ['clear_watchpoint', { id: 1 }],
    ] as const) {
      const e = await d.fail(tool, { ...stale, ...args });
      assert.equal(e.code, 'stale_generation', `${tool}: ${e.message}`);
      assert.match(e.message, new RegExp(String(generation)), tool);
    }
    await agree('after the refused calls');

    for (const bp of bps) await d.call('clear_breakpoint', { session_id, id: bp.id });
    bps.length = 0;
    assert.deepEqual(await agree('all cleared'), []);
    await d.call('resume', { session_id });
    const paused = await d.call('pause', { session_id });
    assert.equal(paused.stop?.reason, 'pause', JSON.stringify(paused.stop));
  } finally {
    await d.call('stop_session', { session_id });
  }
});
