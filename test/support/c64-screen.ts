/** Reads the C64 text screen through a session as text (screen codes via the active character set). */
import { GLYPHS } from '../../src/machines/c64/screen-codes.js';
import type { SessionApi } from '../../src/session/types.js';

export async function screenText(session: SessionApi): Promise<string[]> {
  const vic = await session.readMemory({ space: 'cpu', bank: 'io', offset: 0xd018 }, 1);
  const set = vic[0] & 0x02 ? 'lower_upper' : 'upper_graphics';
  const codes = await session.readMemory({ space: 'cpu', bank: 'ram', offset: 0x0400 }, 1000);
  return decodeScreen(codes, set);
}

export function decodeScreen(codes: Uint8Array, set: 'lower_upper' | 'upper_graphics'): string[] {
  const rows: string[] = [];
  for (let r = 0; r < 25; r++) {
    rows.push(
      Array.from(codes.subarray(r * 40, r * 40 + 40), (c) => String.fromCodePoint(GLYPHS[set][c & 0x7f]))
        .join('')
        .trimEnd(),
    );
  }
  return rows;
}
