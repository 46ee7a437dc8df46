/** A built test program: its bytes, its debug info and the tests found in it. */
import { readFile } from 'node:fs/promises';
import { DebugIndex } from '../debuginfo/index.js';
import { loadDebugInfo } from '../debuginfo/load.js';
import { discoverTests, type TestSuite } from './suite.js';

export interface TestProgram {
  path: string;
  bytes: Uint8Array;
  index: DebugIndex;
  suite: TestSuite;
}

export async function loadTestProgram(path: string, debugInfo: string): Promise<TestProgram> {
  const [bytes, info] = await Promise.all([readFile(path), loadDebugInfo(debugInfo)]);
  const index = new DebugIndex(info);
  return { path, bytes: new Uint8Array(bytes), index, suite: discoverTests(index) };
}
