/**
 * The Getting Started walkthrough opens; F5 from an assembly file in a real VS Code (code-server, headless Chromium) with the packaged VSIX: a
 * workspace holding only the nasm DOS program keyecho.asm (and its include), no launch.json. The file opens in
 * the nasm language; F5 offers no Marketplace search (the debugger is contributed for the assemblers), runs the
 * generated "retro: build dos/keyecho.asm"-style task (nasm into build/) and starts the program in DOSBox, where
 * the call stack lists it as a thread. Screenshots in .test-work/e2e-asm-f5/. Needs scripts/install-e2e.sh.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../support/zx-fixture.js';
import { openFileAtLine, runCommand, stopDebugging, waitUntil, withWorkbench } from './workbench.js';

test(
  'VS Code: F5 from a nasm .asm without launch.json builds it and runs it in DOSBox',
  { timeout: 420_000 },
  async (t) => {
    const com = (ws: string) => join(ws, 'dos', 'build', 'KEYECHO.COM');
    const options = {
      name: 'e2e-asm-f5',
      settings: { 'task.quickOpen.skip': true },
      workspace: (ws: string) => {
        mkdirSync(join(ws, 'dos'));
        for (const f of ['keyecho.asm', 'print.inc'])
          cpSync(join(REPO_ROOT, 'test/fixtures/dos', f), join(ws, 'dos', f));
      },
    };
    await withWorkbench(options, async ({ page, ws, shot }) => {
      // the Getting Started walkthrough opens (Welcome: Open Walkthrough…, then ours) with its steps
      await runCommand(page, 'Welcome: Open Walkthrough...');
      const input = page.locator('.quick-input-widget .quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 30_000 });
      await page
        .locator('.quick-input-widget .monaco-list-row', { hasText: 'Get Started with Retro Debug' })
        .first()
        .click({ timeout: 30_000 });
      const walkthrough = page.locator('.gettingStartedContainer', { hasText: 'Get Started with Retro Debug' }).first();
      await walkthrough.waitFor({ state: 'visible', timeout: 30_000 });
      const steps = (await walkthrough.innerText()).replace(/\s+/g, ' ');
      t.diagnostic(`walkthrough: ${steps.slice(0, 300)}`);
      for (const step of [
        'Check what is installed',
        'Press F5 on a program',
        'Watch and use the screen',
        'Connect an AI agent',
      ])
        assert.ok(steps.includes(step), `step "${step}" in the walkthrough`);
      await shot('0-walkthrough.png');

      await openFileAtLine(page, 'keyecho.asm', 4);
      await page
        .locator('.statusbar-item', { hasText: 'NASM Assembly (DOS)' })
        .first()
        .waitFor({ state: 'visible', timeout: 60_000 });
      assert.equal(existsSync(com(ws)), false);
      await runCommand(page, 'Debug: Start Debugging', 90_000);
      const threads = await waitUntil('the program as a thread in the call stack', 180_000, async () => {
        const marketplace = await page.locator('.quick-input-widget', { hasText: /Marketplace/i }).count();
        assert.equal(marketplace, 0, 'VS Code offered to search the Marketplace for a debugger');
        const rows = await page.locator('.debug-call-stack .monaco-list-row').allInnerTexts();
        return rows.some((r) => /KEYECHO/.test(r)) ? rows : undefined;
      });
      t.diagnostic(`call stack: ${threads.map((r) => r.replace(/\s+/g, ' ')).join(' | ')}`);
      assert.ok(existsSync(com(ws)), 'the generated build task ran nasm before the launch');
      await shot('1-f5-from-asm.png');
      await stopDebugging(page);
    });
  },
);
