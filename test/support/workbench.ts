/**
 * Drives the VS Code workbench in headless Chromium through playwright-core
 * (installed outside the project by scripts/install-e2e.sh, so only the few
 * calls used here are typed).
 */
import { createRequire } from 'node:module';
import { E2E_TOOLS } from './code-server.js';

export interface Locator {
  first(): Locator;
  filter(opts: { has?: Locator; hasText?: string | RegExp }): Locator;
  locator(selector: string, opts?: { hasText?: string | RegExp }): Locator;
  click(opts?: { timeout?: number; position?: { x: number; y: number } }): Promise<void>;
  fill(value: string): Promise<void>;
  waitFor(opts?: { state?: 'attached' | 'visible' | 'hidden' | 'detached'; timeout?: number }): Promise<void>;
  allInnerTexts(): Promise<string[]>;
  count(): Promise<number>;
}
export interface Frame {
  url(): string;
  evaluate<T>(fn: () => T): Promise<T>;
}
export interface Page {
  goto(url: string, opts?: { timeout?: number }): Promise<unknown>;
  locator(selector: string, opts?: { hasText?: string | RegExp }): Locator;
  keyboard: { press(key: string): Promise<void> };
  frames(): Frame[];
  screenshot(opts: { path: string }): Promise<unknown>;
  waitForTimeout(ms: number): Promise<void>;
}
interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}
interface Playwright {
  chromium: {
    launchPersistentContext(userDataDir: string, opts: Record<string, unknown>): Promise<BrowserContext>;
  };
}

/** Debian's Chromium with the flags that keep it offline and quiet, in a fresh profile. */
export async function openBrowser(profileDir: string): Promise<{ page: Page; close(): Promise<void> }> {
  const playwright = createRequire(__filename)(E2E_TOOLS.playwright) as Playwright;
  const context = await playwright.chromium.launchPersistentContext(profileDir, {
    executablePath: E2E_TOOLS.chromium,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return { page, close: () => context.close() };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The quick-input row whose label is exactly `label`. */
function quickPickRow(page: Page, label: string): Locator {
  return page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }) })
    .first();
}

/** Types into the quick input opened by `key` and picks the row labelled `label`. */
async function pick(page: Page, key: string, text: string, label: string, timeoutMs: number): Promise<void> {
  await page.keyboard.press(key);
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(text);
  const row = quickPickRow(page, label);
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  await row.click({ timeout: timeoutMs });
}

/** Runs a command from the palette (F1) by its full title, e.g. "Debug: Start Debugging". */
export async function runCommand(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  await pick(page, 'F1', `>${title}`, title, timeoutMs);
}

/** Opens a workspace file through Quick Open and moves the cursor to `line`. */
export async function openFileAtLine(page: Page, fileName: string, line: number, timeoutMs = 30_000): Promise<void> {
  await pick(page, 'Control+P', fileName, fileName, timeoutMs);
  await page.locator(`.tab.active[aria-label^="${fileName}"]`).waitFor({ state: 'visible', timeout: timeoutMs });
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(`:${line}`);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: timeoutMs });
}

/** Polls until `probe` returns a value (not undefined), or fails after timeoutMs naming `what`. */
export async function waitUntil<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}
