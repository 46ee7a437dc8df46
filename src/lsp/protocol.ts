/** The language server's one extension of LSP: it asks the client for live memory while a session is stopped. */
import type { Machine } from './hardware-lookup.js';

export const READ_MEMORY_REQUEST = 'retro/readMemory';

export interface ReadMemoryParams {
  machine: Machine;
  /** CPU address (DOS: physical address in guest memory) */
  address: number;
  size: number;
}

/** null: no stopped session of that machine (the hover then shows no live value) */
export type ReadMemoryResult = { bytes: number[]; session: string; state: string } | null;
