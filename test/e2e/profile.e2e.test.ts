/**
 * "Retro Debug: Profile" in a real VS Code (code-server) with the packaged VSIX: a workspace holding
 * examples/c64-demo, demo.c open with a breakpoint where it asks for a key; the command builds it with cc65 and
 * profiles it on the built-in C64 from its start to that breakpoint, then VS Code shows one code lens per C function, the hot lines' cycles after their lines, and the flame graph webview,
 * whose frame click opens the function's header line. Screenshots in .test-work/e2e-profile/ (docs/profiling.md
 * shows them). Needs scripts/install-e2e.sh.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../support/zx-fixture.js';
import { openFileAtLine, runCommand, runCommandWhenOffered, waitUntil, withWorkbench, type Page } from './workbench.js';

const DEMO = join(REPO_ROOT, 'examples', 'c64-demo');

/** The names on the webview's flame frames, when the flame graph is drawn. */
async function flameFrames(page: Page): Promise<string[] | undefined> {
  for (const frame of page.frames()) {
    const names = await frame
      .evaluate(() =>
        Array.from(document.querySelectorAll('#flame g.frame')).map((g) => (g as SVGGElement).dataset.name ?? ''),
      )
      .catch(() => undefined);
    if (names?.length) return names;
  }
  return undefined;
}

test(
  'VS Code: Profile shows a lens per function, hot lines and a flame graph that opens the source',
  { timeout: 420_000 },
  async () => {
    const source = readFileSync(join(DEMO, 'demo.c'), 'utf8').split('\n');
    const header = (name: string) => source.findIndex((l) => new RegExp(`^\\w[\\w ]* ${name}\\(`).test(l)) + 1;
    await withWorkbench(
      {
        name: 'e2e-profile',
        workspace: (ws) => cpSync(DEMO, join(ws, 'demo'), { recursive: true }),
        settings: { 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
      },
      async ({ page, shot }) => {
        const stopLine = source.findIndex((l) => l.includes('PRESS A KEY')) + 1;
        await openFileAtLine(page, 'demo.c', stopLine, 60_000);
        await page.keyboard.press('F9');
        await page.locator('.codicon-debug-breakpoint').first().waitFor({ state: 'visible', timeout: 30_000 });
        // offered once the extension is active
        const p = page;
        await runCommandWhenOffered(p, 'Retro Debug: Profile');
        const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Until a breakpoint' }).first();
        await row.waitFor({ state: 'visible', timeout: 30_000 });
        await row.click({ timeout: 30_000 });

        // the lenses: one per C function of demo.c (the lens's tooltip is its function's name)
        const lenses = page.locator('.monaco-editor .codelens-decoration a', { hasText: /cycles incl/ });
        await lenses.first().waitFor({ state: 'visible', timeout: 180_000 });
        const titles = await waitUntil('a lens on each function', 30_000, async () => {
          const texts = await lenses.allInnerTexts();
          return texts.length >= 2 ? texts : undefined;
        });
        assert.equal(titles.length, 2, `one lens per function: ${titles.join(' | ')}`);
        assert.ok(
          titles.some((t) => / · 8 calls$/.test(t)),
          `square is called 8 times: ${titles.join(' | ')}`,
        );
        assert.ok(
          titles.some((t) => / · 1 call$/.test(t)),
          `main once: ${titles.join(' | ')}`,
        );
        // the hot lines: their cycles after the line (VS Code draws the text as a CSS ::after of a span)
        const after = await waitUntil('the hot lines', 30_000, async () => {
          for (const frame of p.frames()) {
            const texts = await frame
              .evaluate(() =>
                Array.from(document.querySelectorAll('.monaco-editor .view-lines span'))
                  .map((s) => getComputedStyle(s, '::after').content)
                  .filter((c) => /cycles/.test(c)),
              )
              .catch(() => []);
            if (texts.length) return texts;
          }
          return undefined;
        });
        assert.ok(
          after.every((t) => /^"\s*\d[\d,]* cycles \(\d+\.\d%\)"$/.test(t)),
          after.join(' | '),
        );

        const names = await waitUntil('the flame graph frames', 60_000, () => flameFrames(p));
        assert.equal(names[0], '(root)');
        assert.ok(names.includes('main') && names.includes('square'), names.join(', '));
        assert.ok(!names.includes('cgetc'), `the run stopped at the breakpoint, before cgetc: ${names.join(', ')}`);
        await page
          .locator('.statusbar-item', { hasText: `reached demo.c:${stopLine}` })
          .first()
          .waitFor({ state: 'visible', timeout: 30_000 });
        await page.keyboard.press('Control+B'); // the side bar closed: room for the editor and the flame graph
        await page.waitForTimeout(1_000);
        await shot('profile.png');

        // a frame click opens its function's header: move away first, then click square's frame
        await openFileAtLine(page, 'demo.c', header('main') + 5, 30_000);
        let clicked = false;
        for (const frame of page.frames())
          clicked ||= await frame
            .evaluate(() => {
              const g = document.querySelector('#flame g.frame[data-name="square"]');
              g?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
              return !!g;
            })
            .catch(() => false);
        assert.ok(clicked, 'the flame graph has a square frame');
        await page
          .locator('.statusbar-item', { hasText: new RegExp(`^Ln ${header('square')}, Col 1$`) })
          .first()
          .waitFor({ state: 'visible', timeout: 30_000 });

        await runCommand(page, 'Retro Debug: Clear Profile', 30_000);
        await lenses.first().waitFor({ state: 'detached', timeout: 30_000 });
      },
    );
  },
);
