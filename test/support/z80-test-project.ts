// A retro_test.h fixture as an SDCC project for one Z80 machine: its C files plus that machine's start-up code
// (the ZX demo's crt0 at 0 makes a spectrum ROM, the Sprinter demo's at 0x8100 a DSS .EXE).
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './c64-fixture.js';

export const Z80_TEST_FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'testing');
const CRT0: Record<string, string> = { spectrum: 'zx-demo', sprinter: 'sprinter-demo' };

/** Copies `fixture` (a folder under test/fixtures/testing) to `work`/`name` with `machine`'s crt0.s; returns it. */
export function z80TestProject(
  fixture: string,
  machine: 'spectrum' | 'sprinter',
  work: string,
  name = fixture,
): string {
  const dir = join(work, name);
  cpSync(join(Z80_TEST_FIXTURES, fixture), dir, { recursive: true });
  cpSync(join(REPO_ROOT, 'examples', CRT0[machine], 'crt0.s'), join(dir, 'crt0.s'));
  return dir;
}
