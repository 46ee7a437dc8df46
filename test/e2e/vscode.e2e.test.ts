/**
 * End to end in a real VS Code (code-server) driven by headless Chromium:
 * the packaged extension activates, a breakpoint set with F9 in util.c is hit
 * in MAME running the SDCC-built ZX fixture (the call stack shows plot ← draw
 * ← main), the screen panel shows the emulated screen and follows a pause
 * with the program's picture, stopping the debug session ends MAME, and the
 * MCP endpoint answers the official SDK client with the discovered token. Needs scripts/install-e2e.sh; fails (never skips) without it.
 * Screenshots and logs go to .test-work/e2e/.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildZxFixture, writeZxWorkspace } from '../support/zx-fixture.js';
import { openFileAtLine, runCommand, stopDebugging, waitUntil, withWorkbench, type CodeServer } from './workbench.js';

const MAME = '/usr/games/mame';

/** Every file under dir whose text matches, bounded to logs. */
function grepLogs(dir: string, pattern: RegExp): boolean {
  if (!existsSync(dir)) return false;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    if (
      st.isDirectory()
        ? grepLogs(path, pattern)
        : name.endsWith('.log') && st.size < 20_000_000 && pattern.test(readFileSync(path, 'utf8'))
    )
      return true;
  }
  return false;
}

