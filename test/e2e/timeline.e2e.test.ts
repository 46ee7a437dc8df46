/**
 * The timeline slider under the live screen panel, end to end in a real VS Code (code-server, headless Chromium)
 * on the built-in C64 running the cc65 live-screen fixture (its top line changes every loop): while it runs the
 * slider shows the recorded span and asks for a pause; paused, a stop mark is drawn; setting the slider to an
 * earlier frame (as a drag does) moves the machine there — the picture follows (its frame number, its pixels), the
 * "time travel — read-only" badge and the note about the discarded future show — and "Back to present" returns.
 * Needs scripts/install-e2e.sh; fails (never skips) without it. Screenshots go to .test-work/e2e-timeline/.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';
import { panelFrame, writeLiveScreenWorkspace } from '../support/panel-frame.js';
import { reverseDebugging } from './timeline-reverse.js';
import { openFileAtLine, runCommand, startDebugging, waitUntil, withWorkbench, type Frame } from './workbench.js';

/** The timeline as the panel shows it, with the picture's frame number and a hash of its pixels. */
const readTimeline = (panel: Frame) =>
  panel.evaluate(() => {
    // no named inner functions: the test's transpiler would wrap them in a helper the page lacks
    const byId = document.getElementById.bind(document);
    const canvas = byId('screen') as HTMLCanvasElement;
    const slider = byId('time-slider') as HTMLInputElement;
    let hash = 0;
    if (canvas.width && canvas.height) {
      const px = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < px.length; i++) hash = (Math.imul(hash, 31) + px[i]) | 0;
    }
    return {
      shown: !byId('timeline')!.hidden,
      min: Number(slider.min),
      max: Number(slider.max),
      value: Number(slider.value),
      disabled: slider.disabled,
      badge: !byId('time-badge')!.hidden,
      present: !byId('time-present')!.hidden,
      marks: Number(byId('time-marks')!.dataset.count ?? 0),
      field: byId('time-frame')!.textContent ?? '',
      note: byId('time-note')!.textContent ?? '',
      frame: Number(canvas.dataset.frame ?? -1),
      drawn: Number(canvas.dataset.drawn ?? 0),
      state: byId('state')!.textContent ?? '',
      message: byId('message')!.hidden ? '' : (byId('message')!.textContent ?? ''),
      hash,
    };
  });

/** The slider set to `frame` as a drag leaves it: the value, an input event, then change. */
async function setSlider(panel: Frame, frame: number): Promise<void> {
  await panel.evaluate(`(() => {
    const slider = document.getElementById('time-slider');
    slider.value = '${frame}';
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    slider.dispatchEvent(new Event('change', { bubbles: true }));
  })()`);
}

test(
  'VS Code: the timeline slider under the screen panel goes back in time on the built-in C64',
  { timeout: 420_000 },
  async (t) => {
    const dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'live-screen'), ['live.c']);
    await withWorkbench(
      { name: 'e2e-timeline', workspace: (ws) => writeLiveScreenWorkspace(ws, dir) },
      async ({ page, shot }) => {
        await openFileAtLine(page, 'live.c', 1);
        await startDebugging(page);
        await runCommand(page, 'Retro Debug: Show Screen');
        const panel = await waitUntil('the screen panel', 60_000, () => panelFrame(page));

        // running: the slider shows the span, disabled, and says to pause
        const running = await waitUntil('the timeline while running', 60_000, async () => {
          const s = await readTimeline(panel);
          return s.shown && s.state === 'running' ? s : undefined;
        });
        assert.equal(running.disabled, true);
        assert.match(running.note, /Pause to travel in time/);
        await page.waitForTimeout(3000); // about 150 frames recorded

        await page.locator('.monaco-workbench').click({ position: { x: 500, y: 300 } });
        await runCommand(page, 'Debug: Pause');
        await waitUntil('the slider enabled at the pause', 60_000, async () => {
          const s = await readTimeline(panel);
          return s.shown && !s.disabled && s.marks > 0 && s.frame >= s.max ? s : undefined;
        });
        await page.waitForTimeout(1000); // the stop's picture drawn: nothing else comes while paused
        const paused = await readTimeline(panel);
        t.diagnostic(
          `paused: frames ${paused.min}-${paused.max}, ${paused.marks} marks, picture frame ${paused.frame}`,
        );
        assert.ok(paused.max - paused.min >= 100, `the span holds the run: ${paused.min}-${paused.max}`);
        assert.equal(paused.value, paused.max, 'the thumb at the present');
        assert.equal(paused.badge, false);
        await shot('1-paused.png');

        // back to two earlier frames: a new picture is drawn for each, and its pixels differ from the present's at
        // least once (the top line counts every loop: all three equal would take two 1-in-256 coincidences)
        const hashes = [paused.hash];
        let drawn = paused.drawn;
        for (const back of [80, 40]) {
          const target = paused.max - back;
          await setSlider(panel, target);
          const past = await waitUntil(`the picture at frame ${target}`, 60_000, async () => {
            const s = await readTimeline(panel);
            const moved = s.badge && s.value === target && s.field.startsWith(`frame ${target} `);
            return moved && s.drawn > drawn ? s : undefined;
          });
          drawn = past.drawn;
          t.diagnostic(`at ${target}: ${past.field}; ${past.note}`);
          assert.equal(past.present, true, 'Back to present is offered');
          assert.match(past.field, new RegExp(`^frame ${target} of ${paused.max}$`));
          assert.match(past.note, /discards the recorded future/);
          assert.equal(past.message, '', 'no refusal');
          hashes.push(past.hash);
          // VS Code takes the move as a stop of its own session: paused, Continue offered (not left showing "running")
          await page.locator('.debug-toolbar .codicon-debug-continue').waitFor({ state: 'visible', timeout: 30_000 });
          if (back === 80) await shot('2-in-the-past.png');
        }
        assert.ok(new Set(hashes).size > 1, `the picture changed with the moment: ${hashes.join(', ')}`);

        // back to the present: the badge goes, the thumb and the picture are the present's again
        await panel.evaluate(() => document.getElementById('time-present')!.click());
        const back = await waitUntil('the present again', 60_000, async () => {
          const s = await readTimeline(panel);
          return !s.badge && s.value === paused.max && s.drawn > drawn ? s : undefined;
        });
        assert.equal(back.hash, paused.hash, "the present's picture, exactly");
        await shot('3-present.png');
        await reverseDebugging(page, panel, t, shot);
        await page.locator('.monaco-workbench').click({ position: { x: 500, y: 300 } });
        await runCommand(page, 'Debug: Stop');
      },
    );
  },
);
