/**
 * A growing list of 32-bit integers kept in a typed array: a big program's debug info has tens of thousands of
 * line and assembler addresses, and a JS array of them grows on the JS heap, where every copy made while it grows
 * is garbage for the collector to sweep (a typed array's bytes live off that heap).
 */
export class IntColumn {
  private data: Int32Array;
  private size = 0;

  constructor(capacity = 256) {
    this.data = new Int32Array(capacity);
  }

  get length(): number {
    return this.size;
  }

  push(value: number): void {
    if (this.size === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.size++] = value;
  }

  /** Sets entry `i`, one already pushed. */
  set(i: number, value: number): void {
    if (i < this.size) this.data[i] = value;
  }

  /** Entry `i` (undefined past the end). */
  at(i: number): number | undefined {
    return i < this.size ? this.data[i] : undefined;
  }

  /** The entries so far, without a copy (a view that a later push may leave behind). */
  view(): Int32Array {
    return this.data.subarray(0, this.size);
  }

  /** Empties the column and lets its memory go. */
  release(): void {
    this.data = new Int32Array(0);
    this.size = 0;
  }
}
