/**
 * Is MAME's replay from a save state exact enough for time travel? On the spectrum fixture (a C loop with key scans
 * and the 50 Hz interrupt), in one run: stop at a loop breakpoint, save a state (MAME `statesave` through the bridge),
 * run on to the 1st, 5th and 25th later hits and hash the CPU's 64 KiB and registers there; load the state and
 * run to the same hits again: the hashes must be equal. The costs are ratios against a forward run to the next hit
 * (the floor, same run): save, load, and a step back by re-running from a state.
 * Run: node --import tsx bench/mame-replay.bench.ts [rounds]
 */
import { createHash } from 'node:crypto';
import type { ClientSession } from '../src/session/client-session.js';
import { figuresOf as figures, type Figures } from './measure.js';
import { timedStop, withMameLoop } from './mame-loop-session.js';

const ROUNDS = Number(process.argv[2] ?? 3);
const CHECKPOINTS = [1, 5, 25];

async function machineHash(me: ClientSession): Promise<string> {
  const h = createHash('sha256');
  h.update(await me.session.readMemory({ space: 'cpu', offset: 0 }, 0x10000));
  for (const r of await me.session.readRegisters()) h.update(`${r.name}=${r.value};`);
  return h.digest('hex').slice(0, 16);
}

/** Runs on to the next breakpoint hit; the milliseconds it took. */
const nextHit = (me: ClientSession) => timedStop(me, () => me.resume(), 30_000);

/** Hashes at each of CHECKPOINTS hits after the current stop. */
async function runHashes(me: ClientSession, hitTimes: number[]): Promise<string[]> {
  const out: string[] = [];
  for (let hit = 1; hit <= CHECKPOINTS[CHECKPOINTS.length - 1]; hit++) {
    hitTimes.push(await nextHit(me));
    if (CHECKPOINTS.includes(hit)) out.push(await machineHash(me));
  }
  return out;
}

async function main(): Promise<void> {
  await withMameLoop('spectrum', async (me) => {
    await nextHit(me);
    const hitTimes: number[] = [];
    const saves: number[] = [];
    const loads: number[] = [];
    const backs: number[] = [];
    let equal = 0;
    let differ = 0;
    for (let round = 0; round < ROUNDS; round++) {
      let t0 = performance.now();
      const state = await me.saveState();
      saves.push(performance.now() - t0);
      const atSave = await machineHash(me);
      const first = await runHashes(me, hitTimes);
      t0 = performance.now();
      await me.loadState(state);
      loads.push(performance.now() - t0);
      const reloaded = await machineHash(me);
      // a step back to the hit before the present: load the state, run forward to it again
      t0 = performance.now();
      await me.loadState(state);
      for (let hit = 1; hit < CHECKPOINTS[CHECKPOINTS.length - 1]; hit++) await nextHit(me);
      backs.push(performance.now() - t0);
      await me.loadState(state);
      const second = await runHashes(me, []);
      const same = [atSave === reloaded, ...first.map((h, i) => h === second[i])];
      equal += same.filter(Boolean).length;
      differ += same.filter((s) => !s).length;
      console.log(
        `round ${round + 1}: state ${state.length} bytes; after load ${same[0] ? '=' : '≠'}; hits ${CHECKPOINTS.map((c, i) => `${c}: ${first[i]} ${same[i + 1] ? '=' : '≠'} ${second[i]}`).join(', ')}`,
      );
    }
    const floor = figures(hitTimes).median;
    const ms = (f: Figures) => `median ${f.median.toFixed(1)} ms (x${(f.median / floor).toFixed(1)} floor)`;
    console.log(`floor: forward run to the next hit, median ${floor.toFixed(1)} ms`);
    console.log(`save state ${ms(figures(saves))}; load state ${ms(figures(loads))}`);
    console.log(`step back ${CHECKPOINTS[CHECKPOINTS.length - 1]} hits later by load + re-run: ${ms(figures(backs))}`);
    console.log(`replay exact: ${equal} of ${equal + differ} hashes equal a fresh run's`);
  });
}

void main();
