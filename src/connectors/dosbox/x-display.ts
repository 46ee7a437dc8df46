/**
 * The emulator's private X display (isolation "xvfb"): photograph its window
 * with Debian's xwd and send it the emulator's own hotkeys through XTEST with
 * xdotool. Only ever called with the display we started; the desktop's
 * DISPLAY is never used, so nobody's focus, pointer or keys are touched.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { notFound, unsupported, targetLost } from '../../core/errors.js';
import { parseXwd, type RgbaImage } from './xwd.js';

const run = promisify(execFile);
const TOOL_TIMEOUT_MS = 10_000;

export interface WindowShot {
  image: RgbaImage;
  window: string;
  /** wall time xwd took */
  ms: number;
}

export class PrivateDisplay {
  constructor(readonly display: string) {}

  /** The emulator's top-level window: the only visible one on its own display. */
  async window(): Promise<string> {
    const { stdout } = await this.tool('xdotool', ['search', '--onlyvisible', '--maxdepth', '1', '--name', '.'], true);
    const ids = String(stdout).split('\n').filter(Boolean);
    if (!ids.length) throw notFound(`The emulator has no visible window on ${this.display} yet.`);
    return ids[0];
  }

  async capture(): Promise<WindowShot> {
    const window = await this.window();
    const t0 = performance.now();
    const { stdout } = await this.tool('xwd', ['-id', window, '-silent'], false);
    const ms = performance.now() - t0;
    return { image: parseXwd(stdout as unknown as Buffer), window, ms };
  }

  /** Presses a key combination (xdotool syntax, e.g. "ctrl+F5") into the emulator's window through XTEST. */
  async key(combo: string): Promise<void> {
    const window = await this.window();
    // focus and pointer on this private display belong to the emulator alone
    await this.tool('xdotool', ['windowfocus', '--sync', window], true);
    await this.tool('xdotool', ['key', '--clearmodifiers', combo], true);
  }

  private async tool(cmd: string, args: string[], text: boolean): Promise<{ stdout: string | Buffer }> {
    try {
      return await run(cmd, args, {
        env: { ...process.env, DISPLAY: this.display },
        encoding: text ? 'utf8' : 'buffer',
        maxBuffer: 256 << 20,
        timeout: TOOL_TIMEOUT_MS,
      });
    } catch (err) {
      const e = err as { stderr?: Buffer | string; code?: string | number; message: string };
      if (e.code === 'ENOENT')
        throw unsupported(
          `${cmd} is not installed (Debian: apt-get install ${cmd === 'xwd' ? 'x11-apps' : cmd}); it is needed on the emulator's private display.`,
        );
      if (cmd === 'xdotool' && args[0] === 'search' && e.code === 1)
        throw notFound(`The emulator has no visible window on ${this.display} yet.`);
      throw targetLost(`${cmd} failed on ${this.display}: ${String(e.stderr ?? e.message).trim()}`);
    }
  }
}
