/**
 * What of a frame the panel posts: the rows that changed since the frame
 * posted before it, or the whole frame (the first, after a size, format or
 * palette change, or when the webview asks for one). A C64 text screen
 * whose one character moves is then a few rows, not 104 KB a frame: the
 * bytes through a browser-hosted VS Code's extension-host link were what
 * held the panel under 25 frames/s. Posts arrive in order, so the webview
 * patches the frame it holds.
 */

/** Rows `y`..`y + count - 1` of the frame (`count` 0: no pixel changed). */
export interface FrameRows {
  y: number;
  count: number;
}

export class FrameDelta {
  private prev?: { key: string; data: Uint8Array };

  /** The next frame is posted whole (a new webview, or one that lost the thread). */
  reset(): void {
    this.prev = undefined;
  }

  /**
   * The bytes to post (always their own buffer: VS Code transfers a typed
   * array's whole ArrayBuffer) and, for a part, which rows they are.
   * `key` names what must match to patch: size, bytes a pixel, palette.
   */
  next(data: Uint8Array, height: number, key: string): { data: Uint8Array; rows?: FrameRows } {
    const prev = this.prev;
    const copy = new Uint8Array(data);
    this.prev = { key, data: copy };
    if (!prev || prev.key !== key || prev.data.length !== copy.length || height <= 0) return { data: ownBuffer(data) };
    const stride = copy.length / height;
    const same = (y: number) => sameRow(prev.data, copy, y * stride, stride);
    let first = 0;
    while (first < height && same(first)) first++;
    if (first === height) return { data: new Uint8Array(0), rows: { y: 0, count: 0 } };
    let last = height - 1;
    while (last > first && same(last)) last--;
    const count = last - first + 1;
    if (count === height) return { data: ownBuffer(data) };
    return { data: copy.slice(first * stride, (last + 1) * stride), rows: { y: first, count } };
  }
}

/**
 * The array as it is when it spans its whole ArrayBuffer, else a copy with its own: VS Code posts a typed
 * array's whole ArrayBuffer (a small Node Buffer's is a shared pool).
 */
function ownBuffer(a: Uint8Array): Uint8Array {
  return a.byteOffset === 0 && a.byteLength === a.buffer.byteLength ? a : new Uint8Array(a);
}

/** Plain loop, no Node Buffer: this file is bundled into the webview too. */
function sameRow(a: Uint8Array, b: Uint8Array, at: number, length: number): boolean {
  for (let i = at; i < at + length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** What must match for rows to patch a held frame: the size, and the palette (indexed) or RGBA. */
export function frameKey(width: number, height: number, palette?: readonly number[]): string {
  return `${width}x${height} ${palette ? paletteText(palette) : 'rgba'}`;
}

/** The last palette's text, kept while its colours stay: joining 256 colours costs ~0.2 ms a frame, comparing ~1 µs. */
let lastPalette: { colours: readonly number[]; text: string } | undefined;

function paletteText(colours: readonly number[]): string {
  const last = lastPalette;
  if (last && last.colours.length === colours.length && last.colours.every((c, i) => c === colours[i]))
    return last.text;
  lastPalette = { colours: colours.slice(), text: colours.join(',') };
  return lastPalette.text;
}

/** The webview's side: the frame it holds, patched by the rows that come. */
export class HeldFrame {
  private held?: { key: string; data: Uint8Array };

  /** The whole frame after this post (`data` whole, or the rows `rows` of it); undefined when it holds none to patch. */
  apply(data: Uint8Array, height: number, key: string, rows?: FrameRows): Uint8Array | undefined {
    if (!rows) {
      this.held = { key, data };
      return data;
    }
    const held = this.held;
    if (!held || held.key !== key) return undefined;
    held.data.set(data, (rows.y * held.data.length) / height);
    return held.data;
  }
}
