/**
 * The common key syntax (core/keys.ts) on a MAME machine's keyboard fields:
 * text through the machine's own key map (input_keymap), named keys and
 * modifiers by the field names MAME gives them ("ENTER", "CAPS SHIFT"), typed
 * frame-paced as a person would (modifiers down a frame before the key). Every
 * stroke is resolved before anything is pressed.
 */
import { unsupported } from '../../core/errors.js';
import { cannotType, type KeyStroke, type Modifier } from '../../core/keys.js';
import type { FieldRef, InputStep, PortInfo } from './bridge-ops.js';
import type { MameRaw } from './mame-raw.js';

/** Field names MAME machines use for each key (first match wins). */
const FIELD_NAMES: Record<string, string[]> = {
  RETURN: ['RETURN', 'ENTER'],
  SPACE: ['SPACE'],
  TAB: ['TAB'],
  ESCAPE: ['ESC', 'ESCAPE'],
  BACKSPACE: ['BACKSPACE', 'DELETE', 'DEL'],
  DELETE: ['DELETE', 'DEL'],
  INSERT: ['INSERT', 'INS'],
  HOME: ['HOME'],
  END: ['END'],
  PAGEUP: ['PGUP', 'PAGE UP'],
  PAGEDOWN: ['PGDN', 'PAGE DOWN'],
  UP: ['UP', 'CURSOR UP', '↑'],
  DOWN: ['DOWN', 'CURSOR DOWN', '↓'],
  LEFT: ['LEFT', 'CURSOR LEFT', '←'],
  RIGHT: ['RIGHT', 'CURSOR RIGHT', '→'],
  RUNSTOP: ['RUN/STOP', 'STOP', 'BREAK'],
};
const MODIFIER_NAMES: Record<Modifier, string[]> = {
  SHIFT: ['SHIFT', 'CAPS SHIFT', 'LEFT SHIFT', 'L SHIFT', 'SHIFT (LEFT)'],
  CTRL: ['CTRL', 'CONTROL'],
  ALT: ['ALT'],
  CBM: ['C=', 'CBM', 'COMMODORE'],
  SYMBOL: ['SYMBOL SHIFT', 'SYM SHIFT', 'SYMBOL'],
};

/** The keyboard fields of a machine. */
export function keyboardFields(ports: PortInfo[]): FieldRef[] {
  return ports.flatMap((p) =>
    p.fields.filter((f) => f.type_class === 'keyboard').map((f) => ({ port: p.tag, field: f.name })),
  );
}

/** A field by exact name or by the part before its first run of spaces ("a    A    NEW" is "a"). */
export function fieldNamed(keys: FieldRef[], name: string): FieldRef | undefined {
  const lower = name.toLowerCase();
  return (
    keys.find((k) => k.field.toLowerCase() === lower) ??
    keys.find(
      (k) =>
        k.field
          .trim()
          .split(/\s{2,}/)[0]
          .toLowerCase() === lower,
    )
  );
}

function firstField(keys: FieldRef[], names: readonly string[]): FieldRef | undefined {
  for (const n of names) {
    const f = fieldNamed(keys, n);
    if (f) return f;
  }
  return undefined;
}

/** The fields each stroke holds down together (modifiers first). */
export async function strokeFields(raw: MameRaw, strokes: readonly KeyStroke[]): Promise<FieldRef[][]> {
  const keys = keyboardFields(await raw.listPorts());
  if (!keys.length) throw unsupported(`Typing on ${raw.machine}: MAME lists no keyboard fields for it.`);
  // every character (typed text, and the keys named by a character) through the machine's key map, in one request
  const chars = strokes.map((s) => ('char' in s ? s.char : s.key.length === 1 ? s.key.toLowerCase() : ''));
  const text = chars.join('');
  const { keys: mapped, missing } = text ? await raw.keymap(text) : { keys: [], missing: [] };
  let next = 0;
  return strokes.map((stroke, i) => {
    const c = chars[i];
    if (c && missing.includes(c)) throw cannotType(stroke, raw.machine);
    const viaMap = c ? mapped[next++] : undefined;
    if ('char' in stroke) return viaMap!;
    const mods = stroke.modifiers.map((m) => {
      const f = firstField(keys, MODIFIER_NAMES[m]);
      if (!f) throw cannotType(stroke, raw.machine, `no ${m} key`);
      return f;
    });
    // a named character key: the key itself, without the shift its character may need
    const key = viaMap ? viaMap[viaMap.length - 1] : firstField(keys, FIELD_NAMES[stroke.key] ?? [stroke.key]);
    if (!key) throw cannotType(stroke, raw.machine, 'list_ports (group mame) shows its keys');
    return [...mods, key];
  });
}

/** Frame-paced steps: shift keys go down a frame before the key, then all are held, then a gap. */
export function keySteps(fields: FieldRef[][], framesPerKey = 2, gapFrames = 2): InputStep[] {
  return fields.flatMap((f) => [
    ...(f.length > 1 ? [{ fields: f.slice(0, -1), frames: 1, gap: 0 }] : []),
    { fields: f, frames: framesPerKey, gap: gapFrames },
  ]);
}
