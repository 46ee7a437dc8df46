/**
 * Keys pressed in the screen panel → the one key syntax (core/keys.ts) the
 * session types with: printable characters as themselves, the rest by name
 * in braces with their modifiers. Undefined for keys the panel keeps (modifier
 * presses alone, IME composition, browser shortcuts with Ctrl/Meta and a letter
 * VS Code needs, e.g. Ctrl+P). With the joystick mapping on, joystickControl
 * takes the cursor keys and Ctrl first. Focus is explicit: a click on the
 * screen captures the keys, Esc releases them (Shift+Esc types Esc), and
 * the palette keys (F1, Ctrl+Shift+P) always stay VS Code's.
 */
export interface PanelKey {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

const NAMED: Record<string, string> = {
  Enter: 'RETURN',
  ' ': 'SPACE',
  Tab: 'TAB',
  Escape: 'ESCAPE',
  Backspace: 'BACKSPACE',
  Delete: 'DELETE',
  Insert: 'INSERT',
  Home: 'HOME',
  End: 'END',
  PageUp: 'PAGEUP',
  PageDown: 'PAGEDOWN',
  ArrowUp: 'UP',
  ArrowDown: 'DOWN',
  ArrowLeft: 'LEFT',
  ArrowRight: 'RIGHT',
  Pause: 'RUNSTOP',
};

/** Keys VS Code always gets, even while the screen has the keys: the command palette's. */
export function isVsCodeKey(e: PanelKey): boolean {
  return e.key === 'F1' || ((e.ctrlKey || e.metaKey) && e.shiftKey && e.key.toLowerCase() === 'p');
}

/** What a key does in the screen while it has the keys: release them, or type (undefined: leave it alone). */
export function panelKeyAction(e: PanelKey): { release: true } | { text: string } | undefined {
  if (isVsCodeKey(e)) return undefined;
  if (e.key === 'Escape' && !e.ctrlKey && !e.altKey && !e.metaKey)
    return e.shiftKey ? { text: '{ESCAPE}' } : { release: true };
  const text = panelKeyText(e);
  return text === undefined ? undefined : { text };
}

export function panelKeyText(e: PanelKey): string | undefined {
  if (e.metaKey || isVsCodeKey(e)) return undefined;
  const fn = /^F([1-9]|1[0-2])$/.test(e.key) ? e.key : undefined;
  const name = NAMED[e.key] ?? fn;
  const mods = [e.ctrlKey ? 'CTRL' : '', e.altKey ? 'ALT' : ''].filter(Boolean);
  if (name) return `{${[...mods, e.shiftKey ? 'SHIFT' : ''].filter(Boolean).concat(name).join('+')}}`;
  if ([...e.key].length !== 1) return undefined; // Shift, Control, Dead, Unidentified …
  if (!mods.length) return e.key === '{' ? '{{' : e.key === '}' ? '}}' : e.key;
  return /^[a-z0-9]$/i.test(e.key) ? `{${mods.join('+')}+${e.key.toUpperCase()}}` : undefined;
}

/** The joystick mapping: cursor keys are the directions, Ctrl (either) is fire; other keys still type. */
const JOYSTICK_KEYS: Record<string, 'up' | 'down' | 'left' | 'right' | 'fire'> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
  Control: 'fire',
};

export function joystickControl(key: string): 'up' | 'down' | 'left' | 'right' | 'fire' | undefined {
  return JOYSTICK_KEYS[key];
}
