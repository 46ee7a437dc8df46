/**
 * Reverse debugging as a VS Code user does it, on the live-screen fixture's session (paused at the present): a
 * breakpoint in the loop, Step Back from the toolbar, "Who Last Wrote This?" on the global `tick` in the Variables
 * view, Reverse Continue, and the timeline's "Back to present". At each stop the Call Stack's top frame, the
 * editor's current line, the Call Stack header (this stop's words, in the past or not) and `tick` are checked.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { REPO_ROOT } from '../support/c64-fixture.js';
import { contextMenu, openFileAtLine, runCommand, waitUntil, type Frame, type Page } from './workbench.js';

const source = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'live-screen', 'live.c'), 'utf8').split('\n');
const lineOf = (text: string) => source.findIndex((l) => l.includes(text)) + 1;
/** `tick++` (below LINE:animate) and the next C line, where the breakpoint goes */
const TICK_LINE = lineOf('POKE(0x0400 + 20, tick++)');
const NEXT_LINE = lineOf('POKE(0x0400 + 7 * 40 + 5');

interface Stop {
  line: number;
  frames: string[];
  header: string;
  cursor: string[];
  marked: number;
  tick: number;
}

const tickRow = (page: Page) =>
  page.locator('.debug-variables .monaco-list-row', { hasText: /^\s*tick\s*[:=]/ }).first();

/** The Variables view's Globals opened (where `tick` is), if it is shown closed. */
async function expandGlobals(page: Page): Promise<void> {
  const globals = page.locator('.debug-variables .monaco-list-row[aria-expanded="false"]', {
    hasText: /^\s*Globals\s*$/,
  });
  if (await globals.count()) await globals.first().click();
}

/** What the Call Stack, the editor and the Variables view show now. */
async function readStop(page: Page): Promise<Stop> {
  const frames = await page.locator('.debug-call-stack .monaco-list-row .stack-frame').allInnerTexts();
  const header = await page
    .locator('.call-stack-state-message')
    .first()
    .innerText({ timeout: 1000 })
    .catch(() => '');
  const tickText = await tickRow(page)
    .innerText({ timeout: 1000 })
    .catch(() => '');
  return {
    line: Number(/live\.c\s*(\d+)/.exec(frames[0] ?? '')?.[1] ?? 0),
    frames,
    header,
    cursor: await page.locator('.monaco-editor .line-numbers.active-line-number').allInnerTexts(),
    marked: await page.locator('.monaco-editor .debug-top-stack-frame-line').count(),
    tick: Number(/[:=]\s*(\d+)/.exec(tickText)?.[1] ?? -1),
  };
}

/**
 * Waits for a stop at `line` whose header matches `header`, the editor's current line on it and `tick` as `tick`
 * says (the Variables view refreshes after the Call Stack: a value read at once may be the last stop's).
 */
async function stopAt(
  page: Page,
  t: TestContext,
  what: string,
  line: number,
  header: RegExp,
  tick: (v: number) => boolean = (v) => v >= 0,
): Promise<Stop> {
  let last: Stop | undefined;
  try {
    return await waitUntil(what, 60_000, async () => {
      await expandGlobals(page);
      last = await readStop(page);
      const ok = last.line === line && header.test(last.header) && last.cursor.includes(String(line));
      return ok && last.marked > 0 && tick(last.tick) ? last : undefined;
    });
  } finally {
    t.diagnostic(`${what}: ${JSON.stringify(last)}`);
  }
}

const IN_PAST = /time travel: in the past/;
/** the header of a stop in the past at `line`: its own words, not an older stop's */
const pastAt = (line: number) => new RegExp(`\\(main, live\\.c:${line}\\) — time travel: in the past`);

export async function reverseDebugging(
  page: Page,
  panel: Frame,
  t: TestContext,
  shot: (name: string) => Promise<void>,
): Promise<void> {
  // a breakpoint on the line after tick++, and Continue to it (in the present)
  await openFileAtLine(page, 'live.c', NEXT_LINE);
  await page.keyboard.press('F9');
  await page.locator('.monaco-editor .codicon-debug-breakpoint').first().waitFor({ state: 'visible', timeout: 30_000 });
  await runCommand(page, 'Debug: Continue');
  const present = await stopAt(page, t, 'the breakpoint stop', NEXT_LINE, /^Paused on breakpoint/);
  assert.doesNotMatch(present.header, IN_PAST);

  // Step Back from the toolbar: the tick++ line, before it ran — tick one less
  await page.locator('.debug-toolbar .codicon-debug-step-back').click();
  const before = (present.tick + 255) % 256; // tick as it was before tick++
  await stopAt(page, t, 'Step Back', TICK_LINE, pastAt(TICK_LINE), (v) => v === before);
  await shot('4-step-back.png');

  // once more: the end of the loop's previous turn, then "Who Last Wrote This?" on tick lands on tick++ again
  await page.locator('.debug-toolbar .codicon-debug-step-back').click();
  const end = await waitUntil('the second Step Back', 60_000, async () => {
    const s = await readStop(page);
    return s.line > 0 && s.line !== TICK_LINE && IN_PAST.test(s.header) ? s : undefined;
  });
  t.diagnostic(`second Step Back: ${JSON.stringify(end)}`);
  await contextMenu(page, tickRow(page), 'Who Last Wrote This?');
  // its own header, not the second Step Back's: VS Code shows the oldest stop details it holds until a continued
  // clears them, which the adapter sends ahead of a move VS Code did not ask for as a run
  await stopAt(page, t, 'Who Last Wrote This?', TICK_LINE, pastAt(TICK_LINE), (v) => v === before);
  await page
    .locator('.notifications-toasts', { hasText: /tick was last written \d+ → \d+ by main, live\.c/ })
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
  await shot('5-who-last-wrote.png');

  // Reverse Continue: the breakpoint's latest earlier hit
  await page.locator('.debug-toolbar .codicon-debug-reverse-continue').click();
  // the hit before that tick++ (after it comes this turn's hit): tick two less than at the present hit
  const twoBefore = (present.tick + 254) % 256;
  await stopAt(page, t, 'Reverse Continue', NEXT_LINE, pastAt(NEXT_LINE), (v) => v === twoBefore);
  await shot('6-reverse-continue.png');

  // Back to present: the breakpoint stop's line and tick, the badge gone, the header no longer "in the past"
  await panel.evaluate(() => document.getElementById('time-present')!.click());
  const atPresent = new RegExp(`^Back at the present \\(main, live\\.c:${NEXT_LINE}\\)`);
  const again = await waitUntil('the present again', 60_000, async () => {
    const s = await readStop(page);
    const badge = await panel.evaluate(() => !document.getElementById('time-badge')!.hidden);
    return s.line === NEXT_LINE && !badge && s.tick === present.tick && atPresent.test(s.header) ? s : undefined;
  });
  t.diagnostic(`present: ${JSON.stringify(again)}`);
  await shot('7-present-again.png');
}
