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
  click(opts?: { timeout?: number; position?: { x: number; y: number }; button?: 'left' | 'right' }): Promise<void>;
  fill(value: string): Promise<void>;
  inputValue(opts?: { timeout?: number }): Promise<string>;
  waitFor(opts?: { state?: 'attached' | 'visible' | 'hidden' | 'detached'; timeout?: number }): Promise<void>;
  allInnerTexts(): Promise<string[]>;
  innerText(opts?: { timeout?: number }): Promise<string>;
  hover(opts?: { timeout?: number }): Promise<void>;
  boundingBox(opts?: { timeout?: number }): Promise<{ x: number; y: number; width: number; height: number } | null>;
  count(): Promise<number>;
}
export interface Frame {
  url(): string;
  /** a function, or an expression as text (a value from the test goes in as text: no arguments are passed) */
  evaluate<T>(fn: (() => T) | string): Promise<T>;
}
export interface Page {
  goto(url: string, opts?: { timeout?: number }): Promise<unknown>;
  locator(selector: string, opts?: { hasText?: string | RegExp }): Locator;
  keyboard: { press(key: string): Promise<void>; type(text: string): Promise<void> };
  mouse: { click(x: number, y: number): Promise<void> };
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

const QUICK_INPUT = '.quick-input-widget .quick-input-box input';

/**
 * Opens the quick input with `key` and puts `text` in it. Under load the widget of the previous pick may still be
 * closing (a key pressed then goes nowhere), and a freshly shown widget sets its own prefix (`>`, `:`) after it
 * became visible, overwriting what was typed first: so wait for it to be gone, then for the prefix, then check
 * the text stuck.
 */
async function openQuickInput(page: Page, key: string, prefix: string, text: string, timeoutMs: number) {
  const input = page.locator(QUICK_INPUT);
  await input.waitFor({ state: 'hidden', timeout: timeoutMs }); // the previous one closed (or none was ever open)
  await page.keyboard.press(key);
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await waitUntil(`the quick input to show "${prefix}"`, timeoutMs, async () =>
    (await input.inputValue()).startsWith(prefix) ? true : undefined,
  );
  await waitUntil(`"${text}" in the quick input`, timeoutMs, async () => {
    await input.fill(text);
    return (await input.inputValue()) === text ? true : undefined;
  });
  return input;
}

/** Types into the quick input opened by `key` and picks the row labelled `label`. */
async function pick(page: Page, key: string, prefix: string, text: string, label: string, timeoutMs: number) {
  await openQuickInput(page, key, prefix, text, timeoutMs);
  const row = quickPickRow(page, label);
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  await row.click({ timeout: timeoutMs });
}

/** Runs a command from the palette (F1) by its full title, e.g. "Debug: Start Debugging". */
export async function runCommand(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  await pick(page, 'F1', '>', `>${title}`, title, timeoutMs);
}

/** Runs a command once the palette offers it (an extension's command appears when it has activated). */
export async function runCommandWhenOffered(page: Page, title: string, timeoutMs = 120_000): Promise<void> {
  await waitUntil(`"${title}" to be offered`, timeoutMs, async () => {
    try {
      await runCommand(page, title, 5_000);
      return true;
    } catch {
      await page.keyboard.press('Escape');
      return undefined;
    }
  });
}

/** Opens a workspace file through Quick Open and moves the cursor to `line`. */
export async function openFileAtLine(page: Page, fileName: string, line: number, timeoutMs = 30_000): Promise<void> {
  await pick(page, 'Control+P', '', fileName, fileName, timeoutMs);
  await page.locator(`.tab.active[aria-label^="${fileName}"]`).waitFor({ state: 'visible', timeout: timeoutMs });
  const input = await openQuickInput(page, 'Control+G', ':', `:${line}`, timeoutMs);
  // Enter acts on the pick for this line: wait until the widget caught up with the text
  await page
    .locator('.quick-input-widget', { hasText: new RegExp(`go to line ${line}\\b`, 'i') })
    .first()
    .waitFor({ state: 'visible', timeout: timeoutMs });
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: timeoutMs });
}

/**
 * Toggles a breakpoint on `line` of the active editor as a user does: a click in the glyph margin, the strip left of
 * the line numbers. The line must be on screen (openFileAtLine reveals it).
 */
export async function clickGutter(page: Page, line: number, timeoutMs = 30_000): Promise<void> {
  const number = page
    .locator('.editor-group-container.active .monaco-editor .margin-view-overlays .line-numbers', {
      hasText: new RegExp(`^\\s*${line}\\s*$`),
    })
    .first();
  await number.waitFor({ state: 'visible', timeout: timeoutMs });
  const box = await number.boundingBox({ timeout: timeoutMs });
  if (!box) throw new Error(`line ${line}'s number is not on screen`);
  const glyph = page.locator('.editor-group-container.active .monaco-editor .glyph-margin').first();
  const margin = await glyph.boundingBox({ timeout: timeoutMs });
  if (!margin) throw new Error('the editor has no glyph margin');
  await page.mouse.click(margin.x + margin.width / 2, box.y + box.height / 2);
}

/** Right-clicks `target` and picks the context-menu entry labelled `label`. */
export async function contextMenu(page: Page, target: Locator, label: string, timeoutMs = 30_000): Promise<void> {
  await target.click({ button: 'right', timeout: timeoutMs });
  const item = page
    .locator('.context-view .monaco-menu .action-item .action-label', {
      hasText: new RegExp(`^${escapeRegExp(label)}$`),
    })
    .first();
  await item.waitFor({ state: 'visible', timeout: timeoutMs });
  // A click on a menu that has just opened may be swallowed (the menu stays open with the item highlighted); the
  // item under the pointer is the menu's focused one, and Enter runs it.
  await item.hover({ timeout: timeoutMs });
  await page
    .locator('.context-view .monaco-menu .action-item.focused .action-label', {
      hasText: new RegExp(`^${escapeRegExp(label)}$`),
    })
    .waitFor({ state: 'visible', timeout: timeoutMs });
  await page.keyboard.press('Enter');
  await page.locator('.context-view .monaco-menu').waitFor({ state: 'hidden', timeout: timeoutMs });
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
