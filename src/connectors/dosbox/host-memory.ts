/**
 * The one interface both ways of reaching a DOS guest implement: a native
 * emulator process (/proc/PID/mem) and the wasm emulator's heap in our own
 * process. Addresses are the host's (process virtual address or heap index).
 */
/** `bytes[k]` expected at `start + k * stride` (searched by host-search.ts). */
export interface SearchPattern {
  bytes: Uint8Array;
  stride: number;
}

export interface HostRegion {
  start: number;
  end: number;
  label: string;
}

export interface HostMemory {
  /** e.g. "DOSBox process 1234 via /proc/1234/mem" */
  readonly description: string;
  /** 'native' or 'wasm' */
  readonly backend: 'native' | 'wasm';
  /** readable+writable regions worth scanning for the guest */
  regions(): Promise<HostRegion[]>;
  /** `into`, when given, is a scratch buffer the bytes may be read into (a view of it is returned) */
  read(address: number, length: number, into?: Uint8Array): Promise<Uint8Array>;
  /**
   * Addresses in [start, end) where the pattern matches, at most `limit`, found where the memory lives
   * (the wasm worker), so nothing is copied out; without it host-search.ts reads the region in chunks.
   */
  search?(start: number, end: number, pattern: SearchPattern, limit: number): Promise<number[]>;
  write(address: number, data: Uint8Array): Promise<void>;
  /** false once the process/emulator is gone */
  alive(): boolean;
  /** why it is gone (with the emulator's last output), when known */
  lostReason?(): string | undefined;
  close(): Promise<void>;
}
