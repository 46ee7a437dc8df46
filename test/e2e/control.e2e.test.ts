/**
 * One control model in a real VS Code (code-server, headless Chromium) on the built-in C64 running the cc65
 * live-screen fixture: the status bar says the user has control; a click on the screen captures the keys
 * (said in the panel), a key typed there reaches the program under the user's own debug session's lease (no
 * Take Control), F1 still opens VS Code's command palette, Esc gives the keys back; then Debug: Pause pauses
 * with no dialog (before, the lease was the panel's and Pause raised a modal with a RetroError stack). The
 * panel's keys are DOM events dispatched on its canvas (the webview sits in nested iframes).
 * Needs scripts/install-e2e.sh; fails (never skips) without it. Screenshots go to .test-work/e2e-control/.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';
import {
  installHoverCell,
  panelFrame,
  readPanel,
  writeLiveScreenWorkspace,
  type HoverCell,
} from '../support/panel-frame.js';
import { openFileAtLine, runCommand, startDebugging, stopDebugging, waitUntil, withWorkbench } from './workbench.js';

test(
  'VS Code: the panel types for the user debug session; F1 and Esc; Pause with no dialog',
  { timeout: 420_000 },
  async (t) => {
    const dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'live-screen'), ['live.c']);
    await withWorkbench(
      { name: 'e2e-control', workspace: (ws) => writeLiveScreenWorkspace(ws, dir) },
      async ({ page, shot }) => {
        await openFileAtLine(page, 'live.c', 1);
        await startDebugging(page);
        const statusItem = page.locator('.statusbar-item', { hasText: 'Retro: you' }).first();
        await statusItem.waitFor({ state: 'visible', timeout: 60_000 });
        await runCommand(page, 'Retro Debug: Show Screen');
        const panel = await waitUntil('the screen panel', 60_000, () => panelFrame(page));
        const running = await waitUntil('a running frame and the control line', 60_000, async () => {
          const p = await readPanel(panel);
          return p.frame > 0 && p.state === 'running' && p.control === 'control: you' ? p : undefined;
        });
        t.diagnostic(`panel: ${running.control}; ${running.focus}`);
        assert.equal(running.focus, 'click the screen to type');
        assert.equal(
          await panel.evaluate(() => document.getElementById('take-control')?.hidden),
          true,
          'no Take Control',
        );

        // a click captures the keys; "x" typed there reaches the program (row 5, column 5) with no Take Control
        await panel.evaluate(() => {
          const canvas = document.getElementById('screen') as HTMLCanvasElement;
          canvas.dispatchEvent(new MouseEvent('click', { bubbles: true }));
          canvas.dispatchEvent(new KeyboardEvent('keydown', { key: 'x', bubbles: true, cancelable: true }));
        });
        assert.equal((await readPanel(panel)).focus, 'typing to the machine · Esc releases');
        await installHoverCell(panel);
        const typed = await waitUntil('the typed key in cell 5, 5', 30_000, async () => {
          await panel.evaluate(() => (window as unknown as HoverCell).hoverCell(5, 5));
          await page.waitForTimeout(200);
          const p = await readPanel(panel);
          return /\$18 'x'/.test(p.inspector) ? p : undefined;
        });
        t.diagnostic(`inspector: ${typed.inspector}; message: ${typed.message}`);
        assert.equal(typed.control, 'control: you');
        await shot('1-typed-for-the-session.png');

        // F1 while the screen has the keys: VS Code's command palette opens (the key is not the machine's)
        // (VS Code's webview script itself marks F1 handled, then hands it to the workbench)
        await panel.evaluate(() =>
          document
            .getElementById('screen')!
            .dispatchEvent(
              new KeyboardEvent('keydown', { key: 'F1', code: 'F1', keyCode: 112, bubbles: true, cancelable: true }),
            ),
        );
        const palette = page.locator('.quick-input-widget .quick-input-box input');
        await palette.waitFor({ state: 'visible', timeout: 30_000 });
        assert.match(await palette.inputValue(), /^>/);
        await shot('2-f1-palette.png');
        await page.keyboard.press('Escape');
        await palette.waitFor({ state: 'hidden', timeout: 30_000 });

        // Esc gives the keys back
        await panel.evaluate(() => {
          const canvas = document.getElementById('screen') as HTMLCanvasElement;
          canvas.focus();
          canvas.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
        });
        assert.equal((await readPanel(panel)).focus, 'click the screen to type');

        // Debug: Pause after typing: paused, no dialog
        await page.locator('.monaco-workbench').click({ position: { x: 500, y: 300 } });
        await runCommand(page, 'Debug: Pause');
        await page
          .locator('.debug-toolbar .codicon-debug-continue')
          .first()
          .waitFor({ state: 'visible', timeout: 60_000 });
        const paused = await waitUntil('the panel to show the stop', 30_000, async () => {
          const p = await readPanel(panel);
          return p.state === 'stopped' ? p : undefined;
        });
        t.diagnostic(`after Pause: ${paused.state}, ${paused.control}`);
        assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no dialog');
        // the shot waits for the Variables view's scopes (it was taken before they came); Locals stays empty here:
        // main's only local, `c`, is declared in a block, and cc65's .dbg has no record of block-scoped locals
        await waitUntil('the scopes in the Variables view', 30_000, async () => {
          const rows = await page.locator('.debug-variables .monaco-list-row').allInnerTexts();
          return rows.some((r) => r.includes('Globals')) ? rows : undefined;
        });
        await shot('3-paused-no-dialog.png');

        // the screen right at a stop: a breakpoint on the line after the program prints a key (the same frame, so the
        // last completed frame does not show it yet); "y" typed into the panel stops there, and the panel's picture
        // shows the "y" drawn at row 5, column 6, with no stale badge, and equals a fresh capture (Refresh)
        const line =
          readFileSync(join(dir, 'live.c'), 'utf8')
            .split('\n')
            .findIndex((l) => l.includes('++keys;')) + 1;
        await openFileAtLine(page, 'live.c', line);
        await page.keyboard.press('F9');
        await runCommand(page, 'Debug: Continue');
        await waitUntil('the panel to show the machine running', 30_000, async () =>
          (await readPanel(panel)).state === 'running' ? true : undefined,
        );
        await panel.evaluate(() => {
          const canvas = document.getElementById('screen') as HTMLCanvasElement;
          canvas.dispatchEvent(new MouseEvent('click', { bubbles: true }));
          canvas.dispatchEvent(new KeyboardEvent('keydown', { key: 'y', bubbles: true, cancelable: true }));
        });
        const atBreakpoint = await waitUntil('the stop at the breakpoint in the panel', 60_000, async () => {
          const p = await readPanel(panel);
          return p.state === 'stopped' ? p : undefined;
        });
        await waitUntil('the call stack at the breakpoint line', 30_000, async () => {
          const rows = await page.locator('.debug-call-stack .monaco-list-row .stack-frame').allInnerTexts();
          return rows.some((r) => r.includes(`live.c`) && r.includes(String(line))) ? rows : undefined;
        });
        const picture = () =>
          panel.evaluate(() => {
            const canvas = document.getElementById('screen') as HTMLCanvasElement;
            const g = canvas.getContext('2d')!;
            const all = g.getImageData(0, 0, canvas.width, canvas.height).data;
            let hash = 0;
            for (let i = 0; i < all.length; i++) hash = (hash * 31 + all[i]) | 0;
            // cell (6, 5) of the inner text area: 32 + 6 * 8, 35 + 5 * 8 in the bordered 384x272 frame
            const cell = g.getImageData(32 + 48, 35 + 40, 8, 8).data;
            const colours = new Set<number>();
            for (let i = 0; i < cell.length; i += 4) colours.add((cell[i] << 16) | (cell[i + 1] << 8) | cell[i + 2]);
            return { hash, colours: colours.size, frame: canvas.dataset.frame, source: canvas.dataset.source };
          });
        const stopPicture = await picture();
        t.diagnostic(`at the breakpoint: ${JSON.stringify(stopPicture)}, stale badge ${atBreakpoint.stale}`);
        assert.equal(stopPicture.colours, 2, 'the "y" typed just before the stop is drawn in the picture');
        assert.equal(atBreakpoint.stale, false, 'no stale badge: the picture is the stopped machine');
        const drawn = () => panel.evaluate(() => Number(document.getElementById('screen')!.dataset.drawn ?? 0));
        const before = await drawn();
        await panel.evaluate(() => (document.getElementById('refresh') as HTMLButtonElement).click());
        await waitUntil('a fresh capture drawn', 30_000, async () => ((await drawn()) > before ? true : undefined));
        const fresh = await picture();
        assert.equal(fresh.hash, stopPicture.hash, 'the picture at the stop equals a fresh capture');
        await shot('4-breakpoint-picture.png');

        await stopDebugging(page);
      },
    );
  },
);
