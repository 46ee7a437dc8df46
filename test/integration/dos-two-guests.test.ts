/**
 * Two real guests at once. (1) Two sessions, native DOSBox and the embedded
 * DOSBox-X, each finds only its own guest; keys and patches in one leave the
 * other untouched. (2) One memory that holds two live guests (the heaps of
 * two embedded emulators seen side by side) is refused, never guessed.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildDosFixtures, ToolDriver, until, type DosFixtures } from '../support/dos-fixture.js';
import { launchWasm, wasmAvailable, type WasmEmulator } from '../../src/connectors/dosbox/wasm-launcher.js';
import { findGuestBase } from '../../src/connectors/dosbox/discovery.js';
import type { HostMemory, HostRegion } from '../../src/connectors/dosbox/host-memory.js';
import { asRetroError } from '../../src/core/errors.js';

/** Two memories as one address space: the second starts at `gap`. */
function sideBySide(a: HostMemory, b: HostMemory, gap: number): HostMemory {
  const pick = (address: number) => (address >= gap ? { mem: b, at: address - gap } : { mem: a, at: address });
  return {
    description: 'two embedded emulators side by side',
    backend: 'wasm',
    async regions(): Promise<HostRegion[]> {
      const [ra, rb] = [await a.regions(), await b.regions()];
      return [...ra, ...rb.map((r) => ({ ...r, start: r.start + gap, end: r.end + gap }))];
    },
    read: (address, length) => {
      const p = pick(address);
      return p.mem.read(p.at, length);
    },
    write: (address, data) => {
      const p = pick(address);
      return p.mem.write(p.at, data);
    },
    alive: () => a.alive() && b.alive(),
    close: async () => undefined,
  };
}

let fx: DosFixtures;
before(async () => {
  fx = await buildDosFixtures();
});

describe('two DOS guests', { skip: wasmAvailable() ? false : 'optional npm package "emulators" not installed' }, () => {
  const d = new ToolDriver();
  const emulators: WasmEmulator[] = [];
  after(async () => {
    await d.close();
    for (const e of emulators) await e.exit();
  });

  it('two sessions (native + embedded) each see only their own guest', { timeout: 120_000 }, async () => {
    const [a, b] = await Promise.all([
      d.call('dosbox_launch', { program: fx.programs.keyecho.com, backend: 'native' }),
      d.call('dosbox_launch', { program: fx.programs.mouse.com, backend: 'wasm-dosbox-x' }),
    ]);
    const names = (r: Record<string, any>) => (r.programs as { name: string }[]).map((p) => p.name);
    assert.ok(names(a).includes('KEYECHO') && !names(a).includes('MOUSE'), `native: ${names(a)}`);
    assert.ok(names(b).includes('MOUSE') && !names(b).includes('KEYECHO'), `wasm: ${names(b)}`);
    const screen = async (sid: string) =>
      ((await d.call('dosbox_read_screen', { session_id: sid })).lines as string[]).join('\n');
    await until(
      'both banners',
      async () =>
        (await screen(a.session_id)).includes('[A] key?') && (await screen(b.session_id)).includes('click me'),
    );
    const before = await screen(b.session_id);
    await d.call('dosbox_type_keys', { session_id: a.session_id, keys: 'z' });
    await until('the echo in the native guest', async () => /got z scan=2C/.test(await screen(a.session_id)));
    assert.equal(await screen(b.session_id), before, 'the embedded guest saw nothing of it');
    await d.call('stop_session', { session_id: a.session_id });
    await d.call('stop_session', { session_id: b.session_id });
  });

  it('one memory holding two live guests is refused with both places named', { timeout: 120_000 }, async () => {
    for (const program of [fx.programs.keyecho.com, fx.programs.mouse.com])
      emulators.push(await launchWasm({ flavour: 'dosbox-x', program }));
    const [one, two] = emulators.map((e) => e.memory);
    const baseOne = await waitForGuest(one);
    const baseTwo = await waitForGuest(two);
    const gap = 2 ** 32;
    const err = asRetroError(await findGuestBase(sideBySide(one, two, gap)).catch((e: unknown) => e));
    assert.equal(err.code, 'incompatible_target', err.message);
    assert.match(err.message, /Found 2 DOS guests .*refusing to guess/);
    assert.equal(err.details.candidates, `0x${baseOne.toString(16)}, 0x${(gap + baseTwo).toString(16)}`);
  });
});

async function waitForGuest(mem: HostMemory): Promise<number> {
  const end = Date.now() + 60_000;
  for (;;) {
    try {
      return await findGuestBase(mem);
    } catch (e) {
      if (asRetroError(e).code !== 'not_found' || Date.now() > end) throw e;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
