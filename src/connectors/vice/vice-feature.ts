/**
 * The 'vice' connector feature: what the vice_* MCP tools use beyond the
 * Target facets. Provided by ViceConnection for real VICE and the built-in C64;
 * its mutating calls go through the session's guarded path (Session.control).
 */
import type { CheckpointSpec } from './vice-requests.js';
import type { Address, StopInfo } from '../../core/target.js';
import type { ViceInfo } from './handshake.js';
import type { CheckpointInfo, DisplayInfo } from './protocol.js';

export interface ViceStatus {
  state: 'running' | 'stopped' | 'disconnected';
  pc?: number;
  last_stop?: StopInfo;
  connector: string;
  version: string;
  svn_revision: number;
}

export interface CaptureResult extends DisplayInfo {
  palette: [number, number, number][];
}

export interface ViceFeature {
  readonly info: ViceInfo;
  /** no I/O: what the last events said */
  cachedStatus(): ViceStatus;
  readRegisters(): Promise<{ name: string; value: number; bits: number }[]>;
  setRegisters(items: { id: number; value: number }[]): Promise<void>;
  bankId(bank: Address['bank']): number;
  readBank(bank: number, start: number, length: number): Promise<Uint8Array>;
  writeBank(bank: number, start: number, data: Uint8Array): Promise<void>;
  addCheckpoint(spec: CheckpointSpec): Promise<CheckpointInfo>;
  deleteCheckpoint(number: number): Promise<void>;
  toggleCheckpoint(number: number, enabled: boolean): Promise<void>;
  setCondition(number: number, expression: string): Promise<void>;
  listCheckpoints(): Promise<CheckpointInfo[]>;
  resume(): Promise<void>;
  pause(): Promise<void>;
  advance(count: number, over: boolean): Promise<void>;
  stepOut(): Promise<void>;
  reset(kind: 'soft' | 'hard'): Promise<void>;
  keyboardFeed(petscii: Uint8Array): Promise<void>;
  setJoyport(port: number, value: number): Promise<void>;
  setResource(name: string, value: number): Promise<void>;
  capture(): Promise<CaptureResult>;
  /** drops only our connection; VICE keeps running */
  disconnect(): void;
}

/** Who answers a monitor connection, for messages: no "VICE" where no VICE runs. */
export function peerName(connector: string): string {
  return connector === 'builtin' ? 'The built-in C64' : 'VICE';
}
