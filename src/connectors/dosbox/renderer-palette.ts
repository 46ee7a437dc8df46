/**
 * The 256-colour palette where the emulator's live VGA DAC cannot be located
 * (the wasm builds: the default DAC bytes sit in their heap 4-5 times, ROM
 * tables and the live one alike). It is learned from the emulator's own
 * picture: one screenshot, reduced to the mode's pixels, next to the frame
 * decoded from video memory. The emulator draws that picture on its own
 * clock, frames behind video memory (on a loaded machine a whole mode 13h
 * fill was still black in it), so the screenshot is taken once the guest's
 * timer has ticked twice after the memory read (pictureAfter), and an index
 * is learned only where all its pixels show one colour; one that disagrees
 * (the program drew it meanwhile) is looked at again with the next frame, and
 * one that has not agreed for REFRESH_MS (a picture that never holds still)
 * takes the colour most of its pixels show. Frames are then decoded from VRAM
 * and coloured through it, so the emulator's 640x400 image is neither encoded
 * nor sent per frame; it is taken again only when an index appears that was
 * not learned yet, or after REFRESH_MS (a program may reprogram the DAC, e.g.
 * a fade).
 */
import { sleep } from '../../core/async.js';
import type { Rgb } from '../../machines/dos/palette.js';
import { reduceToMode, type RgbaImage } from './xwd.js';

/** how long a learned palette is trusted before the emulator's picture is looked at again */
export const REFRESH_MS = 1000;
/** guest timer ticks (55 ms each, at least 3 VGA frames) to let pass before the picture is taken */
const SETTLE_TICKS = 2;
/** a guest whose timer does not tick (IRQ 0 masked or not chained): the picture as it is after this */
const SETTLE_LIMIT_MS = 1000;
const SETTLE_POLL_MS = 10;

/** The emulator's picture drawn after now: once the guest's BIOS tick count moved SETTLE_TICKS on. */
export function pictureAfter(ticks: () => Promise<number>, screenshot: () => Promise<RgbaImage>) {
  return async (): Promise<RgbaImage> => {
    const from = await ticks();
    const end = performance.now() + SETTLE_LIMIT_MS;
    while (((await ticks()) - from) >>> 0 < SETTLE_TICKS && performance.now() < end) await sleep(SETTLE_POLL_MS);
    return screenshot();
  };
}

export class RendererPalette {
  private colours: (Rgb | undefined)[] = new Array(256);
  /** per index, when its pixels first disagreed (since its last learned colour) */
  private disagreeing = new Map<number, number>();
  private learnedAt = -Infinity;
  private learning?: Promise<void>;

  constructor(
    private readonly screenshot: () => Promise<RgbaImage>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Colours for the indices of one decoded frame (`width` x `height` pixels); indices not learned yet are black. */
  async palette(indices: Uint8Array, width: number, height: number): Promise<Rgb[]> {
    while (this.now() - this.learnedAt > REFRESH_MS || this.unseen(indices)) {
      // a look in flight was at another frame's indices: wait for it, then see whether these still need one
      if (this.learning) {
        await this.learning;
        continue;
      }
      this.learning = this.learn(indices, width, height).finally(() => (this.learning = undefined));
      await this.learning;
      break;
    }
    return Array.from({ length: 256 }, (_, i) => this.colours[i] ?? [0, 0, 0]);
  }

  private unseen(indices: Uint8Array): boolean {
    const seen = new Uint8Array(256);
    for (let i = 0; i < indices.length; i++) {
      const v = indices[i];
      if (seen[v]) continue;
      seen[v] = 1;
      if (!this.colours[v]) return true;
    }
    return false;
  }

  private async learn(indices: Uint8Array, width: number, height: number): Promise<void> {
    const shot = reduceToMode(await this.screenshot(), width, height);
    const votes = new Map<number, Map<number, number>>();
    for (let p = 0; p < indices.length; p++) {
      const word = shot.rgba.readUIntBE(p * 4, 3);
      let byColour = votes.get(indices[p]);
      if (!byColour) votes.set(indices[p], (byColour = new Map()));
      byColour.set(word, (byColour.get(word) ?? 0) + 1);
    }
    const now = this.now();
    for (const [index, byColour] of votes) {
      const since = this.disagreeing.get(index) ?? now;
      if (byColour.size > 1 && now - since < REFRESH_MS) {
        this.disagreeing.set(index, since);
        continue;
      }
      this.disagreeing.delete(index);
      const [word] = [...byColour].reduce((best, e) => (e[1] > best[1] ? e : best));
      this.colours[index] = [(word >> 16) & 0xff, (word >> 8) & 0xff, word & 0xff];
    }
    this.learnedAt = now;
  }
}
