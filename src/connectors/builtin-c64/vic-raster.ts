/**
 * The built-in C64's VIC-II raster: a sequencer that runs line by line on
 * the machine's clock (badlines, the row counter and idle state, sprite DMA
 * with Y expansion, the vertical border flip-flop, raster compare) and
 * draws each line as it begins (vic-line.ts), so raster splits, double
 * buffering and mid-frame changes look as on VICE (to the line, not the
 * cycle: a write inside a line shows from the next one).
 *
 * Frames, the API the screen panel and captures use:
 * - `live`: the buffer being drawn — rows above the raster from this frame,
 *   below from the last (what VICE's `display get` returns);
 * - `lastFrame()`: the frame the raster completed last (the default capture);
 * - `memoryNow(mem)`: every line drawn from memory and registers as they are
 *   now (what the built-in showed before; a debugging view);
 * - `onFrame(listener)`: called at each completed frame, on the machine's
 *   own frame clock, with a copy of it.
 * All three are 504x312 palette indices in VICE's debug-buffer geometry
 * (video.ts: raster line L at row L-1, as x64sc draws it).
 */
import type { FrameSource } from '../../core/target.js';
import { BUFFER_WIDTH, drawLine, type LineFetch, type VicMemory } from './vic-line.js';
import { stolenCycles } from './vic-timing.js';

export const LINES = 312;
/** the raster lines a PAL screen shows; x64sc r46200 draws line L at buffer row L-1, and so do we */
const VISIBLE_LINE0 = 16;
const VISIBLE_LINE1 = 288;
const ROW_OF_LINE = -1;

export interface VicFrame {
  pixels: Buffer;
  /** frames completed since power-on when this one was (undefined for memory-now) */
  frame?: number;
  source: FrameSource;
}

export interface RasterMemory extends VicMemory {
  readonly colorRam: Uint8Array;
}

export class VicRaster {
  readonly live = Buffer.alloc(BUFFER_WIDTH * LINES);
  private readonly last = Buffer.alloc(BUFFER_WIDTH * LINES);
  private completed = 0;
  private readonly listeners = new Set<(frame: VicFrame) => void>();
  /** called when $D019's latched sources may have changed (raster compare, collisions) */
  onInterrupt: () => void = () => undefined;

  private vcBase = 0;
  private rc = 7;
  private display = false;
  private vborder = true;
  private denSeen = false;
  private badline = false;
  private readonly fetch: LineFetch = {
    display: false,
    codes: new Uint8Array(40),
    colours: new Uint8Array(40),
    vcBase: 0,
    rc: 0,
    sprites: 0,
    spriteRows: new Uint8Array(8),
  };
  private spriteDma = 0;
  private readonly mcBase = new Uint8Array(8);
  private readonly expand = new Uint8Array(8);

  /** `effects`: set collision and raster-compare bits (the machine's raster; false for memory-now) */
  constructor(
    private readonly mem: RasterMemory,
    private readonly effects = true,
  ) {}

  /** Frames completed since power-on. */
  get frames(): number {
    return this.completed;
  }

  /** The frame completed last; before the first one, memory now (and it says so). */
  lastFrame(): VicFrame {
    if (!this.completed) return { pixels: memoryNow(this.mem), source: 'memory-now' };
    return { pixels: this.last, frame: this.completed, source: 'last-frame' };
  }

