/**
 * The wasm emulator's memory: its heap, a Uint8Array in our own process. The
 * view is fetched again on every access because the heap may grow (the old
 * view then detaches).
 */
import { targetLost, badAddress } from '../../core/errors.js';
import type { HostMemory, HostRegion } from './host-memory.js';
import { heapHits, type SearchPattern } from './host-search.js';

export class HeapMemory implements HostMemory {
  readonly backend = 'wasm' as const;
  private closed = false;

  constructor(
    private readonly heap: () => Uint8Array,
    readonly description: string,
  ) {}

  async regions(): Promise<HostRegion[]> {
    return [{ start: 0, end: this.view().length, label: 'wasm heap' }];
  }

  async read(address: number, length: number): Promise<Uint8Array> {
    const h = this.view();
    this.check(address, length, h.length);
    return h.slice(address, address + length);
  }

  async search(start: number, end: number, pattern: SearchPattern, limit: number): Promise<number[]> {
    return heapHits(this.view(), start, end, pattern, limit);
  }

  async write(address: number, data: Uint8Array): Promise<void> {
    const h = this.view();
    this.check(address, data.length, h.length);
    h.set(data, address);
  }

  alive(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private view(): Uint8Array {
    if (this.closed) throw targetLost(`${this.description} has been shut down.`);
    return this.heap();
  }

  private check(address: number, length: number, size: number): void {
    if (address < 0 || address + length > size) {
      throw badAddress(`Heap address 0x${address.toString(16)}+${length} is outside the ${size}-byte wasm heap.`);
    }
  }
}
