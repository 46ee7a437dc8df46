/** C64 text decoding: every framing, every option combination, lossless fragments, token maps, search. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RetroError } from '../../src/core/errors.js';
import {
  decodeText,
  type Controls,
  type Framing,
  type HighBit,
  type TextOptions,
} from '../../src/machines/c64/text-decode.js';
import { parseTokenMap } from '../../src/machines/c64/text-tokens.js';
import { searchBytes, searchCodePoints } from '../../src/machines/c64/text-search.js';

const bytes = (...b: number[]) => Uint8Array.from(b);
const base: TextOptions = {
  encoding: 'petscii',
  charset: 'upper_graphics',
  highBit: 'exact',
  controls: 'names',
  maxRenderedChars: 10_000,
};
const code = (err: unknown) => (err as RetroError).code;

test('framing: fixed length, terminator, 1- and 2-byte prefixes (payload or self-inclusive)', () => {
  const hello = [0x48, 0x45, 0x4c, 0x4c, 0x4f];
  const cases: [Framing, number[], { text: string; consumed: number; offset: number }][] = [
    [{ kind: 'length', length: 5 }, [...hello, 0x21], { text: 'HELLO', consumed: 5, offset: 0 }],
    [{ kind: 'terminator', terminator: 0 }, [...hello, 0, 0x41], { text: 'HELLO', consumed: 6, offset: 0 }],
    [
      { kind: 'prefix', size: 1, includesItself: false },
      [5, ...hello, 0x41],
      { text: 'HELLO', consumed: 6, offset: 1 },
    ],
    [{ kind: 'prefix', size: 1, includesItself: true }, [6, ...hello, 0x41], { text: 'HELLO', consumed: 6, offset: 1 }],
    [{ kind: 'prefix', size: 2, includesItself: false }, [5, 0, ...hello], { text: 'HELLO', consumed: 7, offset: 2 }],
    [
      { kind: 'prefix', size: 2, includesItself: true },
      [7, 0, ...hello, 0x41],
      { text: 'HELLO', consumed: 7, offset: 2 },
    ],
    [{ kind: 'terminator', terminator: 0x0d }, [0x0d], { text: '', consumed: 1, offset: 0 }],
  ];
  for (const [framing, input, want] of cases) {
    const d = decodeText(bytes(...input), framing, base);
    assert.equal(d.text, want.text, JSON.stringify(framing));
    assert.equal(d.consumed, want.consumed, JSON.stringify(framing));
    assert.equal(d.text_offset, want.offset);
    assert.equal(d.lossless, want.text ? '{H:$48}{E:$45}{L:$4C}{L:$4C}{O:$4F}' : '');
    // framing bytes stay visible in the records, not in the text
    assert.deepEqual(
      d.records.filter((r) => r.role !== 'text').map((r) => r.role),
      framing.kind === 'prefix'
        ? Array(framing.size).fill('prefix')
        : framing.kind === 'terminator'
          ? ['terminator']
          : [],
    );
  }
  // a 2-byte prefix is little-endian: 0x0102 = 258 bytes
  const long = new Uint8Array(2 + 258).fill(0x41);
  long[0] = 2;
  long[1] = 1;
  assert.equal(decodeText(long, { kind: 'prefix', size: 2, includesItself: false }, base).text_length, 258);
});

test('framing errors: short source, missing terminator, self-inclusive prefix below its size', () => {
  assert.throws(
    () => decodeText(bytes(0x41, 0x42), { kind: 'length', length: 3 }, base),
    (e) => code(e) === 'bad_request' && /needs 3 bytes but the source has only 2/.test((e as Error).message),
  );
  assert.throws(
    () => decodeText(bytes(0x41, 0x42), { kind: 'terminator', terminator: 0 }, base),
    (e) => code(e) === 'not_found',
  );
  assert.throws(
    () => decodeText(bytes(9, 0x41), { kind: 'prefix', size: 1, includesItself: false }, base),
    (e) => code(e) === 'bad_request',
  );
  assert.throws(
    () => decodeText(bytes(1, 0x41), { kind: 'prefix', size: 2, includesItself: false }, base),
    (e) => code(e) === 'bad_request',
  );
  assert.throws(
    () => decodeText(bytes(0, 0x41), { kind: 'prefix', size: 1, includesItself: true }, base),
    (e) => code(e) === 'bad_request' && /less than its own/.test((e as Error).message),
  );
});

test('every encoding x high_bit x controls combination', () => {
  // PETSCII: A, CLR, shifted A ($C1), undefined $02, RETURN; screen codes: A, reverse A ($81), space, reverse space
  const petscii = bytes(0x41, 0x93, 0xc1, 0x02, 0x0d);
  const screen = bytes(0x01, 0x81, 0x20, 0xa0);
  const expectPetscii: Record<HighBit, Record<'upper_graphics' | 'lower_upper', Record<Controls, string>> | 'error'> = {
    exact: {
      upper_graphics: {
        names: 'A{CLR}\u2660{$02}{RETURN}',
        escaped: 'A\\x93\u2660\\x02\\x0D',
        unicode: 'A\u0093\u2660\u0002\r',
      },
      lower_upper: { names: 'a{CLR}A{$02}{RETURN}', escaped: 'a\\x93A\\x02\\x0D', unicode: 'a\u0093A\u0002\r' },
    },
    strip: {
      // $93 & $7F = $13 HOME; $C1 & $7F = $41
      upper_graphics: { names: 'A{HOME}A{$02}{RETURN}', escaped: 'A\\x13A\\x02\\x0D', unicode: 'A\u0013A\u0002\r' },
      lower_upper: { names: 'a{HOME}a{$02}{RETURN}', escaped: 'a\\x13a\\x02\\x0D', unicode: 'a\u0013a\u0002\r' },
    },
    annotate_reverse: 'error',
  };
  const expectScreen: Record<HighBit, string> = { exact: 'AA  ', strip: 'AA  ', annotate_reverse: 'A{REV A} {REV  }' };
  for (const highBit of ['exact', 'strip', 'annotate_reverse'] as const) {
    for (const controls of ['names', 'escaped', 'unicode'] as const) {
      for (const charset of ['upper_graphics', 'lower_upper'] as const) {
        const p = { ...base, highBit, controls, charset };
        const want = expectPetscii[highBit];
        if (want === 'error') {
          assert.throws(
            () => decodeText(petscii, { kind: 'length', length: 5 }, p),
            (e) => code(e) === 'bad_request' && /screen codes only/.test((e as Error).message),
          );
        } else {
          const d = decodeText(petscii, { kind: 'length', length: 5 }, p);
          assert.equal(d.text, want[charset][controls], `petscii ${highBit}/${controls}/${charset}`);
          // the lossless string never depends on display options
          assert.equal(
            d.lossless,
            charset === 'upper_graphics'
              ? '{A:$41}{CLR:$93}{\u2660:$C1}{UNDEF:$02}{RETURN:$0D}'
              : '{a:$41}{CLR:$93}{A:$C1}{UNDEF:$02}{RETURN:$0D}',
          );
        }
        const s = decodeText(screen, { kind: 'length', length: 4 }, { ...p, encoding: 'screen' });
        const sw = charset === 'lower_upper' ? expectScreen[highBit].replace(/A/g, 'a') : expectScreen[highBit];
        assert.equal(s.text, sw, `screen ${highBit}/${controls}/${charset}`);
        assert.equal(
          s.lossless,
          charset === 'upper_graphics'
            ? '{A:$01}{REV A:$81}{ :$20}{REV  :$A0}'
            : '{a:$01}{REV a:$81}{ :$20}{REV  :$A0}',
        );
      }
    }
  }
});

test('records describe every consumed byte and stop past the record limit', () => {
  const d = decodeText(bytes(0x41, 0x93, 0x00), { kind: 'terminator', terminator: 0 }, base);
  assert.deepEqual(d.records, [
    { offset: 0, byte: 0x41, role: 'text', kind: 'char', fragment: '{A:$41}', char: 'A', reverse: false },
    { offset: 1, byte: 0x93, role: 'text', kind: 'control', fragment: '{CLR:$93}', name: 'CLR' },
    { offset: 2, byte: 0, role: 'terminator', kind: 'framing' },
  ]);
  const big = decodeText(new Uint8Array(5000).fill(0x41), { kind: 'length', length: 5000 }, base, 4096);
  assert.equal(big.records.length, 0);
  assert.equal(big.text.length, 5000);
});

test('token maps: decimal and 0x keys; bad, duplicate and out-of-range keys refused', () => {
  assert.deepEqual(
    [...parseTokenMap({ '129': 'o', '0x93': 'c', '0X0d': 'r' })],
    [
      [129, 'o'],
      [0x93, 'c'],
      [13, 'r'],
    ],
  );
  for (const bad of ['$81', '081', '0x100', '256', '-1', 'x', '0x'])
    assert.throws(
      () => parseTokenMap({ [bad]: 'v' }),
      (e) => code(e) === 'bad_request',
      bad,
    );
  assert.throws(
    () => parseTokenMap({ '147': 'a', '0x93': 'b' }),
    (e) => code(e) === 'bad_request' && /twice/.test((e as Error).message),
  );
});

test('token expansion: single-pass literal, recursive with depth, cycles, and a cap that fails', () => {
  const input = bytes(0x93, 0x41, 0x0d);
  const frame: Framing = { kind: 'length', length: 3 };
  const tokens = parseTokenMap({ '0x93': '<clear {0D}>', '13': '<nl>' });
  assert.equal(
    decodeText(input, frame, { ...base, tokens }).text,
    '<clear {0D}>A<nl>',
    'single-pass leaves references literal',
  );
  assert.equal(decodeText(input, frame, { ...base, tokens, tokenMode: 'recursive' }).text, '<clear <nl>>A<nl>');
  // a reference to a byte with no token renders that byte normally
  assert.equal(
    decodeText(
      bytes(0x93),
      { kind: 'length', length: 1 },
      { ...base, tokens: parseTokenMap({ '0x93': '[{41}{05}]' }), tokenMode: 'recursive' },
    ).text,
    '[A{WHT}]',
  );
  const chain = parseTokenMap({ '0x93': '{01}', '1': '{02}', '2': '{03}', '3': 'end' });
  assert.equal(
    decodeText(
      bytes(0x93),
      { kind: 'length', length: 1 },
      { ...base, tokens: chain, tokenMode: 'recursive', tokenDepth: 4 },
    ).text,
    'end',
  );
  assert.throws(
    () =>
      decodeText(
        bytes(0x93),
        { kind: 'length', length: 1 },
        { ...base, tokens: chain, tokenMode: 'recursive', tokenDepth: 3 },
      ),
    (e) => code(e) === 'bad_request' && /depth limit 3/.test((e as Error).message),
  );
  const cyc = parseTokenMap({ '0x93': 'a{0D}', '13': 'b{93}' });
  assert.throws(
    () =>
      decodeText(
        bytes(0x93),
        { kind: 'length', length: 1 },
        { ...base, tokens: cyc, tokenMode: 'recursive', tokenDepth: 32 },
      ),
    (e) => code(e) === 'bad_request' && /cycle: \{93\} → \{0D\} → \{93\}/.test((e as Error).message),
  );
  // self-reference is a cycle too
  assert.throws(
    () =>
      decodeText(
        bytes(0x41),
        { kind: 'length', length: 1 },
        { ...base, tokens: parseTokenMap({ '65': '{41}' }), tokenMode: 'recursive' },
      ),
    /cycle/,
  );
  // the cap fails, never truncates: 10 bytes x 'xxxx' = 40 chars
  const many = new Uint8Array(10).fill(0x41);
  const x4 = parseTokenMap({ '65': 'xxxx' });
  assert.equal(
    decodeText(many, { kind: 'length', length: 10 }, { ...base, tokens: x4, maxRenderedChars: 40 }).text,
    'x'.repeat(40),
  );
  assert.throws(
    () => decodeText(many, { kind: 'length', length: 10 }, { ...base, tokens: x4, maxRenderedChars: 39 }),
    (e) => code(e) === 'too_large',
  );
  // exponential recursive expansion hits the cap early instead of building a huge string
  const boom = parseTokenMap({
    '1': '{02}{02}{02}{02}',
    '2': '{03}{03}{03}{03}',
    '3': '{04}{04}{04}{04}',
    '4': 'yyyyyyyy',
  });
  assert.throws(
    () =>
      decodeText(
        bytes(1),
        { kind: 'length', length: 1 },
        { ...base, tokens: boom, tokenMode: 'recursive', maxRenderedChars: 100 },
      ),
    (e) => code(e) === 'too_large',
  );
});

test('search: raw bytes and decoded code points, with a result limit', () => {
  const hay = bytes(0x48, 0x49, 0x00, 0x48, 0x49, 0x93, 0xc8, 0xc9);
  assert.deepEqual(searchBytes(hay, bytes(0x48, 0x49), 10), { hits: [0, 3], more: false });
  assert.deepEqual(searchBytes(hay, bytes(0x48, 0x49), 1), { hits: [0], more: true });
  const opts = { encoding: 'petscii' as const, charset: 'upper_graphics' as const, highBit: 'exact' as const };
  assert.deepEqual(searchCodePoints(hay, 'HI', opts, 10), { hits: [0, 3], more: false });
  assert.deepEqual(searchCodePoints(hay, 'HI', { ...opts, highBit: 'strip' }, 10), { hits: [0, 3, 6], more: false });
  assert.deepEqual(searchCodePoints(hay, 'Hi', { ...opts, charset: 'lower_upper' }, 10), { hits: [], more: false });
  assert.deepEqual(searchCodePoints(hay, 'hi', { ...opts, charset: 'lower_upper' }, 10), { hits: [0, 3], more: false });
  // screen codes: "HI" is $08 $09
  assert.deepEqual(searchCodePoints(bytes(0x20, 0x08, 0x09), 'HI', { ...opts, encoding: 'screen' }, 10), {
    hits: [1],
    more: false,
  });
});

test('every framing x every option combination: framing never changes the rendering, only what is consumed', () => {
  const payload = [0x41, 0x93, 0xc1, 0x0d, 0x81, 0x20];
  const framings: [Framing, number[]][] = [
    [{ kind: 'length', length: payload.length }, payload],
    [{ kind: 'terminator', terminator: 0 }, [...payload, 0]],
    [{ kind: 'prefix', size: 1, includesItself: false }, [payload.length, ...payload]],
    [{ kind: 'prefix', size: 1, includesItself: true }, [payload.length + 1, ...payload]],
    [{ kind: 'prefix', size: 2, includesItself: false }, [payload.length, 0, ...payload]],
    [{ kind: 'prefix', size: 2, includesItself: true }, [payload.length + 2, 0, ...payload]],
  ];
  let combos = 0;
  for (const encoding of ['petscii', 'screen'] as const) {
    for (const charset of ['upper_graphics', 'lower_upper'] as const) {
      for (const highBit of ['exact', 'strip', 'annotate_reverse'] as const) {
        if (highBit === 'annotate_reverse' && encoding === 'petscii') continue; // refused, tested above
        for (const controls of ['names', 'escaped', 'unicode'] as const) {
          const opts = { ...base, encoding, charset, highBit, controls };
          const reference = decodeText(bytes(...payload), { kind: 'length', length: payload.length }, opts);
          for (const [framing, input] of framings) {
            const d = decodeText(bytes(...input, 0xee, 0xee), framing, opts); // trailing bytes are never consumed
            assert.equal(
              d.text,
              reference.text,
              `${encoding}/${charset}/${highBit}/${controls}/${JSON.stringify(framing)}`,
            );
            assert.equal(d.lossless, reference.lossless);
            assert.equal(d.consumed, input.length);
            assert.equal(d.text_length, payload.length);
            assert.deepEqual(
              d.records.filter((r) => r.role === 'text').map((r) => r.byte),
              payload,
            );
            combos++;
          }
        }
      }
    }
  }
  assert.equal(combos, 6 * 3 * (2 * 3 + 2 * 2) /* screen: 3 high-bit modes, petscii: 2 */);
});
