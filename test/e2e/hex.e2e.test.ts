/**
 * The built-in hex view in a real VS Code (code-server without the Hex Editor extension, headless Chromium) on the
 * built-in C64 stopped in the cc65 live-screen fixture's loop: "Retro Debug: Open Memory" on the C global `tick`
 * shows bytes equal, byte for byte, to a memory read of the same range through MCP; a byte written in the view is
 * in the machine; across the next stop the view follows `tick` (incremented by the program) and still equals the
 * machine; the space picker lists the C64's banks and shows RAM under the KERNAL ROM as the machine has it.
 * Needs scripts/install-e2e.sh; fails (never skips) without it. Screenshots go to .test-work/e2e-hex/.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';
import { writeLiveScreenWorkspace } from '../support/panel-frame.js';
import { connectAgent, discoveredServer } from '../support/mcp-agent.js';
import {
  openFileAtLine,
  runCommand,
  startDebugging,
  stopDebugging,
  waitUntil,
  withWorkbench,
  type Frame,
  type Page,
} from './workbench.js';

interface Rows {
  /** the first row's offset */
  base: number;
  /** the space prefix shown before each address ('' for the CPU's view) */
  space: string;
  bytes: number[];
}

/** The hex view's webview frame (it is re-drawn at each refresh: found anew each time). */
async function hexFrame(page: Page): Promise<Frame | undefined> {
  for (const frame of page.frames()) {
    const has = await frame.evaluate(() => !!document.getElementById('rows')).catch(() => false);
    if (has) return frame;
  }
  return undefined;
}

/** The rows the view shows, parsed from its table. */
async function shownRows(page: Page): Promise<Rows | undefined> {
  const frame = await hexFrame(page);
  const rows = await frame?.evaluate(() =>
    Array.from(document.querySelectorAll('#rows tr')).map((tr) => [
      tr.querySelector('th')?.textContent ?? '',
      tr.querySelector('td')?.textContent ?? '',
    ]),
  );
  if (!rows?.length) return undefined;
  const first = rows[0][0];
  return {
    base: parseInt(first.slice(first.lastIndexOf(':') + 1), 16),
    space: first.slice(0, first.lastIndexOf(':') + 1),
    bytes: rows.flatMap(([, td]) =>
      td
        .trim()
        .split(/\s+/)
        .map((b: string) => parseInt(b, 16)),
    ),
  };
}

/** The machine's bytes through MCP read_memory (an agent's view of the same session). */
async function machineBytes(agent: Client, address: { space: string; bank?: string; offset: number }, length: number) {
  const reply = (await agent.callTool({ name: 'read_memory', arguments: { address, length } })) as {
    isError?: boolean;
    structuredContent?: { hex?: string };
  };
  assert.ok(!reply.isError, JSON.stringify(reply.structuredContent));
  const hex = String(reply.structuredContent?.hex ?? '').replace(/[^0-9a-f]/gi, '');
  return Array.from(Buffer.from(hex, 'hex'));
}

/** Runs a snippet in the hex view's page (its form fields are globals there: x, f, b, w, s). */
async function inView(page: Page, script: string): Promise<void> {
  const frame = await waitUntil('the hex view', 30_000, () => hexFrame(page));
  await frame.evaluate(script);
}

