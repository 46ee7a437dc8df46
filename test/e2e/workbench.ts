/**
 * The life of one end-to-end test in a real VS Code: the tools are there (else the test fails, naming the fix), a
 * fresh artifacts folder under .test-work/, the VSIX `npm run package` builds (once per test run) installed in a
 * private code-server (temp user-data dir), the workspace folder filled and opened in headless Chromium, the workbench drawn and
 * focused; `shot` writes screenshots there, a failure leaves failure.png, and teardown keeps code-server's logs.
 * The page-driving steps (commands, quick open, context menus) are in ../support/workbench.ts, re-exported here.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { missingE2eTools, startCodeServer, type CodeServer } from '../support/code-server.js';
import { openBrowser, runCommand, type Page } from '../support/workbench.js';
import { packageVsixOncePerRun } from '../support/vsix.js';
import { REPO_ROOT } from '../support/zx-fixture.js';

export {
  clickGutter,
  contextMenu,
  openFileAtLine,
  runCommand,
  runCommandWhenOffered,
  waitUntil,
  type Frame,
  type Locator,
  type Page,
} from '../support/workbench.js';
export type { CodeServer } from '../support/code-server.js';

/** The user settings every end-to-end test starts from: quiet, offline, the debug views as a user sees them. */
const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'telemetry.telemetryLevel': 'off',
  'chat.disableAIFeatures': true,
  'debug.openDebug': 'openOnSessionStart',
  'debug.toolBarLocation': 'floating',
  'window.restoreWindows': 'none',
};

export interface Workbench {
  page: Page;
  server: CodeServer;
  /** the workspace folder the window opened */
  ws: string;
  /** the artifacts folder, .test-work/<name>/ */
  out: string;
  /** a screenshot of the whole window into the artifacts folder */
  shot(fileName: string): Promise<void>;
}

export interface WorkbenchOptions {
  /** the artifacts folder's name under .test-work/ (e.g. "e2e-editor") */
  name: string;
  /** user settings on top of the quiet ones */
  settings?: Record<string, unknown>;
  /** fills the workspace folder before the window opens it */
  workspace: (ws: string, server: CodeServer) => void | Promise<void>;
  /** runs after code-server stopped, before its folder goes (e.g. to see what the extension left behind) */
  inspect?: (server: CodeServer) => void;
}

/** Opens the workbench, runs `body` in it, then tears everything down (also when `body` fails). */
export async function withWorkbench(opts: WorkbenchOptions, body: (wb: Workbench) => Promise<void>): Promise<void> {
  const missing = missingE2eTools();
  assert.equal(
    missing.length,
    0,
    `End-to-end tools are missing: ${missing.join(', ')}. Run scripts/install-e2e.sh (CI does).`,
  );
  const out = join(REPO_ROOT, '.test-work', opts.name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const vsix = join(out, 'retro-debug.vsix');
  packageVsixOncePerRun(vsix);
  const server = await startCodeServer({ vsix, settings: { ...QUIET_SETTINGS, ...opts.settings } });
  let browser: Awaited<ReturnType<typeof openBrowser>> | undefined;
  let page: Page | undefined;
  try {
    const ws = join(server.root, 'ws');
    mkdirSync(ws, { recursive: true });
    await opts.workspace(ws, server);
    browser = await openBrowser(join(server.root, 'profile'));
    const p = browser.page;
    page = p;
    await p.goto(`${server.url}/?folder=${encodeURIComponent(ws)}`, { timeout: 60_000 });
    await p.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    await p.locator('.monaco-workbench').click({ position: { x: 700, y: 450 } }); // keys go to the workbench
    await body({ page: p, server, ws, out, shot: (fileName) => p.screenshot({ path: join(out, fileName) }).then() });
  } catch (err) {
    await page?.screenshot({ path: join(out, 'failure.png') }).catch(() => undefined);
    throw err;
  } finally {
    await browser?.close().catch(() => undefined);
    await server.stop();
    opts.inspect?.(server);
    cpSync(server.logFile, join(out, 'code-server.log'));
    if (existsSync(join(server.userDataDir, 'logs')))
      cpSync(join(server.userDataDir, 'logs'), join(out, 'vscode-logs'), { recursive: true });
    rmSync(server.root, { recursive: true, force: true });
  }
}

/** Debug: Start Debugging (F5's command), then the debug toolbar shows a session running or stopped. */
export async function startDebugging(page: Page, timeoutMs = 120_000): Promise<void> {
  await runCommand(page, 'Debug: Start Debugging', 90_000);
  await page.locator('.debug-toolbar').waitFor({ state: 'visible', timeout: timeoutMs });
}

/** Debug: Stop, then the debug toolbar is gone (the session ended). */
export async function stopDebugging(page: Page): Promise<void> {
  await runCommand(page, 'Debug: Stop');
  await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 60_000 });
}
