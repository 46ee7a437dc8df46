// Which plain variables a C line assigns (register-ownership analysis of SDCC code): writes through a pointer, an
// index or a member are not the variable's; comparisons, strings and comments assign nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assignedNames } from '../../src/debuginfo/c-assigned.js';

const names = (line: string) => [...assignedNames(line)].sort();

test('assignments, compound ones, ++/-- either side, initializers and for loops', () => {
  assert.deepEqual(names('unsigned char cell = row * 8 + col; /* LINE:cell_def */'), ['cell']);
  assert.deepEqual(names('for (i = 0; i <= 8; i++)'), ['i']);
  assert.deepEqual(names('a += 2; b <<= 1; --c; d--; e = f = 0;'), ['a', 'b', 'c', 'd', 'e', 'f']);
  assert.deepEqual(names('char **pp = 0; char *p = q;'), ['p', 'pp']);
  assert.deepEqual(names('int total = base, *t = &total;'), ['t', 'total'], 'a pointer later in a declaration list');
  assert.deepEqual(names('{ byte n = 0, *p = q; }'), ['n', 'p'], 'a typedef name starts it');
});

test('not the variable: through a pointer, an index, a member; nor comparisons, strings, comments', () => {
  assert.deepEqual(names('*p = x; a[i] = 1; s.x = 2; q->y++; ++r.z;'), []);
  assert.deepEqual(names('n++, *p = q;'), ['n'], 'a comma expression writes through p');
  assert.deepEqual(names('if (a == b && c <= d && e != f) g();'), []);
  assert.deepEqual(names('puts("x = 1"); c = \'=\'; // y = 2'), ['c']);
  assert.deepEqual(names("n = 1; /* it's m = 2 */ k++;"), ['k', 'n']);
});
