/** The one memory search: in place (wasm heap) and by chunks (a process's memory) find the same matches. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HeapMemory } from '../../src/connectors/dosbox/heap-memory.js';
import { searchHost, searchRegion, type SearchPattern } from '../../src/connectors/dosbox/host-search.js';
import type { HostMemory } from '../../src/connectors/dosbox/host-memory.js';

const MIB = 1 << 20;

/** The heap as a process's memory is seen: reads only (no in-place search), with the reads recorded. */
function byReads(heap: Uint8Array, regions = [{ start: 0, end: heap.length, label: 'all' }]) {
  const reads: { length: number; into: boolean }[] = [];
  const mem: HostMemory = {
    description: 'chunked test memory',
    backend: 'native',
    regions: async () => regions,
    read: async (address, length, into) => {
      reads.push({ length, into: into !== undefined });
      const out = into ? into.subarray(0, length) : new Uint8Array(length);
      out.set(heap.subarray(address, address + length));
      return out;
    },
    write: async () => undefined,
    alive: () => true,
    close: async () => undefined,
  };
  return { mem, reads };
}

describe('memory search', () => {
  const heap = new Uint8Array(40 * MIB);
  const text: SearchPattern = { bytes: Uint8Array.of(0x41, 0x42, 0x43), stride: 2 };
  // one match across the first 16 MiB chunk's end, one inside, one ending at the heap's last byte
  const starts = [16 * MIB - 3, 20 * MIB + 7, 40 * MIB - 5];
  for (const s of starts) text.bytes.forEach((b, k) => (heap[s + k * 2] = b));
  heap.set([0x41, 0, 0x42, 0, 0x44], 30 * MIB); // a near miss

  it('finds the same matches in place and by chunks, across chunk ends', async () => {
    const inPlace = await searchHost(new HeapMemory(() => heap, 'heap'), text);
    const { mem, reads } = byReads(heap);
    assert.deepEqual(inPlace, starts);
    assert.deepEqual(await searchHost(mem, text), starts);
    // each chunk is read into one reused buffer: the scan allocates once, not 16 MiB a chunk
    assert.equal(reads.length, 3);
    assert.ok(reads.every((r) => r.into));
  });

  it('keeps matches wholly inside the region and stops at the limit', async () => {
    const region = { start: 16 * MIB - 2, end: 40 * MIB - 1, label: 'part' };
    const heapMem = new HeapMemory(() => heap, 'heap');
    assert.deepEqual(await searchRegion(heapMem, region, text), [20 * MIB + 7]);
    assert.deepEqual(await searchRegion(byReads(heap).mem, region, text), [20 * MIB + 7]);
    assert.deepEqual(await searchHost(heapMem, text, 2), starts.slice(0, 2));
    assert.deepEqual(await searchHost(byReads(heap).mem, text, 1), starts.slice(0, 1));
  });

  it('searches plain byte strings (stride 1)', async () => {
    const small = Uint8Array.of(1, 0x1e, 0, 0x3e, 0, 0x1e, 0, 0x3e, 0);
    const ring: SearchPattern = { bytes: Uint8Array.of(0x1e, 0, 0x3e, 0), stride: 1 };
    assert.deepEqual(await searchHost(new HeapMemory(() => small, 'heap'), ring), [1, 5]);
    assert.deepEqual(await searchHost(byReads(small).mem, ring), [1, 5]);
  });
});
