// The one key syntax (core/keys.ts) and its mapping onto the C64's keyboard buffer and the DOS BIOS ring.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatStroke, parseKey, parseKeyText } from '../../src/core/keys.js';
import { strokesToPetscii } from '../../src/connectors/vice/petscii-keys.js';
import { parseKeys, strokeWord } from '../../src/machines/dos/keys.js';
import { RetroError } from '../../src/core/errors.js';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as RetroError).code + ': ' + (e as Error).message;
  }
  return 'no error';
};

test('key names: case, aliases, chords, the plus key', () => {
  assert.deepEqual(parseKey('return'), { key: 'RETURN', modifiers: [] });
  assert.deepEqual(parseKey('Enter'), { key: 'RETURN', modifiers: [] });
  assert.deepEqual(parseKey('shift+a'), { key: 'A', modifiers: ['SHIFT'] });
  assert.deepEqual(parseKey('Ctrl+Alt+Del'), { key: 'DELETE', modifiers: ['CTRL', 'ALT'] });
  assert.deepEqual(parseKey('C=+1'), { key: '1', modifiers: ['CBM'] });
  assert.deepEqual(parseKey('SHIFT++'), { key: '+', modifiers: ['SHIFT'] });
  assert.deepEqual(parseKey('f7'), { key: 'F7', modifiers: [] });
  assert.match(
    code(() => parseKey('RETRUN')),
    /^bad_request: .*did you mean RETURN/,
  );
  assert.match(
    code(() => parseKey('HYPER+A')),
    /^bad_request: .*no modifier/,
  );
});

test('text with braces: characters in order, named keys, literal braces, errors that point', () => {
  assert.deepEqual(parseKeyText('RUN{RETURN}'), [
    { char: 'R' },
    { char: 'U' },
    { char: 'N' },
    { key: 'RETURN', modifiers: [] },
  ]);
  assert.deepEqual(parseKeyText('{{x}}'), [{ char: '{' }, { char: 'x' }, { char: '}' }]);
  assert.deepEqual(parseKeyText('a\r\nb'), [{ char: 'a' }, { char: '\n' }, { char: 'b' }]);
  assert.match(
    code(() => parseKeyText('ab{RETURN')),
    /^bad_request: .*not closed/,
  );
  assert.match(
    code(() => parseKeyText('a}b')),
    /^bad_request: .*closes nothing/,
  );
  assert.equal(parseKeyText('x{SHIFT+A}{{').map(formatStroke).join(''), 'x{SHIFT+A}{{');
});

test('C64: letters are the plain keys, SHIFT the shifted ones, named keys and colour chords as PETSCII', () => {
  assert.deepEqual([...strokesToPetscii(parseKeyText('run{RETURN}'))], [0x52, 0x55, 0x4e, 0x0d]);
  assert.deepEqual([...strokesToPetscii(parseKeyText('RUN'))], [0x52, 0x55, 0x4e]);
  assert.deepEqual(
    [...strokesToPetscii(parseKeyText('{SHIFT+A}{F1}{F2}{SHIFT+HOME}{CTRL+1}{CBM+8}{UP}{SHIFT+RETURN}{DEL}'))],
    [0xc1, 0x85, 0x89, 0x93, 0x90, 0x9b, 0x91, 0x8d, 0x14],
  );
  assert.deepEqual([...strokesToPetscii(parseKeyText('1+"$'))], [0x31, 0x2b, 0x22, 0x24]);
  assert.match(
    code(() => strokesToPetscii(parseKeyText('{F11}'))),
    /^unsupported: The C64 keyboard has no "\{F11\}"/,
  );
  assert.match(
    code(() => strokesToPetscii(parseKeyText('{ALT+A}'))),
    /^unsupported/,
  );
  assert.match(
    code(() => strokesToPetscii(parseKeyText('é'))),
    /^unsupported/,
  );
});

test('DOS: the same syntax as BIOS ring words (scan code high, ASCII low)', () => {
  assert.deepEqual(parseKeys('a{RETURN}{F1}{CTRL+C}'), [0x1e61, 0x1c0d, 0x3b00, 0x2e03]);
  assert.deepEqual(parseKeys('{Enter}{esc}{SHIFT+A}{A}'), [0x1c0d, 0x011b, 0x1e41, 0x1e61]);
  assert.equal(strokeWord({ key: 'X', modifiers: ['ALT'] }), 0x2d00);
  assert.match(
    code(() => parseKeys('{CBM+1}')),
    /^unsupported/,
  );
});
