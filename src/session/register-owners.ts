/**
 * The register-ownership checks (z80-owners.ts) of the functions a stop
 * looks at, from the code in the machine's memory and the C source lines.
 * A function's bytes (and its callees') are read once, when it is first
 * analysed: SDCC programs do not rewrite their code.
 */
import { readFileSync } from 'node:fs';
import type { DebugIndex } from '../debuginfo/index.js';
import type { FunctionInfo } from '../debuginfo/model.js';
import { assignedNames } from '../debuginfo/c-assigned.js';
import { decodeZ80 } from '../cpu/z80-access.js';
import type { ReadCpu } from './variables.js';
import type { SourcePaths } from './source-paths.js';
import { calleeCleanup, registerOwners, type OwnerCheck } from './z80-owners.js';

/** Longer functions are not analysed (their register variables show as not available). */
const MAX_FUNCTION_BYTES = 16384;

export class RegisterOwners {
  private readonly analysed = new Map<FunctionInfo, { check: OwnerCheck }>();
  private readonly sourceLines = new Map<string, string[] | undefined>();
  private readonly assigned = new Map<string, Set<string>>();

  constructor(
    private readonly index: DebugIndex,
    private readonly paths: SourcePaths,
  ) {}

  /** Only SDCC's Z80 code is analysed; other toolchains' register variables are read as the debug info says. */
  static applies(index: DebugIndex): boolean {
    return index.info.cpu === 'z80' && index.info.format === 'sdcc-cdb';
  }

  async check(fn: FunctionInfo, read: ReadCpu): Promise<OwnerCheck> {
    const size = fn.end - fn.start + 1;
    if (size <= 0 || size > MAX_FUNCTION_BYTES)
      return () => ({ reason: `not available here: ${fn.name} is too long to follow` });
    // the program's code is read once: a stop (and a breakpoint condition at each hit) costs no extra round trip
    const old = this.analysed.get(fn);
    if (old) return old.check;
    const code = await read(fn.start, size);
    const cleanups = await this.cleanups(fn, code, read);
    const check = registerOwners(fn, code, {
      lineAt: (address) => this.index.lineAt(address),
      assigned: (file, line) => this.assignedIn(file, line),
      cleanup: (target) => cleanups.get(target) ?? 0,
    });
    this.analysed.set(fn, { check });
    return check;
  }

  /** Arguments each function called from `code` removes itself (callees outside the debug info: none). */
  private async cleanups(fn: FunctionInfo, code: Uint8Array, read: ReadCpu): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (let at = 0; at < code.length;) {
      const a = decodeZ80(code, at, fn.start + at);
      at += a.length;
      if (a.flow.kind !== 'call' || out.has(a.flow.target)) continue;
      const callee = this.index.functionAt(a.flow.target);
      const size = callee ? callee.end - callee.start + 1 : 0;
      const known = callee && callee.start === a.flow.target && size > 0 && size <= MAX_FUNCTION_BYTES;
      out.set(a.flow.target, known ? calleeCleanup(await read(callee.start, size), callee.start) : 0);
    }
    return out;
  }

  private assignedIn(file: string, line: number): Set<string> {
    const key = `${file}:${line}`;
    let names = this.assigned.get(key);
    if (!names) this.assigned.set(key, (names = assignedNames(this.lines(file)?.[line - 1] ?? '')));
    return names;
  }

  private lines(file: string): string[] | undefined {
    if (!this.sourceLines.has(file)) {
      const path = this.paths.resolve(file);
      let text: string | undefined;
      try {
        text = path ? readFileSync(path, 'latin1') : undefined;
      } catch {
        text = undefined;
      }
      this.sourceLines.set(file, text?.split(/\r?\n/));
    }
    return this.sourceLines.get(file);
  }
}
