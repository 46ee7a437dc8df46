/** The parser crashes the security probe found: each is now a clear refusal. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RetroError } from '../../src/core/errors.js';
import { parseCc65Dbg } from '../../src/debuginfo/cc65-dbg.js';
import { validateProfile } from '../../src/machines/dos/profile.js';
import {
  decodeBanks,
  decodePalette,
  decodeRegisterNames,
  decodeRegisters,
} from '../../src/connectors/vice/protocol.js';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof RetroError ? err.code : `${(err as Error).name}: ${(err as Error).message}`;
  }
  return 'no error';
};

test('cc65 .dbg: a sym record without a name is bad_debug_info', () => {
  const dbg = 'version\tmajor=2,minor=0\nsym\tid=0,addrsize=absolute,size=1,scope=0,def=0,val=0x80D,type=lab\n';
  assert.equal(
    code(() => parseCc65Dbg(dbg)),
    'bad_debug_info',
  );
});

test('DOS profile: null symbols, regions, checks are bad_request', () => {
  const base = { name: 'x', marker: { bytes: '01020304', offset: 0 } };
  for (const extra of [
    { symbols: { a: null } },
    { code_regions: [null] },
    { checks: [null] },
    { symbols: [1] },
    { watch_sets: { w: [{}] } },
    { mouse: 7 },
    { screen: 'big' },
  ])
    assert.equal(
      code(() => validateProfile({ ...base, ...extra })),
      'bad_request',
      JSON.stringify(extra),
    );
});

test('VICE decoders on short bodies throw a sentence, not a RangeError', () => {
  for (const decode of [decodeBanks, decodeRegisterNames, decodePalette, decodeRegisters]) {
    for (const body of [Buffer.alloc(0), Buffer.from([1]), Buffer.from([1, 0]), Buffer.from([2, 0, 3, 1, 2, 3])]) {
      const got = code(() => decode(body));
      assert.match(got, /^Error: .*(shorter|ends inside)/, `${decode.name}(${body.toString('hex')}): ${got}`);
    }
  }
});
