/**
 * Time travel on MAME (spectrum or sprinter, the machine's SDCC fixture), in one run: each round runs to the next
 * loop breakpoint hit, steps three C lines forward (the floor: a forward C line step), then steps back two C lines
 * (each replays the intervals it walks that are not kept, with MAME's traceover), asks `last_write` of a global the
 * loop writes (`total` on the spectrum, `counter` on the Sprinter), and returns to the present. A second floor: the
 * same forward steps in a session with the history off (no state saved at stops). Figures are medians, and ratios
 * against the forward step's median (targets: Step Back ≤ ×10, `last_write` ≤ 1 s).
 * Run: node --import tsx bench/mame-time-travel.bench.ts [rounds] [spectrum|sprinter]
 */
import { findLastWrite, stepBackTarget, timeTravel, travelTo } from '../src/session/time-travel.js';
import { figuresOf } from './measure.js';
import { loopMachineArg, timedStop as timed, withMameLoop } from './mame-loop-session.js';
import type { ClientSession } from '../src/session/client-session.js';

const ROUNDS = Number(process.argv[2] ?? 8);
const MACHINE = loopMachineArg(3);

const median = (t: number[]) => figuresOf(t).median;

/** Forward C line steps, three a round after a loop breakpoint hit, as the history rounds take them. */
async function forwardSteps(me: ClientSession, into: number[]): Promise<void> {
  await timed(me, () => me.resume());
  for (let i = 0; i < 3; i++) into.push(await timed(me, () => me.stepOver('line')));
}

async function main(): Promise<void> {
  const off: number[] = [];
  await withMameLoop(
    MACHINE,
    async (me) => {
      await timed(me, () => me.resume());
      for (let round = 0; round < ROUNDS; round++) await forwardSteps(me, off);
    },
    { seconds: 0, maxMegabytes: 0 },
  );
  await withMameLoop(MACHINE, async (me, written) => {
    await timed(me, () => me.resume());
    const global = await me.session.locateLvalue(written);
    const [forward, backFirst, backKept, lastWrites] = [[], [], [], []] as number[][];
    for (let round = 0; round < ROUNDS; round++) {
      await forwardSteps(me, forward);
      backFirst.push(await timed(me, async () => travelTo(me, await stepBackTarget(me.session, 'line'))));
      backKept.push(await timed(me, async () => travelTo(me, await stepBackTarget(me.session, 'line'))));
      let t0 = performance.now();
      await findLastWrite(me.session, global.address, global.length);
      lastWrites.push(performance.now() - t0);
      t0 = performance.now();
      await timed(me, () => travelTo(me, timeTravel(me.session).span().endCycle));
    }
    const floor = median(forward);
    const fig = (t: number[]) => `median ${median(t).toFixed(1)} ms (x${(median(t) / floor).toFixed(1)} forward step)`;
    const span = timeTravel(me.session).span();
    console.log(`${MACHINE}, ${ROUNDS} rounds; history: ${span.snapshots} states, ${span.bytes} bytes`);
    console.log(`forward C line step (floor): median ${floor.toFixed(1)} ms`);
    console.log(`forward C line step, history off: median ${median(off).toFixed(1)} ms`);
    console.log(`step back a C line, first: ${fig(backFirst)}`);
    console.log(`step back a C line, second: ${fig(backKept)}`);
    const all = [...backFirst, ...backKept];
    console.log(
      `step back a C line, all: ${fig(all)}; x${(median(all) / median(off)).toFixed(1)} the history-off step`,
    );
    console.log(`last_write of \`${written}\`: ${fig(lastWrites)}`);
  });
}

void main();
