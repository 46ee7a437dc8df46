/**
 * The Test Explorer in a real VS Code (code-server) with the packaged VSIX: a workspace holding a retro_test.h
 * project (test/fixtures/testing/c64-bad), its source open; "Test: Run All Tests" builds it with cc65 and runs it on
 * the built-in C64, and VS Code shows the failure with expected/actual. Screenshots in
 * .test-work/e2e-tests/. Needs scripts/install-e2e.sh.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  openFileAtLine,
  openWorkbench,
  runCommand,
  waitUntil,
  type Page,
  type Workbench,
} from '../support/workbench.js';
import { REPO_ROOT } from '../support/zx-fixture.js';

const OUT = join(REPO_ROOT, '.test-work', 'e2e-tests');

test(
  'VS Code: Run All Tests runs the C tests headless; the failure shows at its EXPECT',
  { timeout: 420_000 },
  async () => {
    let wb: Workbench | undefined;
    let page: Page | undefined;
    try {
      wb = await openWorkbench({
        out: OUT,
        workspace: (ws) =>
          cpSync(join(REPO_ROOT, 'test/fixtures/testing/c64-bad'), join(ws, 'bad'), { recursive: true }),
      });
      page = wb.page;
      await page.locator('.monaco-workbench').click({ position: { x: 700, y: 450 } });
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
      await page.screenshot({ path: join(OUT, 'results.png') });
    } catch (err) {
      await page?.screenshot({ path: join(OUT, 'failed.png') }).catch(() => undefined);
      throw err;
    } finally {
      await wb?.close();
    }
  },
);
