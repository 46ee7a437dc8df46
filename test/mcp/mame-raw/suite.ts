/** The 30 raw MAME abilities, in the order a run goes through them, on one subject machine. */
import { inputTests } from './input.js';
import { memoryTests } from './memory.js';
import { RawRun } from './run.js';
import { stepTests } from './steps.js';
import type { RawSubject } from './subjects.js';
import { watchTests } from './watch.js';

export function rawToolsSuite(subject: RawSubject): void {
  const run = new RawRun(subject);
  memoryTests(run);
  watchTests(run);
  inputTests(run);
  stepTests(run);
}
