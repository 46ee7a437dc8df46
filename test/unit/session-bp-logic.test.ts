// Hit conditions and logpoint messages as the session reads them, and the order it applies them in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateHit, parseHitCondition, parseLogMessage, type BreakpointLogic } from '../../src/session/bp-logic.js';

test('hit conditions: a count, comparisons and every Nth; anything else is refused', () => {
  const hits = (text: string) => [1, 2, 3, 4, 5, 6, 7, 8].filter(parseHitCondition(text));
  assert.deepEqual(hits('3'), [3]);
  assert.deepEqual(hits('== 3'), [3]);
  assert.deepEqual(hits('>= 7'), [7, 8]);
  assert.deepEqual(hits('> 7'), [8]);
  assert.deepEqual(hits('<= 2'), [1, 2]);
  assert.deepEqual(hits('< 2'), [1]);
  assert.deepEqual(hits('% 4'), [4, 8]);
  assert.throws(() => parseHitCondition('% 0'), /above 0/);
  assert.throws(() => parseHitCondition('often'), /not understood/);
  assert.throws(() => parseHitCondition('3 4'), /not understood/);
});

test('log messages: literal text, {expressions}, doubled braces; unbalanced braces are refused', () => {
  assert.deepEqual(parseLogMessage('x={x}, y={ p->y }!'), [
    'x=',
    { expression: 'x' },
    ', y=',
    { expression: 'p->y' },
    '!',
  ]);
  assert.deepEqual(parseLogMessage('{{a}} {b}'), ['{a} ', { expression: 'b' }]);
  assert.throws(() => parseLogMessage('x={x'), /column 3 is not closed/);
  assert.throws(() => parseLogMessage('x}'), /column 2 has no \{/);
  assert.throws(() => parseLogMessage('{ }'), /empty \{\}/);
});

test('a hit: the condition first, then the count of hits where it held, then log or stop', async () => {
  let truth = false;
  const ev = { test: async () => truth, show: async (e: string) => `<${e}>` };
  const logic: BreakpointLogic = {
    count: 0,
    condition: {} as never,
    hit: parseHitCondition('>= 2'),
    log: ['v=', { expression: 'v' }],
  };
  assert.deepEqual(await evaluateHit(logic, ev), { stop: false, counted: false });
  truth = true;
  assert.deepEqual(await evaluateHit(logic, ev), { stop: false, counted: true });
  assert.deepEqual(await evaluateHit(logic, ev), { stop: false, message: 'v=<v>', counted: true });
  assert.equal(logic.count, 2);
  assert.deepEqual(await evaluateHit(undefined, ev), { stop: true, counted: true });
});
