/**
 * The C level in a real VS Code (code-server) with the packaged VSIX, on MAME running the SDCC-built ZX fixture:
 * a conditional breakpoint typed in the editor's breakpoint widget stops only when `col == 5`; a logpoint's
 * `{counter}` lines reach the Debug Console; Set Value from the Variables view changes a parameter; the Disassembly
 * view opened from a call-stack frame shows Z80 instructions with the C source interleaved; Break on Value Change
 * on a global from the Variables view stops when it changes. Screenshots in .test-work/e2e-c-level/. Needs
 * scripts/install-e2e.sh; fails (never skips) without it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildZxFixture, writeZxWorkspace } from '../support/zx-fixture.js';
import {
  contextMenu,
  openFileAtLine,
  runCommand,
  stopDebugging,
  waitUntil,
  withWorkbench,
  type Page,
} from './workbench.js';

/** Texts of the Variables view's rows. */
const variableRows = (page: Page) => page.locator('.debug-variables .monaco-list-row').allInnerTexts();
const variableRow = (page: Page, name: string) =>
  page.locator('.debug-variables .monaco-list-row', { hasText: new RegExp(`^\\s*${name}\\s*[:=]`) }).first();

/** The Debug Console's lines. */
async function consoleLines(page: Page): Promise<string[]> {
  return (await page.locator('.repl .monaco-list-row').allInnerTexts()).map((l) => l.trim());
}

/** A breakpoint typed into the editor's breakpoint widget ("Add Conditional Breakpoint…", "Add Logpoint…"). */
async function widgetBreakpoint(page: Page, file: string, line: number, command: string, text: string, glyph: string) {
  await openFileAtLine(page, file, line);
  await runCommand(page, command);
  await page.locator('.breakpoint-widget').waitFor({ state: 'visible', timeout: 30_000 });
  // Typing before the widget's editor has focus loses the first characters ("nter=0" for "counter={counter}").
  await page.locator('.breakpoint-widget .monaco-editor.focused').waitFor({ state: 'visible', timeout: 30_000 });
  await page.keyboard.type(text);
  await waitUntil('the typed text in the breakpoint widget', 10_000, async () => {
    const shown = (await page.locator('.breakpoint-widget .view-lines').innerText()).replace(/\u00a0/g, ' ').trim();
    return shown === text ? shown : undefined;
  });
  await page.keyboard.press('Enter');
  await page.locator('.breakpoint-widget').waitFor({ state: 'hidden', timeout: 30_000 });
  await page.locator(`.monaco-editor .${glyph}`).first().waitFor({ state: 'visible', timeout: 30_000 });
}

test(
  'VS Code: conditional breakpoint, logpoint output, Set Value, Disassembly view from a frame, Break on Value Change',
  { timeout: 480_000 },
  async (t) => {
    const fx = await buildZxFixture();
    await withWorkbench(
      {
        name: 'e2e-c-level',
        workspace: (ws) => writeZxWorkspace(fx, ws),
      },
      async ({ page, shot }) => {
        // a conditional breakpoint in plot and a logpoint in main's loop, typed in the editor
        const plotBody = fx.markers.plot_body;
        await widgetBreakpoint(
          page,
          'util.c',
          plotBody.line,
          'Debug: Add Conditional Breakpoint...',
          'col == 5',
          'codicon-debug-breakpoint-conditional',
        );
        await widgetBreakpoint(
          page,
          'main.c',
          fx.markers.loop_body.line,
          'Debug: Add Logpoint...',
          'counter={counter}',
          'codicon-debug-breakpoint-log',
        );
        await runCommand(page, 'Debug: Start Debugging');

        await waitUntil('the call stack to show plot ← draw ← main', 120_000, async () => {
          const rows = await page.locator('.debug-call-stack .monaco-list-row .stack-frame').allInnerTexts();
          const names = rows.map((r) => r.trim().split(/\s+/)[0]);
          return names.slice(0, 3).join(' ') === 'plot draw main' ? rows : undefined;
        });
        const col = await waitUntil('col in Variables', 30_000, async () => {
          const rows = await variableRows(page);
          return rows.find((r) => /^\s*col\s*[:=]/.test(r));
        });
        assert.match(col, /^\s*col\s*[:=]\s*5\b/, 'stopped only where the condition holds');
        const logged = await waitUntil('logpoint lines in the Debug Console', 30_000, async () => {
          const lines = (await consoleLines(page)).filter((l) => /^counter=\d+/.test(l));
          return lines.length ? lines : undefined;
        });
        t.diagnostic(`logpoint: ${logged.slice(0, 3).join(' | ')}`);
        await shot('1-conditional-stop-and-logpoint.png');

        // Set Value on the parameter `row` (10): the row shows the new value
        await contextMenu(page, variableRow(page, 'row'), 'Set Value');
        const input = page.locator('.debug-variables .monaco-inputbox input').first();
        await input.waitFor({ state: 'visible', timeout: 30_000 });
        await input.fill('12');
        await page.keyboard.press('Enter');
        await waitUntil(
          'row to show 12',
          30_000,
          async () => (await variableRows(page)).some((r) => /^\s*row\s*[:=]\s*12\b/.test(r)) || undefined,
        );
        await shot('2-set-value.png');

        // the Disassembly view from the `draw` frame: Z80 instructions, the C line of the call interleaved
        const drawFrame = page
          .locator('.debug-call-stack .monaco-list-row .stack-frame', { hasText: /^\s*draw/ })
          .first();
        await drawFrame.click(); // focus the frame, as a user does, then open the view from its context menu
        await contextMenu(page, drawFrame, 'Open Disassembly View');
        const listing = await waitUntil('the Disassembly view with instructions and source', 60_000, async () => {
          const text = (await page.locator('.disassembly-view').allInnerTexts()).join('\n');
          return /\bcall\b/i.test(text) && /plot\(col, row, 0xFF\)/.test(text) ? text : undefined;
        });
        t.diagnostic(`disassembly: ${listing.slice(0, 300).replace(/\s+/g, ' ')}`);
        await shot('3-disassembly-from-frame.png');

        // Break on Value Change on the global `total`, from the Variables view's Globals
        await runCommand(page, 'Remove All Breakpoints');
        await page
          .locator('.debug-variables .monaco-list-row', { hasText: /^\s*Globals\s*$/ })
          .first()
          .click();
        await variableRow(page, 'total').waitFor({ state: 'visible', timeout: 30_000 });
        await contextMenu(page, variableRow(page, 'total'), 'Break on Value Change');
        await runCommand(page, 'Debug: Continue');
        const said = await waitUntil('the data breakpoint stop in the Debug Console', 60_000, async () =>
          (await consoleLines(page)).find((l) => /^Data breakpoint total: /.test(l)),
        );
        t.diagnostic(`data breakpoint: ${said}`);
        assert.match(said, /→/);
        await waitUntil(
          'the call stack to say why it paused',
          30_000,
          async () =>
            (await page.locator('.pane-header', { hasText: /Paused on data breakpoint/ }).count()) > 0 || undefined,
        );
        // the Variables view is refreshed at the stop: `total` shows the value the stop reported
        const now = /→ (\d+)/.exec(said)![1];
        await waitUntil(
          `total to show ${now} in Variables`,
          30_000,
          async () =>
            (await variableRows(page)).some((r) => new RegExp(`^\\s*total\\s*[:=]\\s*${now}\\b`).test(r)) || undefined,
        );
        await shot('4-break-on-value-change.png');

        await stopDebugging(page);
      },
    );
  },
);
