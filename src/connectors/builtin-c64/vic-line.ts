/**
 * One raster line of the VIC-II (PAL 6569) drawn into a row of VICE's
 * debug-buffer geometry (504 pixels; sprite X 24 = buffer x 136, the first
 * text column): graphics in every display mode (the invalid ones black),
 * XSCROLL, sprites with expansion, multicolour and priority, collisions,
 * and the side borders of the 40/38-column modes. The sequencer (what row,
 * which sprite line) is vic-raster.ts's; this file only draws.
 */

export const BUFFER_WIDTH = 504;
/** the part of each row a PAL screen shows (VICE's normal borders); the rest stays 0 */
export const VISIBLE_X0 = 104;
export const VISIBLE_X1 = 488;
/** buffer x of the first pixel of the 320-pixel graphics area */
export const INNER_X = 136;
const SPRITE_X_OFFSET = INNER_X - 24;

/** What the sequencer fetched for the line: 40 screen codes and colours, or idle (all zero, g-data at $3FFF). */
export interface LineFetch {
  /** display state: codes/colours are this row's, g-accesses follow them; idle: from $3FFF ($39FF with ECM) */
  display: boolean;
  codes: Uint8Array;
  colours: Uint8Array;
  /** video counter base of the row and row counter (0-7) */
  vcBase: number;
  rc: number;
  /** the sprites displayed on this line (bit per sprite) and each one's data row (0-20) */
  sprites: number;
  spriteRows: Uint8Array;
}

export interface VicMemory {
  /** the VIC-II's view of its 16 KiB bank (character ROM included) */
  vicRead(offset: number): number;
  readonly vic: Uint8Array;
}

/** Scratch rows, reused for every line. */
const gfx = new Uint8Array(BUFFER_WIDTH);
const fgMask = new Uint8Array(BUFFER_WIDTH);
const spriteColour = new Uint8Array(BUFFER_WIDTH);
const spriteBits = new Uint8Array(BUFFER_WIDTH);
const spriteBehind = new Uint8Array(BUFFER_WIDTH);

/** Collision bits found on the line: sprite-sprite ($D01E) and sprite-background ($D01F). */
export interface Collisions {
  spriteSprite: number;
  spriteBackground: number;
}

/**
 * Draws the line into `row` (a BUFFER_WIDTH slice). `vborder`: the vertical
 * border covers the whole line (sprites too). Returns the line's collisions.
 */
export function drawLine(mem: VicMemory, fetch: LineFetch, vborder: boolean, row: Uint8Array): Collisions {
  const vic = mem.vic;
  const border = vic[0x20] & 0x0f;
  const none = { spriteSprite: 0, spriteBackground: 0 };
  if (vborder) {
    row.fill(border, VISIBLE_X0, VISIBLE_X1);
    return fetch.sprites ? spriteCollisionsOnly(mem, fetch) : none;
  }
  drawGraphics(mem, fetch);
  const collisions = fetch.sprites ? drawSprites(mem, fetch) : none;
  const csel = vic[0x16] & 0x08;
  const left = csel ? INNER_X : INNER_X + 7;
  const right = csel ? INNER_X + 320 : INNER_X + 311;
  const sprites = fetch.sprites !== 0;
  for (let x = VISIBLE_X0; x < VISIBLE_X1; x++) {
    if (x < left || x >= right) row[x] = border;
    else if (sprites && spriteBits[x] && !(spriteBehind[x] && fgMask[x])) row[x] = spriteColour[x];
    else row[x] = gfx[x];
  }
  return collisions;
}

