/**
 * Golden checks of every PETSCII and screen-code table entry against the
 * Commodore 64 Programmer's Reference Guide, Appendix B (screen display codes)
 * and Appendix C (ASCII and CHR$ codes). Expectations are written here from
 * the guide, range by range, not derived from the implementation's tables.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TABLES, type CodeEntry } from '../../src/machines/c64/petscii.js';

const ch = (e: CodeEntry) => (e.kind === 'char' ? String.fromCodePoint(e.codePoint) : `<${e.kind}>`);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const ASCII_20_3F = ' !"#$%&\'()*+,-./0123456789:;<=>?';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = UPPER.toLowerCase();

// Appendix B, codes 64-127 of set 1 that the guide draws as recognisable symbols.
const SET1_NAMED: Record<number, string> = {
  65: '\u2660' /* spade */,
  83: '\u2665' /* heart */,
  88: '\u2663' /* club */,
  90: '\u2666' /* diamond */,
  94: '\u03C0' /* pi */,
  81: '\u25CF' /* filled ball */,
  87: '\u25CB' /* open circle */,
  91: '\u253C' /* cross */,
  93: '\u2502' /* vertical bar */,
  64: '\u2500' /* horizontal bar */,
  96: '\u00A0' /* shifted space */,
  102: '\u2592' /* checker */,
  73: '\u256E',
  74: '\u2570',
  75: '\u256F',
  85: '\u256D' /* rounded corners */,
  86: '\u2573' /* X */,
  77: '\u2572',
  78: '\u2571' /* diagonals */,
  95: '\u25E5',
  105: '\u25E4' /* triangles */,
  97: '\u258C' /* left half */,
  98: '\u2584' /* lower half */,
  127: '\u259A' /* quadrants */,
};

test('screen codes, set 1 (upper case / graphics): every entry of Appendix B', () => {
  const t = TABLES.screen.upper_graphics;
  assert.equal(t.length, 256);
  assert.equal(ch(t[0]), '@');
  for (const c of range(1, 26)) assert.equal(ch(t[c]), UPPER[c - 1], `screen ${c}`);
  assert.deepEqual(
    [27, 28, 29, 30, 31].map((c) => ch(t[c])),
    ['[', '£', ']', '↑', '←'],
  );
  for (const c of range(32, 63)) assert.equal(ch(t[c]), ASCII_20_3F[c - 32], `screen ${c}`);
  const graphics = range(64, 127).map((c) => t[c]);
  for (const [i, e] of graphics.entries()) {
    assert.equal(e.kind, 'char');
    assert.ok(e.kind === 'char' && e.codePoint >= 0xa0, `screen ${64 + i} is a graphics glyph, not ASCII`);
  }
  assert.equal(new Set(graphics.map(ch)).size, 64, 'the 64 graphics glyphs are distinct');
  for (const [code, want] of Object.entries(SET1_NAMED)) assert.equal(ch(t[Number(code)]), want, `screen ${code}`);
  for (const c of range(0, 127)) {
    assert.deepEqual(t[c], {
      kind: 'char',
      codePoint: (t[c] as { codePoint: number }).codePoint,
      screenCode: c,
      reverse: false,
    });
    assert.deepEqual(t[c + 128], { ...t[c], screenCode: c + 128, reverse: true }, `screen ${c + 128} is ${c} reversed`);
  }
});

test('screen codes, set 2 (lower / upper case): every entry of Appendix B', () => {
  const t2 = TABLES.screen.lower_upper;
  const t1 = TABLES.screen.upper_graphics;
  assert.equal(ch(t2[0]), '@');
  for (const c of range(1, 26)) assert.equal(ch(t2[c]), LOWER[c - 1], `screen ${c}`);
  for (const c of range(27, 63)) assert.equal(ch(t2[c]), ch(t1[c]), `screen ${c} same in both sets`);
  assert.equal(ch(t2[64]), '\u2500');
  for (const c of range(65, 90)) assert.equal(ch(t2[c]), UPPER[c - 65], `screen ${c}`);
  // set 2 draws these differently from set 1 (checkerboard, two diagonal fills, check mark)
  assert.equal(ch(t2[94]), '\u{1FB96}');
  assert.equal(ch(t2[95]), '\u{1FB98}');
  assert.equal(ch(t2[105]), '\u{1FB99}');
  assert.equal(ch(t2[122]), '\u2713');
  for (const c of [...range(91, 93), ...range(96, 104), ...range(106, 121), ...range(123, 127)]) {
    assert.equal(ch(t2[c]), ch(t1[c]), `screen ${c} is the same graphic in both sets`);
  }
  for (const c of range(128, 255))
    assert.ok(t2[c].kind === 'char' && t2[c].reverse && ch(t2[c]) === ch(t2[c - 128]), `screen ${c}`);
});

