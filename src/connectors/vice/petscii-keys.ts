/** Text as keys for the C64's keyboard buffer (VICE's keyboard feed). */
import { badRequest } from '../../core/errors.js';
import { cannotType, type KeyStroke, type NamedKey } from '../../core/keys.js';

/** Unshifted letters are PETSCII $41-$5A, shifted ones $C1-$DA; RETURN is $0D. */
export function asciiToPetscii(text: string): Uint8Array {
  return Uint8Array.from(
    [...text].map((ch) => {
      const c = ch.codePointAt(0)!;
      if (ch === '\n' || ch === '\r') return 0x0d;
      if (c >= 0x61 && c <= 0x7a) return c - 0x20;
      if (c >= 0x41 && c <= 0x5a) return c + 0x80;
      if (c >= 0x20 && c <= 0x40) return c;
      throw badRequest(`"${ch}" has no key to type; use petscii_hex.`);
    }),
  );
}

/** PETSCII of the C64's named keys (unshifted, then with SHIFT). */
const NAMED_PETSCII: Partial<Record<NamedKey, [number, number?]>> = {
  RETURN: [0x0d, 0x8d],
  SPACE: [0x20, 0xa0],
  DELETE: [0x14, 0x94],
  BACKSPACE: [0x14],
  INSERT: [0x94],
  HOME: [0x13, 0x93],
  UP: [0x91],
  DOWN: [0x11, 0x91],
  LEFT: [0x9d],
  RIGHT: [0x1d, 0x9d],
  RUNSTOP: [0x03, 0x83],
  F1: [0x85, 0x89],
  F3: [0x86, 0x8a],
  F5: [0x87, 0x8b],
  F7: [0x88, 0x8c],
  F2: [0x89],
  F4: [0x8a],
  F6: [0x8b],
  F8: [0x8c],
};

/** CTRL+1..8 and CBM+1..8: the colour codes. */
const CTRL_DIGITS = [0x90, 0x05, 0x1c, 0x9f, 0x9c, 0x1e, 0x1f, 0x9e];
const CBM_DIGITS = [0x81, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b];

/**
 * Strokes (core/keys.ts) as keyboard-buffer PETSCII. Text letters of either
 * case are the plain letter keys (capitals on the C64's power-on screen);
 * {SHIFT+A} is the shifted key. A key the C64 lacks is refused up front.
 */
export function strokesToPetscii(strokes: readonly KeyStroke[]): Uint8Array {
  return Uint8Array.from(strokes.map(strokePetscii));
}

function strokePetscii(stroke: KeyStroke): number {
  if ('char' in stroke) {
    const c = stroke.char;
    if (/^[A-Za-z]$/.test(c)) return c.toUpperCase().charCodeAt(0);
    if (c === '\n') return 0x0d;
    const code = c.charCodeAt(0);
    if (code >= 0x20 && code <= 0x40) return code;
    if ('[]^'.includes(c)) return code; // PETSCII $5B, $5D, $5E (up-arrow)
    if (c === '£') return 0x5c;
    throw cannotType(stroke, 'C64', 'type letters, digits, punctuation or a named key');
  }
  const { key, modifiers } = stroke;
  const shift = modifiers.includes('SHIFT');
  const others = modifiers.filter((m) => m !== 'SHIFT');
  if (others.length === 1 && !shift && /^[1-8]$/.test(key) && (others[0] === 'CTRL' || others[0] === 'CBM'))
    return (others[0] === 'CTRL' ? CTRL_DIGITS : CBM_DIGITS)[Number(key) - 1];
  if (others.length === 1 && others[0] === 'CTRL' && !shift && /^[A-Z]$/.test(key)) return key.charCodeAt(0) - 0x40;
  if (others.length) throw cannotType(stroke, 'C64', 'with CTRL only letters and 1-8, with CBM only 1-8');
  if (/^[A-Z]$/.test(key)) return key.charCodeAt(0) + (shift ? 0x80 : 0);
  if (key.length === 1 && !shift) return strokePetscii({ char: key });
  const codes = NAMED_PETSCII[key as NamedKey];
  const code = codes?.[shift ? 1 : 0];
  if (code === undefined) throw cannotType(stroke, 'C64');
  return code;
}
