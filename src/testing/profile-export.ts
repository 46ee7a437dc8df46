/**
 * A profile in the formats people's viewers read: `.cpuprofile` (Chrome
 * DevTools, VS Code's profile viewer) and speedscope's JSON. One machine
 * cycle is written as one microsecond (about right for a 1 MHz 6502), so the
 * viewers' times read as cycles.
 */
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ProfileRun } from './profile-run.js';
import type { CallNode, Profiler } from './profiler.js';

export const PROFILE_FORMATS = ['cpuprofile', 'speedscope'] as const;
export type ProfileFormat = (typeof PROFILE_FORMATS)[number];

/** A run's profile in `format`, its sources named by file URL (the viewers open them). */
export function exportRun(run: ProfileRun, format: ProfileFormat): object {
  const url = (file: string) => pathToFileURL(resolve(run.sourceRoot, file)).href;
  return format === 'cpuprofile'
    ? toCpuProfile(run.profiler, url)
    : toSpeedscope(run.profiler, relative(run.sourceRoot, run.program), url);
}

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; scriptId: string; url: string; lineNumber: number; columnNumber: number };
  hitCount: number;
  children: number[];
}

export function toCpuProfile(profiler: Profiler, sourceUrl: (file: string) => string): object {
  const index = frameInfo(profiler, sourceUrl);
  const nodes: CpuProfileNode[] = profiler.allNodes().map((n) => ({
    id: n.id,
    callFrame: {
      functionName: n.name,
      scriptId: '0',
      url: index(n.name).url,
      // 0-based in the format
      lineNumber: Math.max(0, index(n.name).line - 1),
      columnNumber: 0,
    },
    hitCount: n.self > 0 ? 1 : 0,
    children: [...n.children.values()].map((c) => c.id),
  }));
  // one sample per node that spent cycles; sample i lasts until sample i+1 (its delta)
  const spent = profiler.allNodes().filter((n) => n.self > 0);
  const samples = [...spent.map((n) => n.id), profiler.root.id];
  const timeDeltas = [0, ...spent.map((n) => n.self)];
  const total = spent.reduce((t, n) => t + n.self, 0);
  return { nodes, startTime: 0, endTime: total, samples, timeDeltas };
}

export function toSpeedscope(profiler: Profiler, name: string, sourceUrl: (file: string) => string): object {
  const info = frameInfo(profiler, sourceUrl);
  const frames: { name: string; file?: string; line?: number }[] = [];
  const frameOf = new Map<string, number>();
  const frameIndex = (fn: string) => {
    let i = frameOf.get(fn);
    if (i === undefined) {
      const at = info(fn);
      frameOf.set(fn, (i = frames.length));
      frames.push(at.url ? { name: fn, file: at.url, line: at.line } : { name: fn });
    }
    return i;
  };
  const samples: number[][] = [];
  const weights: number[] = [];
  for (const n of profiler.allNodes()) {
    if (!n.self) continue;
    // the root's own cycles (code outside any call: the start-up) as a frame of its own
    samples.push(n === profiler.root ? [frameIndex(n.name)] : path(n).map((p) => frameIndex(p.name)));
    weights.push(n.self);
  }
  const total = weights.reduce((t, w) => t + w, 0);
  return {
    $schema: 'https://www.speedscope.app/file-format-schema.json',
    shared: { frames },
    profiles: [{ type: 'sampled', name, unit: 'none', startValue: 0, endValue: total, samples, weights }],
    name,
    exporter: 'retro-debug',
  };
}

/** root-most first, the root itself left out */
function path(n: CallNode): CallNode[] {
  const out: CallNode[] = [];
  for (let at: CallNode | undefined = n; at?.parent; at = at.parent) out.unshift(at);
  return out;
}

function frameInfo(profiler: Profiler, sourceUrl: (file: string) => string) {
  const byName = new Map(profiler.functions().map((f) => [f.name, f]));
  return (name: string) => {
    const f = byName.get(name);
    return { url: f?.file ? sourceUrl(f.file) : '', line: f?.line ?? 0 };
  };
}
