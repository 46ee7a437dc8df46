/**
 * One key syntax for every machine (MCP type_keys, keys typed into the screen
 * panel): text is typed as written; a named key or a chord goes in braces,
 * e.g. `RUN{RETURN}`, `{F1}`, `{SHIFT+A}`, `{CTRL+C}`, `{UP}`; `{{` and `}}`
 * are literal braces. Names are case-insensitive and have the usual aliases
 * (ENTER = RETURN, ESC = ESCAPE, DEL = DELETE …). Pure: each connector maps the
 * strokes to its own keyboard and refuses, naming it, a key the machine lacks.
 */
import { closeMatches } from './close-matches.js';
import { badRequest, unsupported, type RetroError } from './errors.js';

export const MODIFIERS = ['SHIFT', 'CTRL', 'ALT', 'CBM', 'SYMBOL'] as const;
export type Modifier = (typeof MODIFIERS)[number];

export const NAMED_KEYS = [
  'RETURN',
  'SPACE',
  'TAB',
  'ESCAPE',
  'BACKSPACE',
  'DELETE',
  'INSERT',
  'HOME',
  'END',
  'PAGEUP',
  'PAGEDOWN',
  'UP',
  'DOWN',
  'LEFT',
  'RIGHT',
  'RUNSTOP',
  'F1',
  'F2',
  'F3',
  'F4',
  'F5',
  'F6',
  'F7',
  'F8',
  'F9',
  'F10',
  'F11',
  'F12',
] as const;
export type NamedKey = (typeof NAMED_KEYS)[number];

/**
 * A character typed as text (`char`), or a key pressed by name (`key`: a named
 * key, or a single upper-case letter, digit or symbol for the key that bears
 * it) with the modifiers held down with it.
 */
export type KeyStroke = { char: string } | { key: NamedKey | string; modifiers: Modifier[] };

const ALIASES: Record<string, NamedKey | Modifier> = {
  ENTER: 'RETURN',
  CR: 'RETURN',
  ESC: 'ESCAPE',
  BS: 'BACKSPACE',
  DEL: 'DELETE',
  INS: 'INSERT',
  PGUP: 'PAGEUP',
  PGDN: 'PAGEDOWN',
  STOP: 'RUNSTOP',
  'RUN/STOP': 'RUNSTOP',
  CONTROL: 'CTRL',
  CTL: 'CTRL',
  COMMODORE: 'CBM',
  'C=': 'CBM',
  SYM: 'SYMBOL',
  SYMSHIFT: 'SYMBOL',
  CAPS: 'SHIFT',
};

function canonical(word: string): string {
  const upper = word.trim().toUpperCase();
  return ALIASES[upper] ?? upper;
}

/** Every name the syntax knows, for error messages and the tool schema. */
export const KEY_NAMES_HELP = `named keys: ${NAMED_KEYS.join(', ')}; modifiers: ${MODIFIERS.join(', ')}`;

/**
 * One key or chord by name: "RETURN", "f1", "SHIFT+A", "CTRL+ALT+DEL", "a"
 * (the key bearing A). A bad name is a bad_request naming the close matches.
 */
export function parseKey(name: string): KeyStroke & { key: string } {
  const parts = name.split('+');
  // "+" itself, and chords ending in it ("SHIFT++"), name the plus key
  if (name.endsWith('+') && parts.length >= 2) parts.splice(parts.length - 2, 2, '+');
  const keyPart = parts.pop()!;
  const modifiers: Modifier[] = [];
  for (const m of parts) {
    const mod = canonical(m);
    if (!(MODIFIERS as readonly string[]).includes(mod))
      throw unknownKey(name, `"${m}" is no modifier (${MODIFIERS.join(', ')})`);
    if (!modifiers.includes(mod as Modifier)) modifiers.push(mod as Modifier);
  }
  const key = keyPart.length === 1 ? keyPart.toUpperCase() : canonical(keyPart);
  if (key.length !== 1 && !(NAMED_KEYS as readonly string[]).includes(key)) {
    if ((MODIFIERS as readonly string[]).includes(key) && !modifiers.length) return { key, modifiers: [] };
    throw unknownKey(name, `no key "${keyPart}"${suggestions(key)}`);
  }
  if (key.length === 1 && !/^[\x21-\x7e]$/.test(key)) throw unknownKey(name, `"${keyPart}" is no key on the keyboard`);
  return { key, modifiers };
}

/** Text with named keys in braces → strokes, in order. */
export function parseKeyText(text: string): KeyStroke[] {
  const strokes: KeyStroke[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{' && text[i + 1] === '{') {
      strokes.push({ char: '{' });
      i++;
    } else if (c === '}' && text[i + 1] === '}') {
      strokes.push({ char: '}' });
      i++;
    } else if (c === '{') {
      const end = text.indexOf('}', i + 1);
      if (end < 0) throw badText(`"{" at ${i} is not closed; write "{{" for a brace`);
      strokes.push(parseKey(text.slice(i + 1, end)));
      i = end;
    } else if (c === '}') {
      throw badText(`"}" at ${i} closes nothing; write "}}" for a brace`);
    } else {
      strokes.push({ char: c === '\r' && text[i + 1] === '\n' ? (i++, '\n') : c });
    }
  }
  return strokes;
}

/** "{RETURN}", "a", "{SHIFT+A}": a stroke written back in the syntax (for messages). */
export function formatStroke(stroke: KeyStroke): string {
  if ('char' in stroke) return stroke.char === '{' || stroke.char === '}' ? stroke.char.repeat(2) : stroke.char;
  return `{${[...stroke.modifiers, stroke.key].join('+')}}`;
}

/** The refusal a connector gives for a stroke its keyboard cannot make. */
export function cannotType(stroke: KeyStroke, machine: string, hint?: string): RetroError {
  const key = formatStroke(stroke);
  return unsupported(
    `The ${machine} keyboard has no ${JSON.stringify(key)}${hint ? ` (${hint})` : ''}; nothing was typed.`,
    {
      key,
      machine,
    },
  );
}

function suggestions(word: string): string {
  const near = closeMatches(word, [...NAMED_KEYS, ...Object.keys(ALIASES)]);
  return near.length ? ` (did you mean ${near.join(', ')}?)` : ` (${KEY_NAMES_HELP})`;
}

function unknownKey(name: string, why: string): RetroError {
  return badRequest(`Unknown key {${name}}: ${why}.`, { key: name });
}

function badText(why: string): RetroError {
  return badRequest(`Key text: ${why}.`);
}
