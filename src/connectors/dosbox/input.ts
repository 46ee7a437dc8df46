/**
 * Keys into the BIOS keyboard ring (as INT 9 would put them) with flow
 * control, and clicks into the words a program's own INT 33h handler fills,
 * re-written for a while because the handler keeps overwriting them.
 */
import { sleep } from '../../core/async.js';
import { mayHaveMutated } from '../../core/errors.js';
import { farHex, physical, word } from '../../machines/dos/bda.js';
import { planRingWrite, ringIsEmpty } from '../../machines/dos/keyboard-ring.js';
import type { DosGuest } from './guest.js';

const POLL_MS = 5;

export interface TypeResult {
  typed: number;
  /** all typed keys were taken out of the ring by the guest within drain_ms */
  consumed: boolean;
  warnings: string[];
}

/** Why ring keys might not reach the program: its own INT 9 handler reading port 60h. */
export async function keyboardWarnings(guest: DosGuest): Promise<string[]> {
  const bda = await guest.bda();
  if (bda.int9.segment < 0xa000) {
    const owner = await guest.ownerOf(physical(bda.int9));
    return [
      `INT 9 is hooked at ${farHex(bda.int9)}${owner ? ` by ${owner}` : ''}: if that program reads port 60h itself, keys put into the BIOS ring will not reach it; write its key-state variables instead.`,
    ];
  }
  return [];
}

export async function typeKeys(
  guest: DosGuest,
  keys: number[],
  opts: { timeoutMs: number; drainMs: number },
): Promise<TypeResult> {
  const warnings = await keyboardWarnings(guest);
  let typed = 0;
  for (const key of keys) {
    const deadline = Date.now() + opts.timeoutMs;
    for (;;) {
      const plan = planRingWrite(await guest.read(0, 0x500));
      if (plan) {
        await guest.write(plan.slot, Uint8Array.of(key & 0xff, key >> 8));
        await guest.write(0x41c, Uint8Array.of(plan.nextTail & 0xff, plan.nextTail >> 8));
        typed++;
        break;
      }
      if (Date.now() > deadline) {
        throw mayHaveMutated(
          `The keyboard ring stayed full for ${opts.timeoutMs} ms after ${typed} of ${keys.length} keys: the program is not reading keys through the BIOS${warnings.length ? ' (' + warnings[0] + ')' : ''}. ${typed} keys were typed; the rest were not.`,
          { typed, total: keys.length },
        );
      }
      await sleep(POLL_MS);
    }
  }
  const drainEnd = Date.now() + opts.drainMs;
  let consumed = ringIsEmpty(await guest.read(0, 0x500));
  while (!consumed && Date.now() < drainEnd) {
    await sleep(POLL_MS);
    consumed = ringIsEmpty(await guest.read(0, 0x500));
  }
  if (!consumed && opts.drainMs > 0)
    warnings.push(
      `The program has not taken the keys out of the ring within ${opts.drainMs} ms; it may be busy, or read the keyboard another way.`,
    );
  return { typed, consumed, warnings };
}

export interface MouseWords {
  buttons: number;
  x: number;
  y: number;
}

/** Writes buttons/x/y every few ms for holdMs, then the release for releaseMs. */
export async function click(
  guest: DosGuest,
  words: MouseWords,
  at: { x: number; y: number; buttons: number },
  opts: { holdMs: number; releaseMs: number },
): Promise<{ writes: number; overwritten: number }> {
  const put = (addr: number, v: number) => guest.write(addr, Uint8Array.of(v & 0xff, (v >> 8) & 0xff));
  let writes = 0;
  let overwritten = 0;
  const phase = async (buttons: number, ms: number) => {
    const end = Date.now() + ms;
    do {
      const now = await guest.read(words.buttons, 2);
      if (writes > 0 && word(now, 0) !== buttons) overwritten++;
      await put(words.x, at.x);
      await put(words.y, at.y);
      await put(words.buttons, buttons);
      writes++;
      await sleep(POLL_MS);
    } while (Date.now() < end);
  };
  await phase(at.buttons, opts.holdMs);
  await phase(0, opts.releaseMs);
  return { writes, overwritten };
}
