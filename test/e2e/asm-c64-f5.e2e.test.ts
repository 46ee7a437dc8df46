/**
 * F5 from an ACME and from a 64tass source in a real VS Code (code-server, headless Chromium) with the packaged VSIX:
 * the example folder (examples/c64-acme, examples/c64-64tass) opened as the workspace, no launch.json. The main
 * source opens in its assembler's language; a click in the gutter sets a breakpoint on the line calling the border
 * routine; F5 runs the generated build task (Debian's acme / 64tass into build/) and starts the program on the built-in
 * C64, which stops at its entry label, then at the breakpoint after Continue: the editor's current line is the
 * breakpoint's, the Call Stack names the label. Step Into opens the routine in the included file. Screenshots in
 * .test-work/e2e-c64-acme/ and e2e-c64-64tass/. Needs scripts/install-e2e.sh.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { findMarkers } from '../support/source-build.js';
import { REPO_ROOT } from '../support/zx-fixture.js';
import {
  clickGutter,
  openFileAtLine,
  runCommand,
  stopDebugging,
  waitUntil,
  withWorkbench,
  type Page,
} from './workbench.js';

const ASSEMBLERS = [
  { dir: 'c64-acme', language: 'ACME Assembly (C64)', main: 'hello.a', included: 'border.a' },
  { dir: 'c64-64tass', language: '64tass Assembly (C64)', main: 'hello.asm', included: 'border.asm' },
];

/** The Call Stack's frame rows, whitespace folded. */
async function frames(page: Page): Promise<string[]> {
  const rows = await page.locator('.debug-call-stack .monaco-list-row .stack-frame').allInnerTexts();
  return rows.map((r) => r.replace(/\s+/g, ' ').trim());
}

/** Waits for a stop whose top frame is `label` in `file` at `line`, and for the editor to show that line as current. */
async function stoppedAt(page: Page, label: string, file: string, line: number): Promise<string[]> {
  const rows = await waitUntil(`the stop at ${label} (${file}:${line})`, 120_000, async () => {
    const now = await frames(page);
    return now[0]?.startsWith(`${label} `) && now[0].includes(`${file} ${line}:`) ? now : undefined;
  });
  await page.locator(`.tab.active[aria-label^="${file}"]`).waitFor({ state: 'visible', timeout: 30_000 });
  await waitUntil(`line ${line} as the editor's current line`, 30_000, async () => {
    const current = await page.locator('.monaco-editor .debug-top-stack-frame-line').count();
    const active = await page.locator('.monaco-editor .line-numbers.active-line-number').allInnerTexts();
    return current > 0 && active.map((a) => a.trim()).includes(String(line)) ? true : undefined;
  });
  return rows;
}

for (const asm of ASSEMBLERS) {
  test(
    `VS Code: F5 from a ${asm.language} source without launch.json builds it, stops at a gutter breakpoint, steps`,
    { timeout: 420_000 },
    async (t) => {
      const example = join(REPO_ROOT, 'examples', asm.dir);
      const markers = await findMarkers([join(example, asm.main), join(example, asm.included)]);
      const options = {
        name: `e2e-${asm.dir}`,
        settings: { 'task.quickOpen.skip': true },
        workspace: (ws: string) => cpSync(example, ws, { recursive: true }),
      };
      await withWorkbench(options, async ({ page, ws, shot }) => {
        const prg = join(ws, 'build', 'hello.prg');
        await openFileAtLine(page, asm.main, markers.call.line);
        await page
          .locator('.statusbar-item', { hasText: asm.language })
          .first()
          .waitFor({ state: 'visible', timeout: 60_000 });
        await clickGutter(page, markers.call.line);
        await page.locator('.monaco-editor .codicon-debug-breakpoint').first().waitFor({ state: 'visible' });
        assert.equal(await page.locator('.monaco-editor .codicon-debug-breakpoint').count(), 1, 'one breakpoint');
        assert.equal(existsSync(prg), false);

        await runCommand(page, 'Debug: Start Debugging', 90_000);
        // the entry: the label the BASIC stub's SYS goes to, on the line before the print loop
        const entry = await stoppedAt(page, 'start', asm.main, markers.print.line - 1);
        t.diagnostic(`entry: ${entry.join(' | ')}`);
        assert.ok(existsSync(prg), 'the generated build task ran the assembler before the launch');
        await runCommand(page, 'Debug: Continue');
        const hit = await stoppedAt(page, 'printed', asm.main, markers.call.line);
        t.diagnostic(`breakpoint: ${hit.join(' | ')}`);
        await shot('1-breakpoint.png');

        // Step Into the JSR: the routine's first line in the included file, the caller below it
        await runCommand(page, 'Debug: Step Into');
        const inside = await stoppedAt(page, 'border_up', asm.included, markers.count.line);
        t.diagnostic(`stepped: ${inside.join(' | ')}`);
        assert.ok(inside[1]?.startsWith('printed '), `the caller below: ${inside.join(' | ')}`);
        await shot('2-stepped-into.png');
        await stopDebugging(page);
      });
    },
  );
}