const CONTROLS = new Map<number, string>([
  [5, 'WHT'],
  [8, 'LOCK'],
  [9, 'UNLOCK'],
  [13, 'RETURN'],
  [14, 'LOWER'],
  [17, 'DOWN'],
  [18, 'RVS ON'],
  [19, 'HOME'],
  [20, 'DEL'],
  [28, 'RED'],
  [29, 'RIGHT'],
  [30, 'GRN'],
  [31, 'BLU'],
  [129, 'ORNG'],
  [133, 'F1'],
  [134, 'F3'],
  [135, 'F5'],
  [136, 'F7'],
  [137, 'F2'],
  [138, 'F4'],
  [139, 'F6'],
  [140, 'F8'],
  [141, 'SHIFT RETURN'],
  [142, 'UPPER'],
  [144, 'BLK'],
  [145, 'UP'],
  [146, 'RVS OFF'],
  [147, 'CLR'],
  [148, 'INST'],
  [149, 'BRN'],
  [150, 'LT RED'],
  [151, 'GRY1'],
  [152, 'GRY2'],
  [153, 'LT GRN'],
  [154, 'LT BLU'],
  [155, 'GRY3'],
  [156, 'PUR'],
  [157, 'LEFT'],
  [158, 'YEL'],
  [159, 'CYN'],
]);

for (const set of ['upper_graphics', 'lower_upper'] as const) {
  test(`PETSCII ${set}: every entry of Appendix C`, () => {
    const p = TABLES.petscii[set];
    const s = TABLES.screen[set];
    assert.equal(p.length, 256);
    for (const c of [...range(0, 31), ...range(128, 159)]) {
      const name = CONTROLS.get(c);
      assert.deepEqual(p[c], name ? { kind: 'control', name } : { kind: 'undefined' }, `CHR$(${c})`);
    }
    for (const c of range(32, 63)) assert.equal(ch(p[c]), ASCII_20_3F[c - 32], `CHR$(${c})`);
    assert.equal(ch(p[64]), '@');
    for (const c of range(65, 90))
      assert.equal(ch(p[c]), (set === 'upper_graphics' ? UPPER : LOWER)[c - 65], `CHR$(${c})`);
    assert.deepEqual(
      [91, 92, 93, 94, 95].map((c) => ch(p[c])),
      ['[', '£', ']', '↑', '←'],
    );
    // the guide's printable ranges show these screen codes
    const shows = (petscii: number, screen: number) => {
      assert.equal(p[petscii].kind, 'char');
      assert.equal(ch(p[petscii]), ch(s[screen]), `CHR$(${petscii}) shows screen code ${screen}`);
      assert.equal((p[petscii] as { screenCode: number }).screenCode, screen);
    };
    for (const c of range(96, 127)) shows(c, c - 32);
    for (const c of range(160, 191)) shows(c, c - 64);
    for (const c of range(192, 223)) shows(c, c - 128);
    for (const c of range(224, 254)) shows(c, c - 128);
    shows(255, 94);
    if (set === 'upper_graphics') assert.equal(ch(p[255]), 'π');
    else for (const c of range(193, 218)) assert.equal(ch(p[c]), UPPER[c - 193], `CHR$(${c}) in set 2`);
    for (const e of p)
      if (e.kind === 'char') assert.equal(e.reverse, false, 'PETSCII never selects reverse video itself');
  });
}

test('the tables are immutable', () => {
  assert.ok(Object.isFrozen(TABLES) && Object.isFrozen(TABLES.petscii) && Object.isFrozen(TABLES.screen.lower_upper));
  assert.ok(Object.isFrozen(TABLES.petscii.upper_graphics[65]));
  assert.throws(() => {
    (TABLES.petscii.upper_graphics as CodeEntry[])[65] = { kind: 'undefined' };
  }, TypeError);
  assert.throws(() => {
    (TABLES.screen.upper_graphics[1] as { codePoint: number }).codePoint = 0x42;
  }, TypeError);
});
