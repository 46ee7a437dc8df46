/**
 * Helpers for the raw-MAME MCP tests on the spectrum fixture: its key buffer
 * (`typed`, `typed_len`), the A..G keyboard half-row as MAME's port shows it,
 * and bounded polling.
 */
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call } from './mcp-helpers.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Addresses of the fixture's key buffer; look them up while stopped (variables need it, memory reads do not). */
export interface KeyBuffer {
  typed: number;
  typedLen: number;
}

export async function findKeyBuffer(client: Client): Promise<KeyBuffer> {
  const at = async (name: string) =>
    (await call(client, 'evaluate', { expression: name })).result.address.offset as number;
  return { typed: await at('typed'), typedLen: await at('typed_len') };
}

/** What the fixture program has recorded as typed so far. */
export async function typedText(client: Client, buffer: KeyBuffer): Promise<string> {
  const n = parseInt((await call(client, 'read_memory', { address: buffer.typedLen, length: 1 })).hex, 16);
  return n === 0
    ? ''
    : Buffer.from((await call(client, 'read_memory', { address: buffer.typed, length: n })).hex, 'hex').toString(
        'latin1',
      );
}

/** Bits 0-4 of keyboard half-row A..G (port 0xFDFE), 1 = not pressed; read without side effects. */
export async function rowAtoG(client: Client): Promise<number> {
  return (
    parseInt((await call(client, 'read_program_memory', { space: 'io', offset: 0xfdfe, length: 1 })).hex, 16) & 0x1f
  );
}

export async function waitFor(what: string, cond: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
