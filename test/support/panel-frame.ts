/**
 * The screen panel's webview as an end-to-end test sees it (nested iframes in the workbench): finding its
 * frame, reading its header fields, hovering a C64 text cell, typing into its canvas with DOM key events.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from './workbench.js';

/** The panel's webview frame: the one whose document has the screen canvas. */
export async function panelFrame(page: Page): Promise<Frame | undefined> {
  for (const frame of page.frames()) {
    const has = await frame.evaluate(() => !!document.getElementById('screen')).catch(() => false);
    if (has) return frame;
  }
  return undefined;
}

export const readPanel = (frame: Frame) =>
  frame.evaluate(() => {
    const canvas = document.getElementById('screen') as HTMLCanvasElement;
    return {
      frame: Number(canvas.dataset.frame ?? -1),
      state: document.getElementById('state')?.textContent ?? '',
      fps: document.getElementById('fps')?.textContent ?? '',
      control: document.getElementById('control')?.textContent ?? '',
      focus: document.getElementById('focus')?.textContent ?? '',
      stale: !(document.getElementById('stale')?.hidden ?? true),
      inspector: document.getElementById('inspector')?.textContent ?? '',
      message: document.getElementById('message')?.hidden
        ? ''
        : (document.getElementById('message')?.textContent ?? ''),
    };
  });

/** Installs `hoverCell(col, row)` in the panel: the pointer over a cell of the C64's inner text area. */
export async function installHoverCell(panel: Frame): Promise<void> {
  // Frame.evaluate takes no arguments here: a page helper
  await panel.evaluate(() => {
    (window as unknown as { hoverCell: (c: number, r: number) => void }).hoverCell = (c, r) => {
      const canvas = document.getElementById('screen') as HTMLCanvasElement;
      const box = canvas.getBoundingClientRect();
      const scale = Math.min(box.width / canvas.width, box.height / canvas.height);
      const left = box.left + (box.width - canvas.width * scale) / 2;
      const top = box.top + (box.height - canvas.height * scale) / 2;
      const x = left + (32 + c * 8 + 4 + 0.5) * scale; // 32, 35: the inner area inside the 384x272 frame
      const y = top + (35 + r * 8 + 4 + 0.5) * scale;
      canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: x, clientY: y, bubbles: true }));
    };
  });
}
export type HoverCell = { hoverCell: (c: number, r: number) => void };

/** A workspace with the live-screen fixture built by cc65 and a launch.json that runs it on the built-in C64. */
export function writeLiveScreenWorkspace(ws: string, dir: string, stopOnEntry = false): void {
  mkdirSync(join(ws, '.vscode'), { recursive: true });
  copyFileSync(join(dir, 'program.prg'), join(ws, 'live.prg'));
  copyFileSync(join(dir, 'program.dbg'), join(ws, 'live.dbg'));
  copyFileSync(join(dir, 'live.c'), join(ws, 'live.c'));
  const launch = {
    version: '0.2.0',
    configurations: [
      {
        type: 'retro',
        request: 'launch',
        name: 'Live screen on the built-in C64',
        machine: 'c64',
        emulator: 'builtin',
        program: '${workspaceFolder}/live.prg',
        debugInfo: '${workspaceFolder}/live.dbg',
        cwd: '${workspaceFolder}',
        stopOnEntry,
      },
    ],
  };
  writeFileSync(join(ws, '.vscode', 'launch.json'), JSON.stringify(launch, null, 2));
}
