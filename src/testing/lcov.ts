/** Coverage as an lcov tracefile (geninfo's format: what genhtml and every CI coverage tool read). */
import { isAbsolute, resolve } from 'node:path';
import type { FileCoverage } from './coverage.js';

/** `sourceRoot`: the folder the debug info's relative file names are relative to (the build's). */
export function toLcov(files: readonly FileCoverage[], testName: string, sourceRoot: string): string {
  const out: string[] = [];
  for (const f of files) {
    out.push(`TN:${testName.replace(/\W/g, '_')}`, `SF:${isAbsolute(f.file) ? f.file : resolve(sourceRoot, f.file)}`);
    for (const fn of f.functions) out.push(`FN:${fn.line},${fn.name}`);
    for (const fn of f.functions) out.push(`FNDA:${fn.count},${fn.name}`);
    out.push(`FNF:${f.functions.length}`, `FNH:${f.functions.filter((fn) => fn.count > 0).length}`);
    for (const l of f.lines) out.push(`DA:${l.line},${l.count}`);
    out.push(`LF:${f.lines.length}`, `LH:${f.lines.filter((l) => l.count > 0).length}`, 'end_of_record');
  }
  return out.join('\n') + '\n';
}
