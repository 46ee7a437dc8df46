/**
 * What is under a point of a DOS guest's screen, from the BIOS data area's
 * video mode, columns, rows and page offset: in a text mode the cell and the
 * guest-physical address of its character and attribute; in mode 13h the
 * pixel's offset in the A000 segment (its palette index is the byte there).
 * Pure: the caller reads the bytes. The frame may be scaled (text drawn 8 or
 * 9 pixels a column, mode 13h doubled): coordinates scale by the frame size.
 */
export const TEXT_SEGMENT = 0xb8000;
export const MONO_TEXT_SEGMENT = 0xb0000;
export const MODE13_SEGMENT = 0xa0000;

export const DOS_COLOUR_NAMES = [
  'black',
  'blue',
  'green',
  'cyan',
  'red',
  'magenta',
  'brown',
  'light grey',
  'dark grey',
  'light blue',
  'light green',
  'light cyan',
  'light red',
  'light magenta',
  'yellow',
  'white',
] as const;

export interface DosVideoState {
  videoMode: number;
  columns: number;
  rows: number;
  pageOffset: number;
}

export type DosPoint =
  | { kind: 'text'; col: number; row: number; address: number }
  | { kind: 'mode13'; x: number; y: number; offset: number; address: number }
  | { kind: 'other'; mode: number };

const TEXT_MODES = new Set([0, 1, 2, 3, 7]);

/** (x, y) in a frame `width` x `height` showing the guest's screen. */
export function dosPointAt(x: number, y: number, width: number, height: number, v: DosVideoState): DosPoint {
  const mode = v.videoMode & 0x7f;
  if (TEXT_MODES.has(mode)) {
    const col = Math.min(v.columns - 1, Math.floor((x * v.columns) / width));
    const row = Math.min(v.rows - 1, Math.floor((y * v.rows) / height));
    const base = mode === 7 ? MONO_TEXT_SEGMENT : TEXT_SEGMENT;
    return { kind: 'text', col, row, address: base + v.pageOffset + (row * v.columns + col) * 2 };
  }
  if (mode === 0x13) {
    const px = Math.min(319, Math.floor((x * 320) / width));
    const py = Math.min(199, Math.floor((y * 200) / height));
    const offset = py * 320 + px;
    return { kind: 'mode13', x: px, y: py, offset, address: MODE13_SEGMENT + offset };
  }
  return { kind: 'other', mode };
}

/** A text attribute in words: foreground, background and blink (the BIOS default: bit 7 blinks). */
export function describeAttribute(attr: number): string {
  const fg = DOS_COLOUR_NAMES[attr & 15];
  const bg = DOS_COLOUR_NAMES[(attr >> 4) & 7];
  return `${fg} on ${bg}${attr & 0x80 ? ', blinking' : ''}`;
}

/**
 * A frame pixel as INT 33h coordinates: the Microsoft mouse driver's virtual
 * screen is 640 wide in every standard mode (mode 13h and 40-column text
 * double x), 200 high except the EGA 350-line and VGA 480-line modes.
 */
export function int33Position(x: number, y: number, width: number, height: number, videoMode: number) {
  const mode = videoMode & 0x7f;
  const high = mode === 0x0f || mode === 0x10 ? 350 : mode === 0x11 || mode === 0x12 ? 480 : 200;
  return {
    x: Math.min(639, Math.max(0, Math.floor((x * 640) / width))),
    y: Math.min(high - 1, Math.max(0, Math.floor((y * high) / height))),
  };
}
