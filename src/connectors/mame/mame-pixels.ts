/**
 * MAME's pixels (`screen:pixels()`: 0xAARRGGBB words, little-endian, so B,G,R,A
 * bytes) in the two forms viewers take: RGBA, and palette indices for a
 * picture of at most 256 colours, which most machines MAME runs here show
 * (the Spectrum 16, the Sprinter's modes 256). The indexed form is a quarter
 * of the bytes for every copy after it (the feed's kept frames, the panel's
 * postMessage, watch_screen) and the garbage they make.
 */
import type { Rgb } from '../../core/indexed-png.js';
import { internalError } from '../../core/errors.js';
import type { ScreenImage } from '../../core/target.js';
import type { BridgeClient } from './bridge-client.js';

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * MAME's screen as it stands (the bridge's `screen_pixels`), whichever moment it was drawn at; `kept`: the picture
 * `screen_keep` kept in MAME.
 */
export async function screenPixels(bridge: BridgeClient, stopped: boolean, kept = false): Promise<ScreenImage> {
  const { result, binary } = await bridge.request('screen_pixels', kept ? { kept } : {});
  const width = result.width as number;
  const height = result.height as number;
  if (!binary || binary.length !== width * height * 4)
    throw internalError(`MAME sent ${binary?.length ?? 0} pixel bytes for a ${width}x${height} screen.`);
  const frame = typeof result.frame === 'number' ? result.frame : undefined;
  return { width, height, rgba: bgraToRgba(binary), frame, maybeStale: stopped };
}

/**
 * BGRA → RGBA into a new buffer: R and B swap, one 32-bit word a pixel. Never
 * in place: the sources are buffers read again (the slot file's read buffer).
 */
export function bgraToRgba(src: Buffer): Buffer {
  const out = Buffer.allocUnsafeSlow(src.length); // its own ArrayBuffer: aligned for the word view
  src.copy(out);
  if (!littleEndian) {
    for (let i = 0; i < out.length; i += 4) [out[i], out[i + 2]] = [out[i + 2], out[i]];
    return out;
  }
  const words = new Uint32Array(out.buffer, out.byteOffset, out.length >>> 2);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    words[i] = (w & 0xff00ff00) | ((w & 0xff) << 16) | ((w >>> 16) & 0xff);
  }
  return out;
}

export interface IndexedPicture {
  pixels: Uint8Array;
  palette: readonly Rgb[];
}

/** slots of the colour → index table: a power of two well above 256, so probes stay short */
const TABLE_SIZE = 1024;

/**
 * Palette indices for BGRA pictures, with one palette that grows across
 * frames (an index keeps its colour, so frames of one source compare by their
 * indices); a palette that changes is a new array, the old one stays with the
 * frames that have it. A picture of more than 256 colours starts it afresh.
 * The colour → index table is open addressing over typed arrays: a dithered
 * picture changes colour every pixel, and a Map lookup a pixel cost ~20 ns.
 */
export class PaletteIndexer {
  private readonly keys = new Int32Array(TABLE_SIZE);
  private readonly values = new Int16Array(TABLE_SIZE).fill(-1);
  private palette: Rgb[] = [];

  /** Indices for `bgra` (4-aligned, `count` pixels), or undefined for a picture with more than 256 colours. */
  toIndexed(bgra: Buffer, count: number): IndexedPicture | undefined {
    const words = new Int32Array(bgra.buffer, bgra.byteOffset, count);
    const out = new Uint8Array(count);
    const { keys, values } = this;
    // two colours at hand (the newest and the one before): runs and two-colour dithers (ink and paper) never reach
    // the table, and a hit reorders nothing
    let a = 0;
    let aIndex = -1;
    let b = 0;
    let bIndex = -1;
    for (let i = 0; i < count; i++) {
      const w = words[i];
      let found: number;
      if (w === a && aIndex >= 0) found = aIndex;
      else if (w === b && bIndex >= 0) found = bIndex;
      else {
        let h = Math.imul(w, 0x9e3779b1) >>> 22;
        while (values[h] >= 0 && keys[h] !== w) h = (h + 1) & (TABLE_SIZE - 1);
        if (values[h] < 0) {
          if (this.palette.length === 256) return this.restart();
          keys[h] = w;
          values[h] = this.palette.length;
          this.palette = [...this.palette, [bgra[i * 4 + 2], bgra[i * 4 + 1], bgra[i * 4]]];
        }
        b = a;
        bIndex = aIndex;
        a = w;
        aIndex = found = values[h];
      }
      out[i] = found;
    }
    return { pixels: out, palette: this.palette };
  }

  /** More than 256 colours: no indexed form for this picture, and a fresh palette for the next. */
  private restart(): undefined {
    this.values.fill(-1);
    this.palette = [];
    return undefined;
  }
}
