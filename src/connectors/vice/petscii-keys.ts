/** Text as keys for the C64's keyboard buffer (VICE's keyboard feed). */
import { RetroError } from '../../core/errors.js';

/** Unshifted letters are PETSCII $41-$5A, shifted ones $C1-$DA; RETURN is $0D. */
export function asciiToPetscii(text: string): Uint8Array {
  return Uint8Array.from(
    [...text].map((ch) => {
      const c = ch.codePointAt(0)!;
      if (ch === '\n' || ch === '\r') return 0x0d;
      if (c >= 0x61 && c <= 0x7a) return c - 0x20;
      if (c >= 0x41 && c <= 0x5a) return c + 0x80;
      if (c >= 0x20 && c <= 0x40) return c;
      throw new RetroError('bad_request', `"${ch}" has no key to type; use petscii_hex.`);
    }),
  );
}
