/**
 * An agent holds the lease while the user looks, in a real VS Code (code-server, headless Chromium) on the built-in
 * C64 running the cc65 live-screen fixture under the user's own debug session: a real MCP client, connected to the
 * extension's embedded server with the secret from the discovery file as an agent would, takes control and runs
 * to a breakpoint, steps, runs on. The status bar names the agent; the user's typing in the panel and Pause (the
 * toolbar and the command palette) each get one sentence with the action, never a modal dialog or a stack; one
 * click on the status-bar item takes control back, and the agent's next mutation is refused with a typed error.
 * Needs scripts/install-e2e.sh; fails (never skips) without it. Screenshots go to .test-work/e2e-lease/.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';
import { panelFrame, readPanel, writeLiveScreenWorkspace } from '../support/panel-frame.js';
import { connectAgent, discoveredServer } from '../support/mcp-agent.js';
import {
  openFileAtLine,
  runCommand,
  startDebugging,
  stopDebugging,
  waitUntil,
  withWorkbench,
  type Page,
} from './workbench.js';

const AGENT = 'lease-agent';

type ToolReply = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: { text?: string }[] };
const call = (agent: Client, name: string, args: Record<string, unknown> = {}) =>
  agent.callTool({ name, arguments: args }) as Promise<ToolReply>;

/** A tool call that must succeed: its structured data. */
async function ok(agent: Client, name: string, args: Record<string, unknown> = {}) {
  const reply = await call(agent, name, args);
  assert.ok(!reply.isError, `${name}: ${reply.content?.map((c) => c.text).join(' ')}`);
  return reply.structuredContent ?? {};
}

/** The one notification toast whose text matches, its text and buttons; no dialog anywhere. */
async function toastSaying(page: Page, pattern: RegExp) {
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: pattern }).first();
  await toast.waitFor({ state: 'visible', timeout: 30_000 });
  const text = (await toast.locator('.notification-list-item-message').innerText()).trim();
  const buttons = await toast.locator('.notification-list-item-buttons-container .monaco-button').allInnerTexts();
  assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no modal dialog');
  return { text, buttons };
}

