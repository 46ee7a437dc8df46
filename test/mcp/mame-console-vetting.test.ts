import { test } from 'node:test';
import assert from 'node:assert/strict';
import { vetConsoleCommand } from '../../src/connectors/mame/console-vetting.js';
import { RetroError } from '../../src/core/errors.js';

test('reading commands without assignments are read-only', () => {
  for (const c of [
    'print pc',
    'printf "a=%02x,hl=%04x",a,hl',
    'bplist',
    'wplist',
    'history',
    'help over',
    'print a == 5',
    'print b@8000 != 0',
    'print a <= 3 && a >= 1',
    'symlist',
    'time',
  ]) {
    assert.equal(vetConsoleCommand(c).readOnly, true, c);
  }
});

test('anything else is classified not read-only, by name and with a reason', () => {
  const cases: Array<[string, RegExp]> = [
    ['go', /"go" is not one of/],
    ['step', /not one of/],
    ['hl = 1234', /"hl"/],
    ['print pc=5', /assigns/],
    ['print b@8000=1', /assigns/],
    ['print a++', /assigns/],
    ['print 1; go', /";"/],
    ['bpset 100', /"bpset"/],
    ['p pc', /"p"/],
    ['printf "=%d",a=1', /assigns/],
  ];
  for (const [c, re] of cases) {
    const v = vetConsoleCommand(c);
    assert.equal(v.readOnly, false, c);
    assert.match(v.reason ?? '', re, c);
  }
  assert.equal(vetConsoleCommand('printf "x=%d",a').readOnly, true, 'an = inside the format string is text');
});

test('empty, multi-line and oversized commands are refused outright', () => {
  for (const c of ['', '   ', 'print pc\ngo'])
    assert.throws(
      () => vetConsoleCommand(c),
      (e) => e instanceof RetroError && e.code === 'bad_request',
    );
  assert.throws(
    () => vetConsoleCommand('print ' + '1+'.repeat(400)),
    (e) => e instanceof RetroError && e.code === 'too_large',
  );
});
