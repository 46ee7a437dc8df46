/**
 * The editor around the debugger in a real VS Code (code-server) with the packaged VSIX
 * installed: a workspace holding the C64 demo and a cc65 project with a ca65 helper, no
 * launch.json. F5 on the demo runs the generated "retro: build c64-demo" task first (the
 * outputs do not exist before) and stops at main on the built-in C64; the ca65 file opens
 * in the ca65 language and hovering `$D020` shows EXTCOL with the live value read from the
 * stopped session. With the user's own demo.dbg beside F5's build/, demo.c's size lenses show once each. A function
 * breakpoint on cc65's runtime `tosmula0` stops in it: the Call Stack names it, square's `n` reads through it, and the Disassembly view opens by itself (the stop's frame has no source). Screenshots in .test-work/e2e-editor/. Needs scripts/install-e2e.sh.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../support/zx-fixture.js';
import { openFileAtLine, runCommand, stopDebugging, waitUntil, withWorkbench } from './workbench.js';

test(
  'VS Code: F5 without launch.json builds then debugs the C64 demo; ca65 hover on $D020 with the live value',
  { timeout: 420_000 },
  async (t) => {
    const prg = (ws: string) => join(ws, 'c64-demo', 'build', 'c64-demo.prg');
    await withWorkbench(
      {
        name: 'e2e-editor',
        settings: { 'task.quickOpen.skip': true },
        workspace: (ws) => {
          cpSync(join(REPO_ROOT, 'examples/c64-demo'), join(ws, 'c64-demo'), { recursive: true });
          // the user's own build beside the sources: F5's build/ then makes a second .dbg of the same file
          execFileSync('cl65', ['-t', 'c64', '-g', '-Wl', '--dbgfile,demo.dbg', '-o', 'demo.prg', 'demo.c'], {
            cwd: join(ws, 'c64-demo'),
          });
          cpSync(join(REPO_ROOT, 'test/fixtures/c64/asmproj'), join(ws, 'asmproj'), { recursive: true });
          assert.equal(existsSync(prg(ws)), false);
        },
      },
      async ({ page, ws, shot }) => {
        // F5 ("Debug: Start Debugging") with the demo's C file active and no launch.json
        await openFileAtLine(page, 'demo.c', 1);
        await runCommand(page, 'Debug: Start Debugging', 90_000);
        const frames = await waitUntil('the call stack to show main on the built-in C64', 180_000, async () => {
          const rows = await page.locator('.debug-call-stack .monaco-list-row .stack-frame').allInnerTexts();
          return rows.some((r) => r.trim().startsWith('main')) ? rows : undefined;
        });
        t.diagnostic(`call stack: ${frames.map((f) => f.replace(/\s+/g, ' ')).join(' | ')}`);
        assert.ok(existsSync(prg(ws)), 'the generated build task ran before the launch and wrote the .prg');
        assert.ok(existsSync(join(ws, 'c64-demo', 'build', 'c64-demo.dbg')));
        await shot('1-f5-built-and-stopped.png');

        // code lenses counted once: two debug infos describe demo.c (demo.dbg and build/c64-demo.dbg), and each of
        // its two functions gets one size lens
        const lenses = await waitUntil('the size lenses of demo.c', 60_000, async () => {
          const texts = await page.locator('.monaco-editor .codelens-decoration').allInnerTexts();
          const sizes = texts.filter((x) => /bytes at \$/.test(x));
          return sizes.length >= 2 ? sizes : undefined;
        });
        await page.waitForTimeout(1000); // a lens refresh after the build could add more: look again
        const again = (await page.locator('.monaco-editor .codelens-decoration').allInnerTexts()).filter((x) =>
          /bytes at \$/.test(x),
        );
        t.diagnostic(`lenses: ${again.join(' | ')}`);
        assert.equal(lenses.length, 2, `one lens per function: ${lenses.join(' | ')}`);
        assert.equal(again.length, 2, `still one lens per function: ${again.join(' | ')}`);

        // the ca65 file: detected as ca65 (it opened as Plain Text), hover $D020 while the session is stopped
        await openFileAtLine(page, 'border.s', 4); // VIC_BORDER = $D020
        await page
          .locator('.statusbar-item', { hasText: 'ca65 Assembly (cc65)' })
          .first()
          .waitFor({ state: 'visible', timeout: 60_000 });
        await page.keyboard.press('End');
        await page.keyboard.press('ArrowLeft');
        await page.keyboard.press('ArrowLeft');
        const hover = await waitUntil('the hardware hover on $D020', 90_000, async () => {
          await page.keyboard.press('Control+K');
          await page.keyboard.press('Control+I');
          const text = (await page.locator('.monaco-hover').allInnerTexts()).join('\n');
          return /EXTCOL/.test(text) && /Live value/.test(text) ? text : undefined;
        });
        t.diagnostic(`hover: ${hover.replace(/\s+/g, ' ')}`);
        assert.match(hover, /\$D020/);
        assert.match(hover, /Live value \(session \S+, stopped\)/);
        await shot('2-ca65-hover.png');
        await page.keyboard.press('Escape');

        // a stop in cc65's runtime: a function breakpoint on tosmula0 (the multiply in square's body) stops there; the
        // Call Stack names the frame by its label with square and main below it, and square's parameter reads through it
        await runCommand(page, 'Add Function Breakpoint');
        const name = page.locator('.debug-breakpoints .monaco-inputbox input').first();
        await name.waitFor({ state: 'visible', timeout: 30_000 });
        await name.fill('tosmula0');
        await page.keyboard.press('Enter');
        await page
          .locator('.debug-breakpoints .monaco-list-row', { hasText: 'tosmula0' })
          .first()
          .waitFor({ state: 'visible', timeout: 30_000 });
        await runCommand(page, 'Debug: Continue');
        const runtime = await waitUntil('the stop in tosmula0', 60_000, async () => {
          const rows = await page.locator('.debug-call-stack .monaco-list-row .stack-frame').allInnerTexts();
          const folded = rows.map((r) => r.replace(/\s+/g, ' ').trim());
          return folded[0]?.startsWith('tosmula0') ? folded : undefined;
        });
        t.diagnostic(`runtime stop: ${runtime.join(' | ')}`);
        assert.match(
          runtime[1] ?? '',
          /^square demo\.c \d+:/,
          `square below the runtime frame: ${runtime.join(' | ')}`,
        );
        assert.match(runtime[2] ?? '', /^main demo\.c \d+:/, `main below square: ${runtime.join(' | ')}`);
        // the stop's own frame has no source, so the Disassembly view opens by itself (VS Code focuses square, the
        // first frame with source, so the view follows the stop's top frame, not the focused one)
        await waitUntil('the Disassembly view opened by the stop in tosmula0', 60_000, async () =>
          (await page.locator('.disassembly-view').count()) > 0 ? true : undefined,
        );
        await shot('3-runtime-disassembly.png');
        await page
          .locator('.debug-call-stack .monaco-list-row .stack-frame', { hasText: /^\s*square/ })
          .first()
          .click();
        const n = await waitUntil("square's parameter n in Variables", 30_000, async () => {
          const rows = await page.locator('.debug-variables .monaco-list-row').allInnerTexts();
          return rows.find((r) => /^\s*n\s*[:=]/.test(r));
        });
        assert.match(n, /^\s*n\s*[:=]\s*0\b/, `square(0) is the first call: ${n}`);
        await shot('3-runtime-label.png');

        await stopDebugging(page);
      },
    );
  },
);