/** The graphics sequencer's output for x in [INNER_X, INNER_X + 320 + 8): colours into gfx, foreground into fgMask. */
function drawGraphics(mem: VicMemory, f: LineFetch): void {
  const vic = mem.vic;
  const ecm = vic[0x11] & 0x40;
  const bmm = vic[0x11] & 0x20;
  const mcm = vic[0x16] & 0x10;
  const invalid = ecm && (bmm || mcm);
  const xscroll = vic[0x16] & 7;
  const bg0 = vic[0x21] & 15;
  const bg1 = vic[0x22] & 15;
  const bg2 = vic[0x23] & 15;
  const bg3 = vic[0x24] & 15;
  const charBase = ((vic[0x18] >> 1) & 0x07) * 0x800;
  const bitmapBase = vic[0x18] & 0x08 ? 0x2000 : 0;
  const ecmBackground = [bg0, bg1, bg2, bg3];
  gfx.fill(bg0, VISIBLE_X0, VISIBLE_X1);
  fgMask.fill(0, VISIBLE_X0, VISIBLE_X1);
  const idleByte = f.display ? 0 : mem.vicRead(ecm ? 0x39ff : 0x3fff);
  for (let col = 0; col < 40; col++) {
    const code = f.codes[col];
    const colour = f.colours[col] & 15;
    let bits: number;
    if (!f.display) bits = idleByte;
    else if (bmm)
      bits = mem.vicRead((bitmapBase | ((((f.vcBase + col) * 8) | f.rc) & 0x1fff)) & (ecm ? 0x39ff : 0x3fff));
    else bits = mem.vicRead((charBase | ((ecm ? code & 0x3f : code) * 8) | f.rc) & 0x3fff);
    const at = INNER_X + xscroll + col * 8;
    const multi = mcm && (bmm || colour & 8);
    if (multi) {
      const c1 = bmm ? code >> 4 : bg1;
      const c2 = bmm ? code & 15 : bg2;
      const c3 = bmm ? colour : colour & 7;
      for (let p = 0; p < 4; p++) {
        const pair = (bits >> (6 - p * 2)) & 3;
        const c = invalid ? 0 : pair === 0 ? bg0 : pair === 1 ? c1 : pair === 2 ? c2 : c3;
        const fg = pair >> 1;
        gfx[at + p * 2] = c;
        gfx[at + p * 2 + 1] = c;
        fgMask[at + p * 2] = fg;
        fgMask[at + p * 2 + 1] = fg;
      }
      continue;
    }
    let on: number, off: number;
    if (bmm) {
      on = code >> 4;
      off = code & 15;
    } else if (ecm) {
      on = colour;
      off = ecmBackground[code >> 6];
    } else {
      on = mcm ? colour & 7 : colour;
      off = bg0;
    }
    if (invalid) on = off = 0;
    for (let b = 0; b < 8; b++) {
      const set = (bits >> (7 - b)) & 1;
      gfx[at + b] = set ? on : off;
      fgMask[at + b] = set;
    }
  }
}

/** A sprite's 24 data bits for its current row. */
function spriteData(mem: VicMemory, s: number, row: number): number {
  const screenBase = ((mem.vic[0x18] >> 4) & 0x0f) * 0x400;
  const pointer = mem.vicRead(screenBase + 0x3f8 + s);
  const at = pointer * 64 + row * 3;
  return (mem.vicRead(at) << 16) | (mem.vicRead(at + 1) << 8) | mem.vicRead(at + 2);
}

/**
 * The sprites' pixels of the line (sprite 0 in front), with their
 * priority bits; collisions among themselves and with foreground graphics.
 */
function drawSprites(mem: VicMemory, f: LineFetch): Collisions {
  const vic = mem.vic;
  spriteBits.fill(0, VISIBLE_X0, VISIBLE_X1);
  let spriteSprite = 0;
  let spriteBackground = 0;
  for (let s = 0; s < 8; s++) {
    const bit = 1 << s;
    if (!(f.sprites & bit)) continue;
    const data = spriteData(mem, s, f.spriteRows[s]);
    const xpos = vic[s * 2] | ((vic[0x10] & bit) << (8 - s));
    const multi = vic[0x1c] & bit;
    const wide = vic[0x1d] & bit ? 2 : 1;
    const behind = vic[0x1b] & bit ? 1 : 0;
    const own = vic[0x27 + s] & 15;
    const mc0 = vic[0x25] & 15;
    const mc1 = vic[0x26] & 15;
    if (xpos >= BUFFER_WIDTH) continue; // X $1F8-$1FF: the PAL X counter never gets there
    const start = xpos + SPRITE_X_OFFSET;
    for (let p = 0; p < 24 * wide; p++) {
      const bitIndex = Math.floor(p / wide);
      let colour: number;
      if (multi) {
        const pair = (data >> (22 - (bitIndex & ~1))) & 3;
        if (!pair) continue;
        colour = pair === 1 ? mc0 : pair === 2 ? own : mc1;
      } else {
        if (!((data >> (23 - bitIndex)) & 1)) continue;
        colour = own;
      }
      const x = (start + p) % BUFFER_WIDTH;
      if (x < VISIBLE_X0 || x >= VISIBLE_X1) continue;
      const there = spriteBits[x];
      if (there) spriteSprite |= there | bit;
      else {
        spriteColour[x] = colour;
        spriteBehind[x] = behind;
      }
      spriteBits[x] = there | bit;
      if (fgMask[x]) spriteBackground |= bit;
    }
  }
  return { spriteSprite, spriteBackground };
}

/** Sprites under the vertical border still collide with each other (there is no foreground there). */
function spriteCollisionsOnly(mem: VicMemory, f: LineFetch): Collisions {
  fgMask.fill(0, VISIBLE_X0, VISIBLE_X1);
  return { spriteSprite: drawSprites(mem, f).spriteSprite, spriteBackground: 0 };
}
