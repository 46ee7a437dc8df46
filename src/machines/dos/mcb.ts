/**
 * The DOS memory control block chain. Found without the List of Lists by
 * scanning for the lowest well-formed chain that ends at the top of
 * conventional memory (in DOSBox that is the shell's own block, so
 * COMMAND.COM is listed too). Pure over a reader of guest physical memory.
 */
import { word } from './bda.js';
import { hex } from '../../core/hex.js';

export type PhysReader = (physical: number, length: number) => Promise<Uint8Array>;

export interface McbBlock {
  /** segment of the MCB itself; the block's data starts at segment + 1 */
  segment: number;
  owner: number;
  /** in paragraphs */
  size: number;
  last: boolean;
  /** MCB name field (DOS 4+), for blocks that own themselves */
  name: string;
}

export interface DosProgram {
  name: string;
  /** PSP segment = load segment of a .COM (code at PSP:0100) */
  psp: number;
  /** bytes owned by the program's own block */
  bytes: number;
  path?: string;
  parent: number;
  environment: number;
}

const MAX_BLOCKS = 1024;

function isOwnerOk(owner: number): boolean {
  return owner === 0 || owner === 7 || owner === 8 || owner >= 0x40;
}

/** Follows a chain from `first`; undefined unless it is well formed and ends near `top`. */
export async function walkChain(read: PhysReader, first: number, top: number): Promise<McbBlock[] | undefined> {
  const blocks: McbBlock[] = [];
  let seg = first;
  for (let n = 0; n < MAX_BLOCKS; n++) {
    const m = await read(seg * 16, 16);
    const sig = m[0];
    if (sig !== 0x4d && sig !== 0x5a) return undefined;
    const owner = word(m, 1);
    if (!isOwnerOk(owner)) return undefined;
    const size = word(m, 3);
    const name = owner === seg + 1 ? cleanName(m.subarray(8, 16)) : '';
    blocks.push({ segment: seg, owner, size, last: sig === 0x5a, name });
    const next = seg + size + 1;
    if (sig === 0x5a) return Math.abs(next - top) <= 1 ? blocks : undefined;
    if (next > top || next <= seg) return undefined;
    seg = next;
  }
  return undefined;
}

function cleanName(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) {
    if (b === 0) break;
    if (b < 0x20 || b > 0x7e) return '';
    s += String.fromCharCode(b);
  }
  return s;
}

/** Scans segments 0040..top for the lowest valid chain. */
export async function findFirstMcb(read: PhysReader, top: number): Promise<number | undefined> {
  const low = await read(0, top * 16);
  for (let seg = 0x40; seg < top; seg++) {
    const at = seg * 16;
    if (low[at] !== 0x4d) continue;
    const owner = word(low, at + 1);
    if (!isOwnerOk(owner)) continue;
    if (owner >= 0x40 && !(low[owner * 16] === 0xcd && low[owner * 16 + 1] === 0x20)) continue;
    if (await walkChain(read, seg, top)) return seg;
  }
  return undefined;
}

/** Programs: blocks that own themselves and start with a PSP (CD 20). */
export async function listPrograms(read: PhysReader, blocks: McbBlock[]): Promise<DosProgram[]> {
  const out: DosProgram[] = [];
  for (const b of blocks) {
    const psp = b.segment + 1;
    if (b.owner !== psp) continue;
    const head = await read(psp * 16, 0x30);
    if (head[0] !== 0xcd || head[1] !== 0x20) continue;
    const environment = word(head, 0x2c);
    const path = environment ? await environmentPath(read, environment) : undefined;
    const fromPath = path
      ?.split('\\')
      .pop()
      ?.replace(/\.[^.]*$/, '');
    out.push({
      name: b.name || fromPath || `PSP ${hex(psp, 4, '')}`,
      psp,
      bytes: b.size * 16,
      path,
      parent: word(head, 0x16),
      environment,
    });
  }
  return out;
}

/** The program path after the environment strings: NAME=value\0 … \0, count word, path\0. */
async function environmentPath(read: PhysReader, segment: number): Promise<string | undefined> {
  const env = await read(segment * 16, 2048);
  let i = 0;
  while (i < env.length - 1 && !(env[i] === 0 && env[i + 1] === 0)) i++;
  if (i >= env.length - 4) return undefined;
  const count = word(env, i + 2);
  if (count < 1 || count > 8) return undefined;
  let s = '';
  for (let j = i + 4; j < env.length && env[j] !== 0; j++) {
    if (env[j] < 0x20 || env[j] > 0x7e) return undefined;
    s += String.fromCharCode(env[j]);
  }
  return s || undefined;
}