  /** Calls `listener` with a copy of each completed frame; returns the unsubscribe. */
  onFrame(listener: (frame: VicFrame) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A raster line begins: the sequencer's decisions for it, and the line is
   * drawn with the registers as the CPU left them (a write late in the line
   * before, where raster interrupts land, shows from this line, as on VICE);
   * returns the CPU cycles the VIC-II takes on it.
   */
  startLine(line: number): number {
    const vic = this.mem.vic;
    const den = vic[0x11] & 0x10;
    if (line === 0) {
      this.vcBase = 0;
      this.denSeen = false;
    }
    if (line === 0x30 && den) this.denSeen = true;
    this.badline = this.denSeen && line >= 0x30 && line <= 0xf7 && (line & 7) === (vic[0x11] & 7);
    const f = this.fetch;
    if (this.badline) {
      this.display = true;
      this.rc = 0;
      for (let i = 0; i < 40; i++) {
        const vc = (this.vcBase + i) & 0x3ff;
        f.codes[i] = this.mem.vicRead(((vic[0x18] >> 4) & 0x0f) * 0x400 + vc);
        f.colours[i] = this.mem.colorRam[vc];
      }
    }
    f.display = this.display;
    if (!this.display) {
      f.codes.fill(0);
      f.colours.fill(0);
    }
    f.vcBase = this.vcBase;
    f.rc = this.rc;
    this.startSprites(line);
    const rsel = vic[0x11] & 0x08;
    if (line === (rsel ? 251 : 247)) this.vborder = true;
    if (line === (rsel ? 51 : 55) && den) this.vborder = false;
    if (line >= VISIBLE_LINE0 && line < VISIBLE_LINE1) {
      const at = (line + ROW_OF_LINE) * BUFFER_WIDTH;
      const row = this.live.subarray(at, at + BUFFER_WIDTH);
      const hits = drawLine(this.mem, this.fetch, this.vborder, row);
      if (this.effects) this.collide(hits.spriteSprite, hits.spriteBackground);
    }
    if (this.effects && line === (vic[0x12] | ((vic[0x11] & 0x80) << 1))) {
      vic[0x19] |= 0x01;
      this.onInterrupt();
    }
    return stolenCycles(this.badline, popCount(this.spriteDma));
  }

  /** The raster has passed the line: advance the row counter and sprites; after line 311 the frame is complete. */
  endLine(line: number): void {
    if (this.rc === 7) {
      if (this.display) this.vcBase = (this.vcBase + 40) & 0x3ff;
      this.display = this.badline;
    }
    if (this.display) this.rc = (this.rc + 1) & 7;
    this.endSprites();
    if (line === LINES - 1) this.completeFrame();
  }

  private startSprites(line: number): void {
    const vic = this.mem.vic;
    const compare = (line === 0 ? LINES - 1 : line - 1) & 0xff;
    for (let s = 0; s < 8; s++) {
      const bit = 1 << s;
      if (vic[0x15] & bit && !(this.spriteDma & bit) && vic[1 + s * 2] === compare) {
        this.spriteDma |= bit;
        this.mcBase[s] = 0;
        this.expand[s] = 1;
      }
      this.fetch.spriteRows[s] = this.mcBase[s] / 3;
    }
    this.fetch.sprites = this.spriteDma & vic[0x15];
  }

  private endSprites(): void {
    const yExpand = this.mem.vic[0x17];
    for (let s = 0; s < 8; s++) {
      const bit = 1 << s;
      if (!(this.spriteDma & bit)) continue;
      this.expand[s] = yExpand & bit ? this.expand[s] ^ 1 : 1;
      if (!this.expand[s]) continue;
      this.mcBase[s] += 3;
      if (this.mcBase[s] >= 63) this.spriteDma &= ~bit;
    }
  }

  /** Collision registers latch; the first bit of each raises its interrupt source ($D019 bits 1 and 2). */
  private collide(spriteSprite: number, spriteBackground: number): void {
    const vic = this.mem.vic;
    let raised = false;
    if (spriteBackground && !vic[0x1f]) {
      vic[0x19] |= 0x02;
      raised = true;
    }
    if (spriteSprite && !vic[0x1e]) {
      vic[0x19] |= 0x04;
      raised = true;
    }
    vic[0x1f] |= spriteBackground;
    vic[0x1e] |= spriteSprite;
    if (raised) this.onInterrupt();
  }

  private completeFrame(): void {
    this.live.copy(this.last);
    this.completed++;
    for (const listener of this.listeners) {
      listener({ pixels: Buffer.from(this.last), frame: this.completed, source: 'last-frame' });
    }
  }
}

/** Every line drawn from memory and registers as they are now (no collisions, no interrupts). */
export function memoryNow(mem: RasterMemory): Buffer {
  const raster = new VicRaster(mem, false);
  for (let line = 0; line < LINES; line++) {
    raster.startLine(line);
    raster.endLine(line);
  }
  return raster.live;
}

function popCount(bits: number): number {
  let n = 0;
  for (; bits; bits &= bits - 1) n++;
  return n;
}
