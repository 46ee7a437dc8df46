/**
 * Statement coverage from executed PCs: an instruction observer counts each
 * address run, and the debug info turns the counts into C lines (a line's
 * count is how often its code's first instruction ran) and functions.
 */
import type { InstructionObserver } from '../core/headless.js';
import type { DebugIndex } from '../debuginfo/index.js';

export interface LineCoverage {
  line: number;
  count: number;
}

export interface FileCoverage {
  /** as the debug info names it */
  file: string;
  lines: LineCoverage[];
  functions: { name: string; line: number; count: number }[];
}

/** the header's own code is not the user's to cover */
const HARNESS_FILE = /(^|[\\/])retro_test\.h$/;

export class CoverageCounter {
  readonly counts = new Uint32Array(0x10000);
  readonly observer: InstructionObserver = (pc) => {
    this.counts[pc]++;
  };

  /** Per source file: every line with code and how often it ran; functions by their entry. */
  report(index: DebugIndex): FileCoverage[] {
    const counts = this.counts;
    const out: FileCoverage[] = [];
    for (const file of index.sourceFiles()) {
      if (HARNESS_FILE.test(file)) continue;
      const code = index.codeLines(file);
      if (!code || !code.lines.length) continue;
      const lines = code.lines.map((line) => {
        const at = index.resolveLine(code.file, line);
        const count = at && at.line === line ? at.addresses.reduce((n, a) => n + counts[a], 0) : 0;
        return { line, count };
      });
      const functions = index.info.functions
        .filter((f) => index.lineAt(f.start)?.file === code.file)
        .map((f) => ({ name: f.name, line: index.lineAt(f.start)?.line ?? 0, count: counts[f.start] }));
      out.push({ file: code.file, lines, functions });
    }
    return out;
  }
}
