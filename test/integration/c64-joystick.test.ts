/**
 * The C64 joystick reaching a cc65 program on the built-in C64 (the live-screen fixture shows CIA 1's joystick
 * lines at rows 7 and 8): through the target's joystick feature under the control lease, from the screen panel's
 * joystick mapping (ScreenController messages, as the webview sends them), and the monitor's JOYPORT_SET
 * faithful to VICE: without the I/O simulation device on the port it changes nothing; and agents' vice_joystick.
 * With X64SC naming a real x64sc the same cases run there through the VICE connector (passed on r46200: device 37
 * then JOYPORT_SET reaches $DC00/$DC01 as the cc65 program reads them; without device 37 nothing changes).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { JOYSTICK_FEATURE, JOYSTICK_IDLE, MOUSE_FEATURE } from '../../src/core/input-devices.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { VICE_FEATURE } from '../../src/connectors/vice/vice-target.js';
import { C64_NO_MOUSE } from '../../src/connectors/vice/vice-joystick.js';
import { SessionManager } from '../../src/session/manager.js';
import type { ClientSession } from '../../src/session/types.js';
import { ScreenController } from '../../src/ui/screen-controller.js';
import type { HostMessage } from '../../src/ui/screen-messages.js';
import { buildCc65Program } from '../support/c64-fixture.js';
import { call, callExpectingError, connectHttpClient, startHttpServerOn } from '../mcp/mcp-helpers.js';

const PORT2_CELL = 0x0400 + 7 * 40 + 5;
const PORT1_CELL = 0x0400 + 8 * 40 + 5;

const X64SC = process.env.X64SC;

for (const emulator of ['builtin', ...(X64SC ? ['vice' as const] : [])] as const)
  describe(emulator === 'vice' ? `a real x64sc (${X64SC})` : 'the built-in C64', () => {
    let manager: SessionManager;
    let client: ClientSession;

    before(async () => {
      const dir = await buildCc65Program(join(__dirname, '..', 'fixtures', 'c64', 'live-screen'), ['live.c']);
      manager = new SessionManager({ connectors: CONNECTORS });
      client = manager.start(
        {
          machine: 'c64',
          emulator,
          program: join(dir, 'program.prg'),
          cwd: dir,
          ...(emulator === 'vice' ? { vicePath: X64SC } : {}),
        },
        { kind: 'cli', label: 'joystick test' },
      );
      await client.whenReady(60_000);
      if ((await client.session.status()).state === 'stopped') await client.resume();
    });

    after(async () => {
      await manager?.closeAll();
    });

    /** What the program shows for the port's lines, once it shows `want` (it copies them every loop). */
    async function shown(cell: number, want: number): Promise<number> {
      let last = -1;
      for (let i = 0; i < 100; i++) {
        [last] = await client.session.readMemory({ space: 'cpu', offset: cell }, 1);
        if (last === want) return last;
        await new Promise((r) => setTimeout(r, 20));
      }
      return last;
    }

    test('JOYPORT_SET without the I/O simulation device on the port changes nothing, as on VICE', async () => {
      client.claimControl();
      await client.control(VICE_FEATURE, {}, (v) => v.setJoyport(1, 0x0e));
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(await shown(PORT2_CELL, 0x0e), 0x1f, 'port 2 still idle: the default device is a joystick');
    });

    test('the joystick feature: port 2 up+fire and port 1 left reach the program, active low; release is $1F', async () => {
      await client.control(JOYSTICK_FEATURE, {}, (j) => j.set(2, { ...JOYSTICK_IDLE, up: true, fire: true }));
      assert.equal(await shown(PORT2_CELL, 0x0e), 0x0e, 'up (bit 0) and fire (bit 4) low');
      await client.control(JOYSTICK_FEATURE, {}, (j) => j.set(1, { ...JOYSTICK_IDLE, left: true }));
      assert.equal(await shown(PORT1_CELL, 0x1b), 0x1b, 'left (bit 2) low on port 1');
      await client.control(JOYSTICK_FEATURE, {}, (j) => j.set(2, JOYSTICK_IDLE));
      assert.equal(await shown(PORT2_CELL, 0x1f), 0x1f);
      await client.control(JOYSTICK_FEATURE, {}, (j) => j.set(1, JOYSTICK_IDLE));
      assert.equal(await shown(PORT1_CELL, 0x1f), 0x1f);
      await assert.rejects(
        client.control(JOYSTICK_FEATURE, {}, (j) => j.set(3, JOYSTICK_IDLE)),
        /ports 1 and 2, not 3/,
      );
      client.releaseControl();
      await assert.rejects(
        client.control(JOYSTICK_FEATURE, {}, (j) => j.set(2, JOYSTICK_IDLE)),
        (err: { code?: string }) => err.code === 'no_lease',
      );
    });

    test('the panel: devices offered (joystick ports 1-2, no mouse and why), its joystick mapping reaches the program', async () => {
      const posted: HostMessage[] = [];
      const panel = new ScreenController({ sessions: manager, post: (m) => void posted.push(m) });
      try {
        await panel.handleMessage({ type: 'ready' });
        const devices = posted.find((m) => m.type === 'devices');
        assert.deepEqual(devices && devices.type === 'devices' && [devices.joystick?.ports, devices.mouse], [
          [1, 2],
          false,
        ]);
        assert.equal(devices?.type === 'devices' && devices.mouseUnavailable, C64_NO_MOUSE);
        assert.equal(devices?.type === 'devices' && devices.spriteOutlines, true);
        // while another client holds control the panel's joystick is refused with the way back, nothing set
        client.claimControl();
        await panel.handleMessage({ type: 'joystick', port: 2, state: { ...JOYSTICK_IDLE, down: true } });
        assert.ok(posted.some((m) => m.type === 'status' && /^joystick test has control.*Take back/.test(m.message)));
        assert.equal(await shown(PORT2_CELL, 0x1d), 0x1f);
        await panel.handleMessage({ type: 'take-control' });
        await panel.handleMessage({ type: 'joystick', port: 2, state: { ...JOYSTICK_IDLE, down: true, right: true } });
        assert.equal(await shown(PORT2_CELL, 0x15), 0x15, 'down (bit 1) and right (bit 3) low');
        await panel.handleMessage({ type: 'joystick', port: 2, state: JOYSTICK_IDLE });
        assert.equal(await shown(PORT2_CELL, 0x1f), 0x1f);
        // the mouse: refused with the C64's reason
        posted.length = 0;
        await panel.handleMessage({ type: 'pointer', x: 10, y: 10, buttons: 1 });
        assert.ok(
          posted.some((m) => m.type === 'status' && m.message === C64_NO_MOUSE),
          JSON.stringify(posted),
        );
        await assert.rejects(
          Promise.resolve().then(() =>
            client.session.feature(MOUSE_FEATURE).point({ x: 0, y: 0, width: 1, height: 1, buttons: 0 }),
          ),
          (err: { code?: string }) => err.code === 'unsupported',
        );
      } finally {
        await panel.handleMessage({ type: 'release-control' });
        panel.dispose();
      }
    });

    test('MCP vice_joystick: an agent holds port 2 fire with the lease, the program sees it; without the lease, refused', async () => {
      const http = await startHttpServerOn(manager, { profile: 'vice' });
      const agent = await connectHttpClient(http, 'joystick agent');
      try {
        const sessionId = client.session.id;
        await callExpectingError(agent, 'vice_joystick', { session_id: sessionId, fire: true }, 'no_lease');
        await call(agent, 'claim_control', { session_id: sessionId });
        const held = await call(agent, 'vice_joystick', { session_id: sessionId, port: 2, fire: true, left: true });
        assert.deepEqual([held.port, held.lines_hex], [2, '0b']);
        assert.equal(await shown(PORT2_CELL, 0x0b), 0x0b);
        await call(agent, 'vice_joystick', { session_id: sessionId, port: 2 });
        assert.equal(await shown(PORT2_CELL, 0x1f), 0x1f);
        await call(agent, 'claim_control', { session_id: sessionId, release: true });
      } finally {
        await agent.close().catch(() => undefined);
        await http.close();
      }
    });
  });
