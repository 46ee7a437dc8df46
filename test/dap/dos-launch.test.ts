/**
 * VS Code's `machine: "dos"` launch through the debug adapter bundle, over
 * the DAP wire protocol, on Debian's native DOSBox running the nasm-built
 * KEYECHO: programs as threads and a scope, memory read/write while the
 * guest runs, profile symbols as variables (set one and see the program use
 * it on its text screen), and the emulator gone after disconnect.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { wasmAvailable } from '../../src/connectors/dosbox/wasm-launcher.js';
import { buildDosFixtures, type DosProgramFixture } from '../support/dos-fixture.js';
import { childProcesses, isAlive, RecordingClient, waitUntil } from './dap-client.js';
import { freshBundle } from '../support/bundle.js';

let dc: RecordingClient;
let ke: DosProgramFixture;
let profilePath: string;
const capabilityEvents: DebugProtocol.CapabilitiesEvent[] = [];

before(async () => {
  freshBundle();
  ke = (await buildDosFixtures()).programs.keyecho;
  profilePath = join(mkdtempSync(join(tmpdir(), 'dos-dap-')), 'keyecho.dosprofile.json');
  writeFileSync(
    profilePath,
    JSON.stringify({
      name: 'keyecho',
      marker: { bytes: Buffer.from('KEYECHOVARS').toString('hex'), offset: ke.labels.marker },
      symbols: {
        tag: { offset: ke.labels.tag, type: 'u8' },
        lastkey: { offset: ke.labels.lastkey, type: 'u16' },
        count: { offset: ke.labels.count, type: 'u16' },
      },
    }),
  );
  dc = new RecordingClient();
  dc.on('capabilities', (e: DebugProtocol.CapabilitiesEvent) => capabilityEvents.push(e));
  await dc.start();
});

after(async () => {
  await dc?.stop();
});

async function scope(name: string): Promise<DebugProtocol.Variable[]> {
  const { body } = await dc.scopesRequest({ frameId: 1 });
  const ref = body.scopes.find((s) => s.name === name)?.variablesReference;
  assert.ok(ref, `no ${name} scope in ${body.scopes.map((s) => s.name)}`);
  return (await dc.variablesRequest({ variablesReference: ref })).body.variables;
}

async function screenRows(): Promise<string> {
  const r = await dc.evaluateRequest({ expression: 'screen', context: 'repl' });
  const rows = (await dc.variablesRequest({ variablesReference: r.body.variablesReference })).body.variables;
  return rows.map((v) => JSON.parse(v.value) as string).join('\n');
}

const mem = async (address: number, count: number) =>
  Buffer.from(
    (
      (await dc.customRequest('readMemory', {
        memoryReference: `0x${address.toString(16)}`,
        count,
      })) as DebugProtocol.ReadMemoryResponse
    ).body!.data!,
    'base64',
  );
const writeMem = async (address: number, bytes: number[]) =>
  (
    (await dc.customRequest('writeMemory', {
      memoryReference: `0x${address.toString(16)}`,
      data: Buffer.from(bytes).toString('base64'),
    })) as DebugProtocol.WriteMemoryResponse
  ).body;

test(
  'machine "dos" launches KEYECHO in native DOSBox; the guest runs, no stop is reported',
  { timeout: 120_000 },
  async () => {
    await dc.initialize();
    await dc.launchAndConfigure({
      machine: 'dos',
      program: ke.com,
      cwd: dirname(ke.com),
      dos: { backend: 'native', profile: profilePath },
    });
    await dc.next('output', 20_000, (e: DebugProtocol.OutputEvent) =>
      /DOS guest running in DOSBox process \d+.*Programs: .*KEYECHO/.test(e.body.output),
    );
    // sent before that line
    assert.ok(
      capabilityEvents.some((e) => e.body.capabilities.supportsSetVariable === true),
      'setVariable offered for the DOS guest',
    );
    assert.equal(dc.events.filter((e) => e.event === 'stopped').length, 0);
  },
);

test('the guest\'s programs are threads and a "Programs" scope; BIOS data is live', { timeout: 60_000 }, async () => {
  const { threads } = (await dc.threadsRequest()).body;
  const keyecho = threads.find((t) => t.name.startsWith('KEYECHO '));
  assert.ok(keyecho, `threads: ${threads.map((t) => t.name)}`);
  assert.ok(
    threads.some((t) => t.name.startsWith('COMMAND ')),
    'the shell is listed too',
  );
  const frames = (await dc.stackTraceRequest({ threadId: keyecho.id })).body.stackFrames;
  assert.equal(
    frames[0].instructionPointerReference,
    `0x${(keyecho.id * 16 + 0x100).toString(16).toUpperCase().padStart(5, '0')}`,
  );
  const programs = await scope('Programs');
  const p = programs.find((v) => v.name === 'KEYECHO');
  assert.ok(p);
  assert.match(p.value, new RegExp(`PSP ${keyecho.id.toString(16).toUpperCase().padStart(4, '0')}`));
  assert.equal(p.memoryReference, `0x${(keyecho.id * 16).toString(16).toUpperCase().padStart(4, '0')}`);
  // the PSP starts with INT 20h (CD 20), read through DAP readMemory while the guest runs
  assert.deepEqual([...(await mem(keyecho.id * 16, 2))], [0xcd, 0x20]);
  const bios = await scope('BIOS data area');
  assert.match(bios.find((v) => v.name === 'video mode')!.value, /^0x03 \(80x25\)/);
});

test(
  'profile symbols are variables; setting one changes what the running program prints',
  { timeout: 60_000 },
  async () => {
    await waitUntil('the prompt', async () => (await screenRows()).includes('[A] key?'), 20_000);
    const symbols = await scope('Profile symbols');
    const tag = symbols.find((v) => v.name === 'tag')!;
    assert.equal(tag.value, '65');
    assert.deepEqual([...(await mem(parseInt(tag.memoryReference!, 16), 1))], [0x41]);
    assert.equal(symbols.find((v) => v.name === 'count')!.value, '0');

    const set = await dc.setVariableRequest({ variablesReference: 0, name: 'tag', value: '90' });
    assert.equal(set.body.value, '90');
    assert.deepEqual([...(await mem(parseInt(tag.memoryReference!, 16), 1))], [0x5a]);
    const refused = await dc
      .setVariableRequest({ variablesReference: 0, name: 'tag', value: '300' })
      .catch((e: Error) => e);
    assert.ok(
      refused instanceof Error && /u8: give a whole number from 0 to 255/.test(refused.message),
      String(refused),
    );

    // press "x" through DAP writeMemory: the key word at the BIOS ring's tail, then the new tail
    const bda = await mem(0x41a, 4);
    const tail = bda.readUInt16LE(2);
    const bounds = await mem(0x480, 4);
    const next = tail + 2 >= bounds.readUInt16LE(2) ? bounds.readUInt16LE(0) : tail + 2;
    await writeMem(0x400 + tail, [0x78, 0x2d]);
    assert.equal((await writeMem(0x41c, [next & 0xff, next >> 8]))?.bytesWritten, 2);
    await waitUntil('the patched prompt after the key', async () => (await screenRows()).includes('[Z] key?'), 20_000);
    assert.match(await screenRows(), /got x scan=2D ascii=78/);
    const count = await dc.evaluateRequest({ expression: 'count', context: 'watch' });
    assert.equal(count.body.result, '1');
    const nothing = await dc.evaluateRequest({ expression: 'no_such_name', context: 'watch' }).catch((e: Error) => e);
    assert.ok(nothing instanceof Error && /neither "screen", a profile symbol nor a DOS address/.test(nothing.message));
  },
);

test('run control is refused with a sentence; disconnect ends DOSBox', { timeout: 60_000 }, async () => {
  const paused = await dc.pauseRequest({ threadId: 1 }).catch((e: Error) => e);
  assert.ok(paused instanceof Error && /no CPU debugger/.test(paused.message), String(paused));
  const dosbox = childProcesses(dc.adapterPid()).find((c) => c.comm.startsWith('dosbox'));
  assert.ok(dosbox, "DOSBox runs as the adapter's child");
  await dc.disconnectRequest({ terminateDebuggee: true });
  await waitUntil('DOSBox to exit', () => !isAlive(dosbox.pid), 20_000);
});

test(
  'the bundled adapter runs the embedded DOSBox-X in its worker (dist/dos-wasm-worker.js)',
  { timeout: 120_000, skip: wasmAvailable() ? false : 'optional npm package "emulators" not installed' },
  async () => {
    const wasm = new RecordingClient();
    await wasm.start();
    try {
      await wasm.initialize();
      await wasm.launchAndConfigure({
        machine: 'dos',
        program: ke.com,
        cwd: dirname(ke.com),
        dos: { backend: 'wasm-dosbox-x' },
      });
      await wasm.next('output', 30_000, (e: DebugProtocol.OutputEvent) =>
        /DOS guest running in embedded wasm DOSBox-X \(worker thread \d+\).*KEYECHO/.test(e.body.output),
      );
      const keyecho = (await wasm.threadsRequest()).body.threads.find((t) => t.name.startsWith('KEYECHO '));
      assert.ok(keyecho);
      const psp = (
        (await wasm.customRequest('readMemory', {
          memoryReference: `0x${(keyecho.id * 16).toString(16)}`,
          count: 2,
        })) as DebugProtocol.ReadMemoryResponse
      ).body!.data!;
      assert.deepEqual([...Buffer.from(psp, 'base64')], [0xcd, 0x20]);
      await wasm.disconnectRequest({ terminateDebuggee: true });
    } finally {
      await wasm.stop();
    }
  },
);
