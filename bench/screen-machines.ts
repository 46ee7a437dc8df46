/**
 * The screen bench on MAME (the SDCC-built ZX fixture, then a loop that
 * changes the border every frame; speed from MAME's frame counter, 50.08 Hz)
 * and on a DOS guest (BUSY.COM, a loop that never waits and counts its rounds
 * while repainting the mode-13h screen; speed from that count and from the
 * BIOS tick count, 18.2 Hz).
 */
import { MAME_RAW_FEATURE } from '../src/connectors/mame/mame-raw.js';
import { SessionManager } from '../src/session/manager.js';
import { CONNECTORS } from '../src/connectors/registry.js';
import { buildZxFixture } from '../test/support/zx-fixture.js';
import { buildDosFixtures, ToolDriver } from '../test/support/dos-fixture.js';
import { alternate, childCpu, emulatedRate, frameProbe, overlapping, report } from './screen-viewer.js';

const SPECTRUM_HZ = 50.08;
const BIOS_HZ = 1193182 / 65536;

/**
 * A Z80 loop put into RAM at a stop and jumped to: it steps the border colour
 * about twenty times a frame (the stripes move every frame), so the picture
 * changes all the time with no help from outside. (A loop rewriting the
 * bitmap right at entry shows nothing: before the fixture's fill_screen the
 * attributes are 0, black ink on black paper; integration/mame-frames draws
 * with the attributes set.)
 */
// 9000 ld a,(9100h) | inc a | ld (9100h),a | and 7 | out (0FEh),a | ld b,0 | 900D: djnz 900D | jr 9000
const ANIMATE = Buffer.from('3a0091' + '3c' + '320091' + 'e607' + 'd3fe' + '0600' + '10fe' + '18ef', 'hex');

export async function benchMame(seconds: number, rounds: number): Promise<void> {
  const fx = await buildZxFixture();
  const manager = new SessionManager({ connectors: CONNECTORS });
  const client = manager.start(
    { machine: 'spectrum', emulator: 'mame', program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir, stopOnEntry: true },
    { kind: 'cli', label: 'bench' },
  );
  const { session } = client;
  try {
    await session.waitForStop(120_000);
    await client.writeMemory({ space: 'cpu', offset: 0x9000 }, ANIMATE);
    await session.feature(MAME_RAW_FEATURE).console('do pc=9000');
    await client.resume();
    const cpu = childCpu('mame');
    const at = async (realtime: boolean) => {
      const probe = frameProbe(session, realtime);
      try {
        return await alternate(rounds, (watch) =>
          emulatedRate(manager, { watch, warp: !realtime, seconds, hz: SPECTRUM_HZ, reading: probe.reading, cpu }),
        );
      } finally {
        probe.close();
      }
    };
    const warp = await at(false);
    const real = await at(true);
    console.log(
      `MAME spectrum (its frame counter; a Z80 loop moves border stripes every frame; per CPU second: MAME's${cpu ? '' : ' (not found: Node alone)'} and Node's):`,
    );
    console.log(report('speed watched / alone (warp)     ', warp, 'x'));
    console.log(report('speed watched / alone (real time)', real, 'x'));
    console.log(
      `  panel frames/s at 30 asked: warp ${warp.fps.toFixed(1)}, real time ${real.fps.toFixed(1)}  (target >= 25)`,
    );
    const o = await overlapping(session, 0x4000);
    console.log(`  overlapping captures and reads while running: ${o.done} done, ${o.refused} refused  (target 0)`);
  } finally {
    await manager.closeAll();
  }
}

export async function benchDos(backend: 'native' | 'wasm-dosbox-x', seconds: number, rounds: number): Promise<void> {
  const fx = await buildDosFixtures();
  const busy = fx.programs.busy;
  const d = new ToolDriver();
  try {
    const launched = await d.call('dosbox_launch', { program: busy.com, backend });
    const session = d.manager.get(launched.session_id as string);
    const psp = parseInt(
      (launched.programs as { name: string; psp: string }[]).find((p) => p.name === 'BUSY')!.psp,
      16,
    );
    const u32 = async (offset: number) =>
      Buffer.from(await session.readMemory({ space: 'cpu', offset }, 4)).readUInt32LE(0);
    const count = () => u32(psp * 16 + busy.labels.count);
    const ticks = () => u32(0x46c);
    const cpu = backend === 'native' ? childCpu('dosbox') : undefined; // the wasm build runs in this process
    const work = await alternate(rounds, (watch) =>
      emulatedRate(d.manager, { watch, warp: false, seconds, hz: 1e6, reading: count, cpu }),
    );
    const time = await alternate(rounds, (watch) =>
      emulatedRate(d.manager, { watch, warp: false, seconds, hz: BIOS_HZ, reading: ticks, cpu }),
    );
    console.log(`DOS ${backend} (BUSY.COM in mode 13h; its round count, and the BIOS ticks):`);
    console.log(report('guest rounds watched / alone ', work, 'M/s'));
    console.log(report('guest time watched / alone   ', time, 'x'));
    console.log(`  panel frames/s at 30 asked: ${work.fps.toFixed(1)} and ${time.fps.toFixed(1)}  (target >= 25)`);
    const o = await overlapping(session, 0x400);
    console.log(`  overlapping captures and reads while running: ${o.done} done, ${o.refused} refused  (target 0)`);
    await d.call('stop_session', { session_id: session.id }).catch(() => undefined);
  } finally {
    await d.close();
  }
}
