/**
 * The Test Explorer in a real VS Code (code-server) with the packaged VSIX: a workspace holding a retro_test.h
 * project (test/fixtures/testing/c64-bad), its source open; "Test: Run All Tests" builds it with cc65 and runs it on
 * the built-in C64, and VS Code shows the failure with expected/actual. "Test: Debug Test at Cursor" on the failing
 * test then debugs it alone in a real session that stops at the failing EXPECT, the Call Stack's focus on the test
 * and its header naming the breakpoint. Screenshots in
 * .test-work/e2e-tests/. Needs scripts/install-e2e.sh.
 */
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../support/zx-fixture.js';
import { findMarkers } from '../support/c64-fixture.js';
import { openFileAtLine, runCommand, stopDebugging, waitUntil, withWorkbench } from './workbench.js';

test(
  'VS Code: Run All Tests runs the C tests headless; the failure shows at its EXPECT; Debug stops there',
  { timeout: 420_000 },
  async () => {
    await withWorkbench(
      {
        name: 'e2e-tests',
        workspace: (ws) =>
          cpSync(join(REPO_ROOT, 'test/fixtures/testing/c64-bad'), join(ws, 'bad'), { recursive: true }),
      },
      async ({ page, ws, shot }) => {
        await openFileAtLine(page, 'bad.c', 15, 60_000);
        // the command is offered once the extension's controller holds a runnable project (found after activation)
        const p = page;
        await waitUntil('"Test: Run All Tests" to be offered', 120_000, async () => {
          try {
            await runCommand(p, 'Test: Run All Tests', 5_000);
            return true;
          } catch {
            await p.keyboard.press('Escape');
            return undefined;
          }
        });
        // the TestMessage, in Test Results and inline at the failing EXPECT (the source says `EXPECT_EQ(10, triple(3))`)
        await page
          .locator('.monaco-workbench', { hasText: /EXPECT_EQ: triple\(3\) == 10: expected 10, got 9/ })
          .first()
          .waitFor({ state: 'visible', timeout: 180_000 });
        await shot('results.png');

        // the Debug profile on b_fails: a real session that runs it alone and stops at its failing EXPECT
        const failLine = (await findMarkers([join(ws, 'bad', 'bad.c')])).fail.line;
        await openFileAtLine(page, 'bad.c', failLine, 30_000);
        await runCommand(page, 'Test: Debug Test at Cursor');
        // stopped in retro_test_failed at the failure; the Call Stack's focus is on the test's frame, at the EXPECT
        const focused = await waitUntil('the focus on test_b_fails at the failing EXPECT', 180_000, async () => {
          const rows = await p.locator('.debug-call-stack .monaco-list-row .stack-frame').allInnerTexts();
          const names = rows.map((r) => r.trim().split(/\s+/)[0]);
          if (names[0] !== 'retro_test_failed' || !names.includes('test_b_fails')) return undefined;
          const chosen = await p
            .locator(
              '.debug-call-stack .monaco-list-row.selected .stack-frame, .debug-call-stack .monaco-list-row.focused .stack-frame',
            )
            .allInnerTexts();
          return chosen.find((r) => r.trim().startsWith('test_b_fails'));
        });
        assert.match(focused, new RegExp(`bad\\.c\\s*${failLine}:`), `the EXPECT's line: ${focused}`);
        // the Call Stack's header says why it stopped: this stop's reason, not the entry stop's before the continue
        const state = await p.locator('.call-stack-state-message').first().innerText({ timeout: 30_000 });
        assert.match(state, /^Paused on breakpoint \(retro_test_failed/, `the Call Stack header: ${state}`);
        await shot('debug.png');
        await stopDebugging(page);
      },
    );
  },
);
