/**
 * The screen panel's pointer as a DOS program's mouse, on the real (native) DOSBox running the nasm-built
 * MOUSE.COM fixture (its INT 33h handler words, the profile naming them): before the profile the panel says
 * there is no mouse and why; with it, a pointer press and release at a quarter across and half down the frame
 * reaches the program as a click at INT 33h (160, 100), whatever size the panel's frame is.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ScreenController } from '../../src/ui/screen-controller.js';
import type { HostMessage } from '../../src/ui/screen-messages.js';
import { DOS_NO_MOUSE_WORDS } from '../../src/connectors/dosbox/dos-mouse.js';
import { buildDosFixtures, mouseProfile, ToolDriver, until, type DosFixtures } from '../support/dos-fixture.js';

let fx: DosFixtures;
let d: ToolDriver;
before(async () => {
  fx = await buildDosFixtures();
  d = new ToolDriver();
});
after(() => d?.close());

const screenText = async (sid: string) =>
  ((await d.call('dosbox_read_screen', { session_id: sid })).lines as string[]).join('\n');

test('DOS: the panel pointer clicks through the INT 33h words of the profile', { timeout: 120_000 }, async () => {
  const mo = fx.programs.mouse;
  const sid = (await d.call('dosbox_launch', { program: mo.com, backend: 'native' })).session_id as string;
  await until('mouse banner', async () => (await screenText(sid)).includes('click me'), 30_000);
  const posted: HostMessage[] = [];
  const panel = new ScreenController({ sessions: d.manager, post: (m) => void posted.push(m), timeoutMs: 30_000 });
  try {
    await panel.handleMessage({ type: 'ready' });
    await until(
      'a frame and the devices',
      async () => posted.some((m) => m.type === 'raw') && posted.some((m) => m.type === 'devices'),
      30_000,
    );
    const before = posted.find((m) => m.type === 'devices');
    assert.deepEqual(before?.type === 'devices' && [before.mouse, before.mouseUnavailable], [
      false,
      DOS_NO_MOUSE_WORDS,
    ]);
    await d.call('dosbox_load_profile', {
      session_id: sid,
      profile: mouseProfile(mo),
    });
    posted.length = 0;
    await panel.handleMessage({ type: 'refresh' });
    await until('the devices again', async () => posted.some((m) => m.type === 'devices'), 30_000);
    const after = posted.find((m) => m.type === 'devices');
    assert.equal(after?.type === 'devices' && after.mouse, true);
    const raw = posted.find((m) => m.type === 'raw') ?? (await waitRaw(posted));
    if (raw.type !== 'raw') return assert.fail('a frame');
    await panel.handleMessage({ type: 'take-control' });
    const x = raw.width / 4;
    const y = raw.height / 2;
    // as the webview does while a button is held: the point repeated (the handler keeps overwriting the words)
    for (let i = 0; i < 8; i++) {
      await panel.handleMessage({ type: 'pointer', x, y, buttons: 1 });
      await new Promise((r) => setTimeout(r, 40));
    }
    for (let i = 0; i < 4; i++) {
      await panel.handleMessage({ type: 'pointer', x, y, buttons: 0 });
      await new Promise((r) => setTimeout(r, 40));
    }
    await until('click line', async () => /click 0001 at 00A0,0064/.test(await screenText(sid)), 20_000);
    assert.equal((await d.call('dosbox_read', { session_id: sid, address: 'clicks' })).value, '1');
  } finally {
    await panel.handleMessage({ type: 'release-control' });
    panel.dispose();
    await d.call('stop_session', { session_id: sid }).catch(() => undefined);
  }
});

async function waitRaw(posted: HostMessage[]): Promise<HostMessage> {
  await until('a frame', async () => posted.some((m) => m.type === 'raw'), 30_000);
  return posted.find((m) => m.type === 'raw')!;
}