/** MAME processes started from this code-server (its process group; other tests' MAMEs are not ours). */
function mameRunning(pgid: number): number[] {
  try {
    return execFileSync('pgrep', ['-g', String(pgid), '-x', 'mame'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

test('VS Code: F9 breakpoint, F5-style launch, stop in plot(), screen panel, stop', { timeout: 420_000 }, async (t) => {
  const started = Date.now();
  const timings: Record<string, number> = {};
  const mark = (name: string) => {
    timings[name] = Date.now() - started;
  };
  const fx = await buildZxFixture();
  mark('built');

  let leftovers: string[] = [];
  const options = {
    name: 'e2e',
    // what the extension left behind once code-server stopped
    inspect: (server: CodeServer) => {
      const discoveryDir = join(server.root, 'home', '.retro-debug');
      leftovers = existsSync(discoveryDir) ? readdirSync(discoveryDir) : [];
    },
    workspace: (ws: string, server: CodeServer) => {
      // installed from the VSIX `npm run package` builds: the bundle, schemas and data, no source maps
      const extensionDir = server.installedExtension!;
      for (const shipped of [
        'dist/extension.js',
        'dist/lsp-server.js',
        'schemas/dos-profile.schema.json',
        'data/c64-symbol-profile.json',
      ])
        assert.ok(existsSync(join(extensionDir, shipped)), `${shipped} is installed`);
      assert.deepEqual(
        readdirSync(join(extensionDir, 'dist')).filter((n) => n.endsWith('.map')),
        [],
      );
      // The workspace: the fixture's sources, ROM and debug info, and a launch.json for them.
      writeZxWorkspace(fx, ws, MAME);
    },
  };
  try {
    await withWorkbench(options, async ({ page, server, ws, shot }) => {
      const marker = fx.markers.plot_body;
      assert.equal(basename(marker.file), 'util.c');
      mark('workbench drawn');
      const logs = join(server.userDataDir, 'logs');
      await waitUntil(
        'the extension to activate (extension host log)',
        90_000,
        async () => grepLogs(logs, /_doActivateExtension retro-debug\.retro-debug\b/) || undefined,
      );
      mark('extension activated');
      await page.locator('.monaco-workbench').click({ position: { x: 700, y: 450 } });

      // F9 on the marker line of util.c, then "Debug: Start Debugging" (F5's command).
      await openFileAtLine(page, 'util.c', marker.line);
      await page.keyboard.press('F9');
      await page
        .locator('.monaco-editor .codicon-debug-breakpoint')
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 });
      await runCommand(page, 'Debug: Start Debugging');
      mark('debugging requested');

      const frames = await waitUntil('the call stack to show plot ← draw ← main', 120_000, async () => {
        const rows = await page.locator('.debug-call-stack .monaco-list-row .stack-frame').allInnerTexts();
        const names = rows.map((r) => r.trim().split(/\s+/)[0]);
        const i = names.indexOf('plot');
        return i >= 0 && names.slice(i, i + 3).join(' ') === 'plot draw main' ? rows : undefined;
      });
      t.diagnostic(`call stack: ${frames.map((f) => f.replace(/\s+/g, ' ')).join(' | ')}`);
      assert.match(frames[0], /util\.c/);
      // The editor marks the stopped line, and it is the breakpoint's line.
      await page
        .locator('.monaco-editor .debug-top-stack-frame-line')
        .first()
        .waitFor({ state: 'attached', timeout: 30_000 });
      const activeLine = await page.locator('.monaco-editor .line-numbers.active-line-number').allInnerTexts();
      assert.ok(
        activeLine.includes(String(marker.line)),
        `the cursor is on the stopped line ${marker.line} (saw ${activeLine})`,
      );
      assert.equal(mameRunning(server.pgid).length, 1, 'one MAME runs the workspace ROM');
      mark('stopped at breakpoint');
      await shot('1-stopped-at-breakpoint.png');

      // Take Control (offered only while a retro session is debugged) names the new holder in the status bar, and
      // the control item says it is the user
      await runCommand(page, 'Retro Debug: Take Control');
      await page
        .locator('.part.statusbar', {
          hasText: 'VS Code debug session "ZX fixture in MAME" has control of the emulator.',
        })
        .waitFor({ state: 'visible', timeout: 30_000 });
      await page.locator('.statusbar-item', { hasText: 'Retro: you' }).first().waitFor({ state: 'visible' });

      // The screen panel: its webview draws the emulated screen's raw frames on a canvas.
      await runCommand(page, 'Retro Debug: Show Screen');
      const shown = await waitUntil('the screen panel to show a picture', 60_000, async () => {
        for (const frame of page.frames()) {
          const info = await frame
            .evaluate(() => {
              const screen = document.getElementById('screen') as HTMLCanvasElement | null;
              if (!screen || screen.hidden || !screen.dataset.frame) return undefined;
              return {
                width: screen.width,
                height: screen.height,
                session: document.getElementById('session')?.textContent ?? '',
                state: document.getElementById('state')?.textContent ?? '',
                tag: screen.tagName,
              };
            })
            .catch(() => undefined);
          if (info) return info;
        }
        return undefined;
      });
      t.diagnostic(`screen panel: ${JSON.stringify(shown)}`);
      assert.ok(shown.width >= 256 && shown.height >= 192, `screen is ${shown.width}x${shown.height}`);
      assert.equal(shown.tag, 'CANVAS', 'raw frames drawn on a canvas');
      assert.match(shown.session, /^session \S+/);
      assert.equal(shown.state, 'stopped');
      mark('screen panel shown');
      await shot('2-screen-panel.png');

      // Without breakpoints, Continue, let frames render, Pause: the stop alone must bring a new
      // picture, and it shows fill_screen(0x55, 0x38): black/white columns across the middle row.
      await runCommand(page, 'Remove All Breakpoints');
      await runCommand(page, 'Debug: Continue');
      await page.waitForTimeout(2000);
      await runCommand(page, 'Debug: Pause');
      const pattern = await waitUntil('a new picture with the 0x55 pattern after Pause', 60_000, async () => {
        for (const frame of page.frames()) {
          const seen = await frame
            .evaluate(() => {
              const canvas = document.getElementById('screen') as HTMLCanvasElement | null;
              if (!canvas || !canvas.dataset.frame || canvas.width === 0) return undefined;
              const g = canvas.getContext('2d')!;
              const y = Math.floor(canvas.height / 2);
              const row = g.getImageData(Math.floor(canvas.width / 2) - 64, y, 129, 1).data;
              let alternations = 0;
              for (let x = 0; x < 128; x++) if (Math.abs(row[x * 4] - row[x * 4 + 4]) > 100) alternations++;
              return { alternations, frame: document.getElementById('frame')?.textContent ?? '' };
            })
            .catch(() => undefined);
          if (seen && seen.alternations >= 120) return seen;
        }
        return undefined;
      });
      t.diagnostic(`after pause: ${JSON.stringify(pattern)}`);
      mark('screen refreshed on pause');
      await shot('3-screen-after-pause.png');

      // Stop from the workbench: the debug session ends and so does MAME. First let the pause's
      // stop open its editor (it takes the focus, which would close a palette opened before it).
      await page
        .locator('.monaco-editor .debug-top-stack-frame-line')
        .first()
        .waitFor({ state: 'attached', timeout: 30_000 });
      await stopDebugging(page);
      await waitUntil(
        'MAME to exit after Debug: Stop',
        60_000,
        async () => mameRunning(server.pgid).length === 0 || undefined,
      );
      mark('stopped');
      await shot('4-after-stop.png');

      // The MCP endpoint: started on demand by the command, announced in the private discovery
      // file, refusing requests without the token and serving the tools with it.
      await runCommand(page, 'Retro Debug: Show MCP Connection');
      const discoveryDir = join(server.root, 'home', '.retro-debug');
      const discoveryFile = await waitUntil('the MCP discovery file', 30_000, async () => {
        const name = existsSync(discoveryDir)
          ? readdirSync(discoveryDir).find((n) => /^mcp-\d+\.json$/.test(n))
          : undefined;
        return name && join(discoveryDir, name);
      });
      assert.equal(statSync(discoveryFile).mode & 0o777, 0o600);
      const info = JSON.parse(readFileSync(discoveryFile, 'utf8')) as {
        url: string;
        token: string;
        workspace: string[];
      };
      assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+\//);
      assert.deepEqual(info.workspace, [ws]);
      assert.equal(Buffer.from(info.token, 'base64url').length, 32, '256-bit token');
      await page.locator('.notifications-toasts', { hasText: info.url }).waitFor({ state: 'visible', timeout: 30_000 });
      const refused = await fetch(info.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{}',
      });
      assert.equal(refused.status, 401);
      const mcp = new Client({ name: 'e2e', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(info.url), {
          requestInit: { headers: { Authorization: `Bearer ${info.token}` } },
        }),
      );
      const tools = (await mcp.listTools()).tools.map((tool) => tool.name);
      await mcp.close();
      assert.ok(tools.includes('start_session') && tools.includes('session_status'), `MCP tools: ${tools.join(', ')}`);
      mark('mcp answered');
      await shot('5-mcp-connection.png');
    });
  } finally {
    t.diagnostic(`timings (ms since start): ${JSON.stringify(timings)}; total ${Date.now() - started} ms`);
  }
  // checked after cleanup, and only when the steps above passed (a failure there is the news)
  assert.deepEqual(leftovers, [], 'the extension host removes its MCP discovery file when it ends');
});
