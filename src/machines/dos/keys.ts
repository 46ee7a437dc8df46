/**
 * Keys as the BIOS keyboard ring holds them: scan code (set 1) in the high
 * byte, ASCII in the low byte. Text is typed character by character; named
 * keys are written in braces, e.g. "dir{Enter}", "{F1}", "{Up}", "{Ctrl+C}".
 */
import { badRequest } from '../../core/errors.js';
import { cannotType, parseKeyText, type KeyStroke } from '../../core/keys.js';

/** US layout: scan code of each unshifted / shifted printable character. */
const ROWS: [string, string, number][] = [
  ['1234567890-=', '!@#$%^&*()_+', 0x02],
  ['qwertyuiop[]', 'QWERTYUIOP{}', 0x10],
  ["asdfghjkl;'`", 'ASDFGHJKL:"~', 0x1e],
  ['\\zxcvbnm,./', '|ZXCVBNM<>?', 0x2b],
];

const CHAR_SCAN = new Map<string, number>();
for (const [plain, shifted, first] of ROWS) {
  [...plain].forEach((c, i) => CHAR_SCAN.set(c, first + i));
  [...shifted].forEach((c, i) => CHAR_SCAN.set(c, first + i));
}
CHAR_SCAN.set(' ', 0x39);

const NAMED: Record<string, number> = {
  enter: 0x1c0d,
  return: 0x1c0d,
  esc: 0x011b,
  escape: 0x011b,
  backspace: 0x0e08,
  tab: 0x0f09,
  space: 0x3920,
  f1: 0x3b00,
  f2: 0x3c00,
  f3: 0x3d00,
  f4: 0x3e00,
  f5: 0x3f00,
  f6: 0x4000,
  f7: 0x4100,
  f8: 0x4200,
  f9: 0x4300,
  f10: 0x4400,
  home: 0x4700,
  up: 0x4800,
  pgup: 0x4900,
  pageup: 0x4900,
  left: 0x4b00,
  right: 0x4d00,
  end: 0x4f00,
  down: 0x5000,
  pgdn: 0x5100,
  pagedown: 0x5100,
  ins: 0x5200,
  insert: 0x5200,
  del: 0x5300,
  delete: 0x5300,
};

/** One printable character as a ring word. */
export function charKey(c: string): number {
  if (c === '\n' || c === '\r') return NAMED.enter;
  if (c === '\t') return NAMED.tab;
  const scan = CHAR_SCAN.get(c);
  if (scan === undefined) {
    throw badRequest(
      `Cannot type "${c}" (U+${c.codePointAt(0)!.toString(16).toUpperCase()}): only US-keyboard ASCII characters and named keys like {Enter} are supported.`,
    );
  }
  return (scan << 8) | c.charCodeAt(0);
}

/** A named key: "Enter", "F1", "Up", "Ctrl+C", "Alt+X". */
export function namedKey(name: string): number {
  const lower = name.trim().toLowerCase();
  const mod = /^(ctrl|alt)\+(.)$/.exec(lower);
  if (mod) {
    const scan = CHAR_SCAN.get(mod[2]);
    if (scan === undefined || !/[a-z]/.test(mod[2]))
      throw badRequest(`Unknown key {${name}}: Ctrl/Alt combinations take a letter, e.g. {Ctrl+C}.`);
    return mod[1] === 'ctrl' ? (scan << 8) | (mod[2].charCodeAt(0) - 0x60) : scan << 8;
  }
  const word = NAMED[lower];
  if (word === undefined)
    throw badRequest(`Unknown key {${name}}; known: ${Object.keys(NAMED).join(', ')}, Ctrl+letter, Alt+letter.`);
  return word;
}

/** One stroke of the common key syntax (core/keys.ts) as a ring word. */
export function strokeWord(stroke: KeyStroke): number {
  if ('char' in stroke) return charKey(stroke.char);
  const { key, modifiers } = stroke;
  if (!modifiers.length) return key.length === 1 ? charKey(key.toLowerCase()) : namedKey(key);
  if (modifiers.length === 1 && /^[A-Z]$/.test(key)) {
    if (modifiers[0] === 'SHIFT') return charKey(key);
    if (modifiers[0] === 'CTRL' || modifiers[0] === 'ALT') return namedKey(`${modifiers[0]}+${key}`);
  }
  throw cannotType(stroke, 'DOS (BIOS ring)', 'SHIFT, CTRL or ALT go with a letter');
}

/** Parses "text{RETURN}more" (the common key syntax) into ring words. */
export function parseKeys(text: string): number[] {
  return parseKeyText(text).map(strokeWord);
}