test(
  'VS Code: the built-in hex view equals the machine, writes, follows a C global, picks a bank',
  {
    timeout: 480_000,
  },
  async (t) => {
    let agent: Client | undefined;
    const dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'live-screen'), ['live.c']);
    const animateLine =
      readFileSync(join(dir, 'live.c'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('POKE(0x0400 + 20, tick++)')) + 1;
    try {
      await withWorkbench({ name: 'e2e-hex', workspace: (ws) => writeLiveScreenWorkspace(ws, dir) }, async (wb) => {
        const { page, shot } = wb;
        const stopped = () =>
          page.locator('.debug-toolbar .codicon-debug-continue').first().waitFor({ state: 'visible', timeout: 60_000 });
        await openFileAtLine(page, 'live.c', animateLine);
        await page.keyboard.press('F9');
        await startDebugging(page);
        await stopped();
        await runCommand(page, 'Retro Debug: Show MCP Connection');
        agent = await connectAgent(await discoveredServer(wb.server.root), 'hex-check');
        await runCommand(page, 'Notifications: Clear All Notifications');

        // Open Memory on the C global `tick`: the view's 256 bytes equal the machine's
        await runCommand(page, 'Retro Debug: Open Memory');
        const input = page.locator('.quick-input-widget .quick-input-box input');
        await input.waitFor({ state: 'visible', timeout: 30_000 });
        await input.fill('tick');
        await page.keyboard.press('Enter');
        const first = await waitUntil('the hex view on tick', 60_000, () => shownRows(page));
        t.diagnostic(`tick at $${first.base.toString(16)}, first bytes ${first.bytes.slice(0, 4).join(' ')}`);
        assert.equal(first.space, '');
        assert.equal(first.bytes.length, 256);
        assert.deepEqual(first.bytes, await machineBytes(agent, { space: 'cpu', offset: first.base }, 256));
        await shot('1-hex-view-tick.png');

        // a byte written in the view is in the machine (and shown)
        const where = `$${first.base.toString(16)}`;
        await inView(page, `b.value = '${where}: 5A'; w.requestSubmit();`);
        await waitUntil('the written byte in the machine and the view', 30_000, async () => {
          const [byte] = await machineBytes(agent!, { space: 'cpu', offset: first.base }, 1);
          return byte === 0x5a && (await shownRows(page))?.bytes[0] === 0x5a ? true : undefined;
        });

        // across a stop: the loop runs once (tick++), the view follows tick and still equals the machine
        await runCommand(page, 'Debug: Continue');
        const next = await waitUntil('the view at the next stop', 60_000, async () => {
          const rows = await shownRows(page);
          return rows?.bytes[0] === 0x5b ? rows : undefined;
        });
        await stopped();
        assert.equal(next.base, first.base);
        assert.deepEqual(next.bytes, await machineBytes(agent, { space: 'cpu', offset: next.base }, 256));
        await shot('2-followed-across-a-stop.png');

        // the space picker: the C64's banks; RAM under the KERNAL ROM as the machine has it, not the ROM
        const options = await waitUntil('the space picker', 30_000, async () =>
          (await hexFrame(page))?.evaluate(() =>
            Array.from((document.getElementById('s') as HTMLSelectElement).options).map((o) => o.value),
          ),
        );
        t.diagnostic(`picker: ${JSON.stringify(options)}`);
        assert.deepEqual(options, ['', 'cpu@ram:', 'cpu@rom:', 'cpu@io:', 'cpu@cart:']);
        await inView(page, `x.value = '0xe000'; f.requestSubmit();`);
        const rom = await waitUntil('the CPU view at $E000', 30_000, async () => {
          const rows = await shownRows(page);
          return rows?.base === 0xe000 && rows.space === '' ? rows : undefined;
        });
        await inView(page, `s.value = 'cpu@ram:'; s.dispatchEvent(new Event('change'));`);
        const ram = await waitUntil('RAM at $E000', 30_000, async () => {
          const rows = await shownRows(page);
          return rows?.space === 'cpu@ram:' ? rows : undefined;
        });
        assert.equal(ram.base, 0xe000);
        assert.deepEqual(ram.bytes, await machineBytes(agent, { space: 'cpu', bank: 'ram', offset: 0xe000 }, 256));
        assert.deepEqual(rom.bytes, await machineBytes(agent, { space: 'cpu', offset: 0xe000 }, 256));
        assert.notDeepEqual(ram.bytes, rom.bytes, 'RAM under the KERNAL is not the ROM the CPU sees');
        await shot('3-space-picker-ram.png');
        await stopDebugging(page);
      });
    } finally {
      await agent?.close().catch(() => undefined);
    }
  },
);
