/**
 * What VS Code shows of a profile run, without VS Code: a lens per C
 * function, a heat level per C line and the call tree as a flame graph, all
 * keyed by absolute source path. profile-view.ts and profile-flame.ts draw it.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ProfileRun } from '../testing/profile-run.js';
import type { CallNode } from '../testing/profiler.js';

/** Heat levels of the hot-lines decoration: level n holds lines above (n-1)/N of the hottest line's cycles. */
export const HEAT_LEVELS = 5;

export interface FunctionLens {
  name: string;
  /** 1-based */
  line: number;
  title: string;
}

export interface HotLine {
  /** 1-based */
  line: number;
  cycles: number;
  /** 1..HEAT_LEVELS */
  heat: number;
  label: string;
}

export interface FlameNode {
  name: string;
  /** cycles in this node and its callees */
  total: number;
  self: number;
  calls: number;
  file?: string;
  line?: number;
  children: FlameNode[];
}

export interface ProfileModel {
  /** e.g. "c64: 100 frames ran, 1,970,000 cycles (exact)" */
  summary: string;
  lenses: Map<string, FunctionLens[]>;
  hot: Map<string, HotLine[]>;
  flame: FlameNode;
  /** every source file the model names (the only ones the flame graph may open) */
  files: Set<string>;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : '0%');

/** `readSource`: a source file's text (lenses move up to the function's header): the file on disk by default. */
export function profileModel(run: ProfileRun, readSource = (file: string) => readFileSync(file, 'utf8')): ProfileModel {
  const p = run.profiler;
  const abs = (file: string) => resolve(run.sourceRoot, file);
  const files = new Set<string>();
  const lenses = new Map<string, FunctionLens[]>();
  const texts = new Map<string, string[]>();
  const source = (file: string) => {
    if (!texts.has(file)) {
      let text = '';
      try {
        text = readSource(file);
      } catch {
        // a source that moved since the build: the lens stays at the debug info's line
      }
      texts.set(file, text.split('\n'));
    }
    return texts.get(file) as string[];
  };
  const where = new Map<string, { file: string; line: number }>();
  for (const f of p.functions()) {
    if (!f.file || !f.line) continue; // runtime labels, (interrupt): no source to put a lens on
    const file = abs(f.file);
    files.add(file);
    where.set(f.name, { file, line: headerLine(source(file), f.name, f.line) });
    const title =
      `${fmt(f.total)} cycles incl (${pct(f.total, run.cycles)}) · ${fmt(f.self)} excl · ` +
      `${fmt(f.calls)} call${f.calls === 1 ? '' : 's'}`;
    const line = headerLine(source(file), f.name, f.line);
    lenses.set(file, [...(lenses.get(file) ?? []), { name: f.name, line, title }]);
  }
  const lines = p.lines();
  const hottest = lines[0]?.cycles ?? 0;
  const hot = new Map<string, HotLine[]>();
  for (const l of lines) {
    const file = abs(l.file);
    files.add(file);
    const heat = Math.max(1, Math.ceil((HEAT_LEVELS * l.cycles) / hottest));
    const label = `${fmt(l.cycles)} cycles (${pct(l.cycles, run.cycles)})`;
    hot.set(file, [...(hot.get(file) ?? []), { line: l.line, cycles: l.cycles, heat, label }]);
  }
  const flame = flameOf(p.root, where);
  const exact = run.exact ? 'exact' : "the machine's cycle counter";
  const summary = `${run.machine}: ${run.ended}, ${fmt(run.cycles)} cycles (${exact})`;
  return { summary, lenses, hot, flame, files };
}

/**
 * The line of `name`'s header at or above `line` (the debug info's line of its first instruction, which cc65 puts
 * on the first statement when the function has no prologue); `line` when none is near.
 */
export function headerLine(lines: readonly string[], name: string, line: number): number {
  const header = new RegExp(`\\b${name.replace(/[^\w]/g, '')}\\s*\\(`);
  for (let l = line; l >= Math.max(1, line - 20); l--) if (header.test(lines[l - 1] ?? '')) return l;
  return line;
}

function flameOf(n: CallNode, where: Map<string, { file: string; line: number }>): FlameNode {
  const children = [...n.children.values()].map((c) => flameOf(c, where)).sort((a, b) => b.total - a.total);
  const total = n.self + children.reduce((t, c) => t + c.total, 0);
  return { name: n.name, total, self: n.self, calls: n.calls, ...where.get(n.name), children };
}
