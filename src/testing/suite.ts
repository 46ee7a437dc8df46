/**
 * A test program as the runner sees it: its tests (functions named `test_*`,
 * which is what retro_test.h's TEST(name) defines), each with its file, line
 * and optional cycle budget, and the addresses of the header's mailbox and
 * hooks. Found in the debug info alone, so any cc65 or SDCC build works.
 */
import type { DebugIndex } from '../debuginfo/index.js';
import type { FunctionInfo } from '../debuginfo/model.js';

export const TEST_PREFIX = 'test_';
const BUDGET_PREFIX = 'retro_budget_';

export interface TestCase {
  /** the name given to TEST(name) */
  name: string;
  /** the C function: test_<name> */
  functionName: string;
  address: number;
  file?: string;
  line?: number;
  /** where TEST_BUDGET's constant lives (4 bytes, little endian), when the test has one */
  budgetAddress?: number;
}

/** The header's parts in the program; absent when it does not include retro_test.h with RETRO_TEST_MAIN. */
export interface Harness {
  mailbox: number;
  ready: number;
  failed: number;
  /** `retro_test_only`: a debug session writes the one test to run there (absent in builds of older headers) */
  only?: number;
}

export interface TestSuite {
  tests: TestCase[];
  harness?: Harness;
  /** why the harness is missing, for every test's error */
  missing?: string;
}

export function discoverTests(index: DebugIndex): TestSuite {
  const tests = index.info.functions
    .filter((f) => f.name.startsWith(TEST_PREFIX) && f.name.length > TEST_PREFIX.length)
    .map((f) => testCase(index, f));
  const mailbox = symbolAddress(index, 'retro_test_mailbox');
  const ready = index.functionByName('retro_test_ready')?.start;
  const failed = index.functionByName('retro_test_failed')?.start;
  if (mailbox === undefined || ready === undefined || failed === undefined)
    return {
      tests,
      missing:
        'the program has no retro_test.h runner (retro_test_mailbox, retro_test_ready): include "retro_test.h" ' +
        'with RETRO_TEST_MAIN defined in one file',
    };
  return { tests, harness: { mailbox, ready, failed, only: symbolAddress(index, 'retro_test_only') } };
}

function testCase(index: DebugIndex, f: FunctionInfo): TestCase {
  const name = f.name.slice(TEST_PREFIX.length);
  const at = index.lineAt(f.start);
  return {
    name,
    functionName: f.name,
    address: f.start,
    file: at?.file ?? f.file,
    line: at?.line,
    budgetAddress: symbolAddress(index, BUDGET_PREFIX + name),
  };
}

/** A C global's address: cc65 names it `_name` among its labels, SDCC among its globals. */
function symbolAddress(index: DebugIndex, name: string): number | undefined {
  const label = index.info.symbols.find((s) => s.name === `_${name}` || s.name === name);
  if (label) return label.address;
  const g = index.global(name);
  return g?.storage.kind === 'static' ? g.storage.address : undefined;
}
