/**
 * The 256-colour palette where the emulator's live VGA DAC cannot be located
 * (the wasm builds: the default DAC bytes sit in their heap 4-5 times, ROM
 * tables and the live one alike). It is learned from the emulator's own
 * picture: one screenshot, reduced to the mode's pixels, next to the frame
 * decoded from video memory; each palette index gets the colour most of its
 * pixels show. Frames are then decoded from VRAM and coloured through it, so
 * the emulator's 640x400 image is neither encoded nor sent per frame; it is
 * taken again only when an index appears that was not seen yet, or after
 * REFRESH_MS (a program may reprogram the DAC, e.g. a fade).
 */
import type { Rgb } from '../../machines/dos/palette.js';
import { reduceToMode, type RgbaImage } from './xwd.js';

/** how long a learned palette is trusted before the emulator's picture is looked at again */
export const REFRESH_MS = 1000;

export class RendererPalette {
  private colours: (Rgb | undefined)[] = new Array(256);
  private learnedAt = -Infinity;
  private learning?: Promise<void>;

  constructor(
    private readonly screenshot: () => Promise<RgbaImage>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Colours for the indices of one decoded frame (`width` x `height` pixels); unseen indices are black. */
  async palette(indices: Uint8Array, width: number, height: number): Promise<Rgb[]> {
    if (this.now() - this.learnedAt > REFRESH_MS || this.unseen(indices)) {
      this.learning ??= this.learn(indices, width, height).finally(() => (this.learning = undefined));
      await this.learning;
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

  /** Majority vote per index: a pixel that changed between the VRAM read and the screenshot is outvoted. */
  private async learn(indices: Uint8Array, width: number, height: number): Promise<void> {
    const shot = reduceToMode(await this.screenshot(), width, height);
    const votes = new Map<number, Map<number, number>>();
    for (let p = 0; p < indices.length; p++) {
      const word = shot.rgba.readUIntBE(p * 4, 3);
      let byColour = votes.get(indices[p]);
      if (!byColour) votes.set(indices[p], (byColour = new Map()));
      byColour.set(word, (byColour.get(word) ?? 0) + 1);
    }
    for (const [index, byColour] of votes) {
      const [word] = [...byColour].reduce((best, e) => (e[1] > best[1] ? e : best));
      this.colours[index] = [(word >> 16) & 0xff, (word >> 8) & 0xff, word & 0xff];
    }
    this.learnedAt = this.now();
  }
}