/** One sentence a person reads: one line, one full stop at the end, no error class or stack frame. */
function assertOneSentence(text: string): void {
  assert.doesNotMatch(text, /\n|RetroError|\bat \S+ \(|\.js:\d+/, `no stack: ${text}`);
  assert.equal(text.replace(/\.$/, '').includes('. '), false, `one sentence: ${text}`);
}

test(
  'VS Code: an agent holds the lease while the user looks; one sentence for the user; one click takes it back',
  { timeout: 480_000 },
  async (t) => {
    let agent: Client | undefined;
    const dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'live-screen'), ['live.c']);
    const source = readFileSync(join(dir, 'live.c'), 'utf8').split('\n');
    const animateLine = source.findIndex((l) => l.includes('POKE(0x0400 + 20, tick++)')) + 1;
    try {
      await withWorkbench({ name: 'e2e-lease', workspace: (ws) => writeLiveScreenWorkspace(ws, dir) }, async (wb) => {
        const { page, shot } = wb;
        await openFileAtLine(page, 'live.c', 1);
        await startDebugging(page);
        await page.locator('.statusbar-item', { hasText: 'Retro: you' }).first().waitFor({ timeout: 60_000 });
        await runCommand(page, 'Retro Debug: Show Screen');
        const panel = await waitUntil('the screen panel', 60_000, () => panelFrame(page));

        // the agent finds the server as an agent does (discovery file, secret) and connects by its own name
        await runCommand(page, 'Retro Debug: Show MCP Connection');
        const server = await discoveredServer(wb.server.root);
        agent = await connectAgent(server, AGENT);
        await runCommand(page, 'Notifications: Clear All Notifications');

        // asking without take_over is refused with the holder named (the user's debug session)
        const asked = await call(agent, 'claim_control');
        const askedError = asked.structuredContent?.error as { code: string; message: string };
        assert.equal(asked.isError, true);
        assert.equal(askedError.code, 'lease_held');
        assert.match(askedError.message, /VS Code debug session/);

        // the agent takes control; the machine runs into its breakpoint; it steps a line, clears it and runs on
        await ok(agent, 'claim_control', { take_over: true });
        const bp = (await ok(agent, 'set_breakpoint', { file: 'live.c', line: animateLine })) as {
          breakpoint: { id: number };
        };
        const hit = (await ok(agent, 'wait_for_stop', { timeout_ms: 30_000 })) as { location?: { line: number } };
        assert.equal(hit.location?.line, animateLine, 'the agent stopped at its breakpoint');
        const stepped = (await ok(agent, 'step', { kind: 'over' })) as { location?: { line: number } };
        assert.equal(stepped.location?.line, animateLine + 2, 'the agent stepped over one C line');
        await ok(agent, 'clear_breakpoint', { id: bp.breakpoint.id });
        await ok(agent, 'resume');

        // the status bar names the agent by its client name; the panel says so too
        const agentItem = page.locator('.statusbar-item', { hasText: `Retro: agent ${AGENT}` }).first();
        await agentItem.waitFor({ state: 'visible', timeout: 30_000 });
        const status = await waitUntil('the panel to name the agent and run', 30_000, async () => {
          const p = await readPanel(panel);
          return p.control.includes(AGENT) && p.state === 'running' ? p : undefined;
        });
        t.diagnostic(`status bar: ${await agentItem.innerText()}; panel: ${status.control}`);
        await shot('1-agent-holds.png');

        // the user types into the panel: one sentence with the action, and the Take back button
        await panel.evaluate(() => {
          const canvas = document.getElementById('screen') as HTMLCanvasElement;
          canvas.dispatchEvent(new MouseEvent('click', { bubbles: true }));
          canvas.dispatchEvent(new KeyboardEvent('keydown', { key: 'x', bubbles: true, cancelable: true }));
        });
        const typed = await waitUntil('the panel to say who has control', 30_000, async () => {
          const p = await readPanel(panel);
          return p.message.includes(AGENT) ? p : undefined;
        });
        t.diagnostic(`panel after typing: ${typed.message}`);
        assertOneSentence(typed.message);
        assert.match(typed.message, /Take back/);
        assert.equal(await panel.evaluate(() => document.getElementById('take-control')?.hidden), false);
        await panel.evaluate(() =>
          document
            .getElementById('screen')!
            .dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true })),
        );
        await shot('2-typing-refused.png');

        // Pause from the debug toolbar, then from the command palette: a notification, no dialog, still running
        await page.locator('.monaco-workbench').click({ position: { x: 500, y: 300 } });
        const refusal = new RegExp(`Control is held by MCP client ${AGENT}`);
        await page.locator('.debug-toolbar .codicon-debug-pause').first().click();
        const fromToolbar = await toastSaying(page, refusal);
        t.diagnostic(`Pause (toolbar): ${fromToolbar.text} [${fromToolbar.buttons.join(', ')}]`);
        assertOneSentence(fromToolbar.text);
        assert.deepEqual(fromToolbar.buttons, ['Take Back Control']);
        await shot('3-pause-refused.png');
        await runCommand(page, 'Notifications: Clear All Notifications');
        await runCommand(page, 'Debug: Pause');
        const fromPalette = await toastSaying(page, refusal);
        assertOneSentence(fromPalette.text);
        await page.waitForTimeout(1000); // a dialog would have come with the refusal
        assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no modal dialog after the palette');
        assert.equal((await readPanel(panel)).state, 'running', 'the refused Pause left the agent running');
        await page.locator('.debug-toolbar .codicon-debug-pause').first().waitFor({ state: 'visible' });
        await runCommand(page, 'Notifications: Clear All Notifications');

        // one click on the status-bar item takes control back
        await agentItem.click();
        await page.locator('.statusbar-item', { hasText: 'Retro: you' }).first().waitFor({ timeout: 30_000 });
        await shot('4-taken-back.png');

        // the agent's next mutation is refused with a typed error it can read
        const refused = await call(agent, 'pause');
        const error = refused.structuredContent?.error as { code: string; message: string };
        t.diagnostic(`agent's pause: ${JSON.stringify(error)}`);
        assert.equal(refused.isError, true);
        assert.equal(error.code, 'lease_held');
        assert.match(error.message, /VS Code debug session/);

        // and the user's Pause now pauses
        await page.locator('.debug-toolbar .codicon-debug-pause').first().click();
        await page
          .locator('.debug-toolbar .codicon-debug-continue')
          .first()
          .waitFor({ state: 'visible', timeout: 60_000 });
        assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no dialog');
        await shot('5-user-paused.png');
        await stopDebugging(page);
      });
    } finally {
      await agent?.close().catch(() => undefined);
    }
  },
);
