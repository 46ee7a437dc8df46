/**
 * Time travel on the built-in C64, in one run, on the cc65 game loop of the
 * history fixture (raster waits each frame):
 * - recording overhead: warp speed with history on / off (machine only, same program, same frames);
 * - memory: what 60 s of machine time holds with the default budget;
 * - Step Back (C line) median / forward C line step median, through a real session;
 * - last_write over a 60-s history: median time to find the write and move there.
 * Run: node --import tsx bench/time-travel.bench.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CYCLES_PER_FRAME, BuiltinC64 } from '../src/connectors/builtin-c64/c64.js';
import { MachineHistory } from '../src/connectors/builtin-c64/history/machine-history.js';
import { CYCLES_PER_SECOND } from '../src/connectors/builtin-c64/history/recorder.js';
import { SessionManager } from '../src/session/manager.js';
import { CONNECTORS } from '../src/connectors/registry.js';
import { findLastWrite, stepBackTarget, timeTravel, travelTo } from '../src/session/time-travel.js';
import { REPO_ROOT, buildCc65Program, findMarkers } from '../test/support/c64-fixture.js';
import type { Figures } from './measure.js';

const SOURCE = join(REPO_ROOT, 'test', 'fixtures', 'c64', 'history');
const FRAMES_60S = Math.ceil((60 * CYCLES_PER_SECOND) / CYCLES_PER_FRAME) + 10;

function figures(times: number[]): Figures {
  const t = [...times].sort((a, b) => a - b);
  return { median: t[Math.floor(t.length / 2)], p95: t[Math.min(t.length - 1, Math.floor(t.length * 0.95))] };
}

/** Seconds of wall time to run `frames` frames in warp slices (as the pacer does: 5 frames a slice). */
function runWarp(
  prg: Buffer,
  frames: number,
  history: boolean,
): { seconds: number; m: BuiltinC64; h?: MachineHistory } {
  const m = new BuiltinC64({ checkpointHit: () => undefined, log: () => undefined });
  m.autostart(prg, true);
  const h = history ? new MachineHistory(m) : undefined;
  const t0 = performance.now();
  while (m.frame < frames) m.runSlice(CYCLES_PER_FRAME * 5);
  return { seconds: (performance.now() - t0) / 1000, m, h };
}

async function main(): Promise<void> {
  const dir = await buildCc65Program(SOURCE, ['game.c']);
  const prg = readFileSync(join(dir, 'program.prg'));
  const markers = await findMarkers([join(dir, 'game.c')]);

  // recording overhead: alternate off/on runs of 600 frames, median of the per-pair speed ratios
  const ratios: number[] = [];
  const speeds: number[] = [];
  for (let i = 0; i < 7; i++) {
    const off = runWarp(prg, 600, false).seconds;
    const on = runWarp(prg, 600, true).seconds;
    ratios.push(off / on);
    speeds.push((600 * CYCLES_PER_FRAME) / CYCLES_PER_SECOND / off);
  }
  const speedRatio = figures(ratios).median;

  // memory: 60 s of machine time with the default budget
  const long = runWarp(prg, FRAMES_60S, true);
  const span = long.h!.travel.span();
  const keptSeconds = (span.endCycle - span.startCycle) / CYCLES_PER_SECOND;

  // session figures: step back vs forward C line step; last_write over 60 s
  const manager = new SessionManager({ connectors: CONNECTORS });
  const me = manager.start(
    { machine: 'c64', emulator: 'builtin', program: join(dir, 'program.prg'), cwd: dir },
    { kind: 'cli', label: 'bench' },
  );
  const { session } = me;
  try {
    await session.waitForStop(60_000);
    const bp = await me.setLineBreakpoint('game.c', markers.trail.line, `frames == ${FRAMES_60S}`);
    await me.resume();
    await session.waitForStop(120_000);
    await me.clearBreakpoint(bp.id);
    const t = timeTravel(session);
    const history = t.span();
    const forward: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t0 = performance.now();
      const stop = me.nextStop(10_000);
      await me.stepOver();
      await stop;
      forward.push(performance.now() - t0);
    }
    const back: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t0 = performance.now();
      const stop = me.nextStop(10_000);
      await travelTo(me, await stepBackTarget(session, 'line'));
      await stop;
      back.push(performance.now() - t0);
    }
    const lastWrite: number[] = [];
    for (const expression of ['lives', 'trail[3]', 'frames', 'lives', 'trail[3]', 'frames', 'lives']) {
      const stop0 = me.nextStop(10_000);
      await travelTo(me, t.span().endCycle);
      await stop0;
      const t0 = performance.now();
      const place = await session.locateLvalue(expression);
      const found = await findLastWrite(session, place.address, place.length);
      const stop = me.nextStop(10_000);
      await travelTo(me, found.cycle);
      await stop;
      lastWrite.push(performance.now() - t0);
    }
    // an address last written before the history starts: every interval's bitmap is looked at, nothing replayed
    const place = await session.locateLvalue('hero.x');
    const t0 = performance.now();
    const missing = await findLastWrite(session, place.address, place.length).then(
      () => 'found',
      (err: Error) => err.message,
    );
    const missingMs = performance.now() - t0;
    const f = figures(forward);
    const b = figures(back);
    const lw = figures(lastWrite);
    const ms = (x: Figures) => `median ${x.median.toFixed(1)} ms, p95 ${x.p95.toFixed(1)} ms`;
    console.log(
      `recording overhead: speed with history / without = ${speedRatio.toFixed(3)} (floor 0.9; warp ${figures(speeds).median.toFixed(1)}x real time without)`,
    );
    console.log(
      `memory: ${keptSeconds.toFixed(1)} s of machine time kept in ${(span.bytes / 2 ** 20).toFixed(1)} MB (${span.snapshots} snapshots; floor: >= 60 s in <= 256 MB)`,
    );
    console.log(
      `session history at the bench's stop: ${((history.endCycle - history.startCycle) / CYCLES_PER_SECOND).toFixed(1)} s`,
    );
    console.log(`forward C line step: ${ms(f)}`);
    console.log(`Step Back (C line):  ${ms(b)}  = ${(b.median / f.median).toFixed(2)}x forward (ceiling 10x)`);
    console.log(`last_write over 60 s of history (find + move there): ${ms(lw)} (ceiling 1000 ms median)`);
    console.log(`last_write of hero.x (written before the history): ${missingMs.toFixed(1)} ms: ${missing}`);
  } finally {
    await manager.closeAll();
  }
}

void main();
