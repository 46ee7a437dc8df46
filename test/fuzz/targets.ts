/**
 * Fuzz targets: each has seeds taken from real files or real protocol bytes
 * and runs one input through the production entry point. An input passes if
 * the code returns or refuses it with a RetroError (parsers), or if the
 * connection survives or ends cleanly (protocol handlers); anything else —
 * another exception, an uncaught error, a hang — is a finding.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import * as z from 'zod/v4';
import { RetroError } from '../../src/core/errors.js';
import { parseCdb } from '../../src/debuginfo/sdcc-cdb.js';
import { parseCc65Dbg } from '../../src/debuginfo/cc65-dbg.js';
import { sourceLocator } from '../../src/debuginfo/source-near.js';
import { validateProfile } from '../../src/machines/dos/profile.js';
import { parseAttachArgs, parseLaunchArgs } from '../../src/dap/launch-args.js';
import { agentLaunchConfig } from '../../src/session/launch-policy.js';
import { CONNECTORS, findTool } from '../../src/connectors/registry.js';
import { BridgeClient } from '../../src/connectors/mame/bridge-client.js';
import { BuiltinMonitorServer } from '../../src/connectors/builtin-c64/monitor-server.js';
import { MonitorClient } from '../../src/connectors/vice/monitor-client.js';
import { ViceTarget } from '../../src/connectors/vice/vice-target.js';
import {
  C64_BANKS,
  EVENT_ID,
  Evt,
  RESPONSE_HEADER,
  encodeBanks,
  encodeCheckpoint,
  encodeDisplay,
  encodePalette,
  encodeRegisterNames,
  encodeRegisters,
  encodeResponse,
} from '../../src/connectors/vice/protocol.js';
import { PEPTO_PAL } from '../../src/machines/c64/pepto-palette.js';
import { buildCdbFixture } from '../support/cdb-fixture.js';
import { buildC64Fixture } from '../support/c64-fixture.js';
import { mutateBytes, mutateJson, mutateText, type Rng } from './mutate.js';

export interface FuzzTarget {
  name: string;
  /** real inputs to start from */
  seeds(): Promise<Buffer[]>;
  /** makes one input from the seeds */
  mutate(r: Rng, seeds: readonly Buffer[]): Buffer;
  /** set up once (connections, emulators); returns the function that runs one input, and a teardown */
  open(): Promise<{ run(input: Buffer): void | Promise<void>; close(): Promise<void> }>;
}

/** Thrown by run() for an outcome that counts as a crash. */
export class Finding extends Error {}

const pick = (r: Rng, seeds: readonly Buffer[]) => seeds[Math.floor(r() * seeds.length)];

function refusesOnlyWithRetroError(fn: () => unknown): void {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof RetroError)) throw new Finding(`threw ${(err as Error)?.stack ?? String(err)}`);
  }
}

const textTarget = (name: string, seeds: () => Promise<string[]>, parse: (text: string) => unknown): FuzzTarget => ({
  name,
  seeds: async () => (await seeds()).map((s) => Buffer.from(s, 'latin1')),
  mutate: (r, seeds) =>
    Buffer.from(
      mutateText(
        r,
        pick(r, seeds).toString('latin1'),
        seeds.map((s) => s.toString('latin1')),
      ),
      'latin1',
    ),
  open: async () => ({
    run: (input) => refusesOnlyWithRetroError(() => parse(input.toString('latin1'))),
    close: async () => {},
  }),
});

const jsonTarget = (name: string, seeds: () => Promise<unknown[]>, check: (value: unknown) => void): FuzzTarget => ({
  name,
  seeds: async () => (await seeds()).map((s) => Buffer.from(JSON.stringify(s))),
  mutate: (r, seeds) => {
    const seed = pick(r, seeds);
    // mostly structural edits; some byte edits of the JSON text (then it may not parse)
    if (r() < 0.8) return Buffer.from(JSON.stringify(mutateJson(r, JSON.parse(seed.toString()))) ?? 'null');
    return mutateBytes(r, seed, seeds);
  },
  open: async () => ({
    run: (input) => {
      let value: unknown;
      try {
        value = JSON.parse(input.toString('utf8'));
      } catch {
        return; // not JSON: the front ends refuse it before us
      }
      refusesOnlyWithRetroError(() => check(value));
    },
    close: async () => {},
  }),
});

const REPO = join(__dirname, '..', '..');

export const cdbTarget = textTarget(
  'sdcc-cdb',
  async () => [buildCdbFixture().cdb],
  (t) => parseCdb(t),
);

let dbgPath = '';
export const dbgTarget = textTarget(
  'cc65-dbg',
  async () => {
    const fx = await buildC64Fixture();
    dbgPath = fx.dbg;
    return [readFileSync(fx.dbg, 'latin1')];
  },
  (t) => parseCc65Dbg(t, { locateSource: sourceLocator(dbgPath) }),
);

export const profileTarget = jsonTarget(
  'dos-profile',
  async () => [
    JSON.parse(readFileSync(join(REPO, 'src/machines/dos/example-profile.json'), 'utf8')),
    {
      name: 'cflag',
      marker: { bytes: '43464c41475641525300', offset: '0x10' },
      checks: [
        { kind: 'max', offset: 2, size: 2, max: 9 },
        { kind: 'cstring_via_pointer', pointer: 4, value: 'x' },
      ],
      symbols: { counter: { offset: 2, type: 'u16' }, word: { offset: 4, type: 'cstring', size: 8 } },
      watch_sets: { all: ['counter', 'word'] },
      code_regions: [{ name: 'main', start: '0x100', end: '0x200' }],
      mouse: { buttons: 1, x: 2, y: 4 },
      screen: { width: 320, height: 200 },
      palette: ['000000', [63, 63, 63]],
    },
  ],
  (v) => validateProfile(v, REPO, [join(REPO, 'test')]),
);

const startSession = findTool('start_session')!;
const launchSeeds = async () => [
  {
    type: 'retro',
    request: 'launch',
    machine: 'spectrum',
    emulator: 'mame',
    program: 'build/program.rom',
    stopOnEntry: true,
    cwd: '/w',
  },
  { machine: 'c64', emulator: 'builtin', program: 'a.prg', debugInfo: 'a.dbg', drive8: 'disk' },
  { machine: 'c64', emulator: 'vice', viceMonitor: '127.0.0.1:6502', vicePath: 'x64sc' },
  {
    machine: 'dos',
    emulator: 'dosbox',
    program: 'GAME.COM',
    dos: { backend: 'native', args: '/x', memsizeMb: 16, isolation: 'dummy' },
  },
  {
    machine: 'sprinter',
    mamePath: '/usr/games/mame',
    media: { hard1: 'sp.img' },
    extraArgs: ['-window'],
    rompath: 'roms',
  },
  { sessionId: 'abc', cwd: '/w' },
];
export const launchTarget = jsonTarget('launch-arguments', launchSeeds, (v) => {
  refusesOnlyWithRetroError(() => parseLaunchArgs(v, CONNECTORS));
  refusesOnlyWithRetroError(() => parseAttachArgs(v));
  const parsed = z.object(startSession.input).safeParse(v);
  if (parsed.success) {
    const config = parsed.data as unknown as Parameters<typeof agentLaunchConfig>[0];
    agentLaunchConfig(config, { allowAgentLaunchOptions: true });
    agentLaunchConfig(config, undefined);
  }
});

/** The replies and events a VICE session sees, as the (byte-faithful) built-in monitor encodes them. */
export function viceSeeds(): Buffer[] {
  const regs = [
    { id: 3, value: 0x080d },
    { id: 0, value: 1 },
    { id: 1, value: 2 },
    { id: 2, value: 3 },
    { id: 4, value: 0xf6 },
    { id: 0x37, value: 0x2f },
  ];
  const cp = {
    number: 1,
    hit: true,
    start: 0x080d,
    end: 0x080d,
    stop: true,
    enabled: true,
    op: 4,
    temporary: false,
    hitCount: 1,
    ignoreCount: 0,
    hasCondition: false,
    memspace: 0,
  };
  const u16 = (v: number) => Buffer.from([v & 0xff, v >> 8]);
  return [
    encodeResponse(Evt.REGISTERS, 0, EVENT_ID, encodeRegisters(regs)),
    encodeResponse(Evt.STOPPED, 0, EVENT_ID, u16(0x080d)),
    encodeResponse(Evt.RESUMED, 0, EVENT_ID, u16(0x080d)),
    encodeResponse(Evt.JAM, 0, EVENT_ID, Buffer.alloc(0)),
    encodeResponse(Evt.CHECKPOINT, 0, EVENT_ID, encodeCheckpoint(cp as Parameters<typeof encodeCheckpoint>[0])),
    encodeResponse(0x82, 0, 7, encodeBanks(C64_BANKS)),
    encodeResponse(
      0x83,
      0,
      7,
      encodeRegisterNames([
        { id: 3, bits: 16, name: 'PC' },
        { id: 0, bits: 8, name: 'A' },
      ]),
    ),
    encodeResponse(0x91, 0, 7, encodePalette(PEPTO_PAL.map((c) => [c[0], c[1], c[2]]))),
    encodeResponse(
      0x84,
      0,
      7,
      encodeDisplay({
        width: 4,
        height: 2,
        innerX: 0,
        innerY: 0,
        innerWidth: 4,
        innerHeight: 2,
        bitsPerPixel: 8,
        pixels: Buffer.alloc(8, 1),
      }),
    ),
    encodeResponse(0x00, 0x8f, 7),
  ];
}

/** Mostly a consistent header with a mutated body (the decoders' inputs); sometimes raw byte edits. */
export function mutateFrame(r: Rng, seeds: readonly Buffer[]): Buffer {
  const seed = pick(r, seeds);
  if (r() < 0.25) return mutateBytes(r, seed, seeds, 4096);
  const body = mutateBytes(r, seed.subarray(RESPONSE_HEADER), seeds, 4096);
  const frame = Buffer.concat([seed.subarray(0, RESPONSE_HEADER), body]);
  frame.writeUInt32LE(body.length, 2);
  if (r() < 0.3) frame[6] = [0x31, 0x62, 0x63, 0x61, 0x11, 0x00, 0x82][Math.floor(r() * 7)];
  return frame;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

export const viceTarget: FuzzTarget = {
  name: 'vice-frames',
  seeds: async () => viceSeeds(),
  mutate: mutateFrame,
  async open() {
    let current: { server: BuiltinMonitorServer; stream: import('node:stream').Duplex; target: ViceTarget } | undefined;
    const fresh = async () => {
      const server = new BuiltinMonitorServer();
      const stream = server.connectInProcess();
      const client = MonitorClient.over(stream, { requestTimeoutMs: 2000 });
      const target = await ViceTarget.open(client, { kind: 'builtin', shutdown: () => server.close() });
      return { server, stream, target, client };
    };
    let client: MonitorClient | undefined;
    return {
      async run(input) {
        if (!current || client?.closed) {
          await current?.target.close().catch(() => undefined);
          const made = await fresh();
          current = made;
          client = made.client;
        }
        current.stream.push(input); // as if the monitor had sent it
        await tick();
        await tick();
      },
      async close() {
        await current?.target.close().catch(() => undefined);
      },
    };
  },
};

export const mameTarget: FuzzTarget = {
  name: 'mame-bridge-frames',
  seeds: async () =>
    [
      { event: 'stopped', reason: 'breakpoint', pc: 0x100, id: 3 },
      { event: 'heartbeat', state: 'running' },
      { event: 'idle' },
      { event: 'machine_stop', exit: false, hard_reset: true },
      { event: 'input_released', reason: 'stop', cut: 2 },
      { event: 'bridge_error', message: 'x' },
      { id: 1, ok: true, result: { pc: 256, regs: { PC: 256, SP: 65535 } } },
      { id: 2, ok: false, error: { code: 'bad_address', message: 'no such address' } },
    ]
      .map((m) => Buffer.from(JSON.stringify(m) + '\n'))
      .concat([
        Buffer.concat([
          Buffer.from(JSON.stringify({ id: 3, ok: true, result: {}, binary: 4 }) + '\n'),
          Buffer.from([1, 2, 3, 4]),
        ]),
      ]),
  mutate: (r, seeds) => {
    const seed = pick(r, seeds);
    if (r() < 0.5) return mutateBytes(r, seed, seeds, 4096);
    const nl = seed.indexOf(0x0a);
    const json = mutateJson(r, JSON.parse(seed.subarray(0, nl).toString()));
    return Buffer.concat([Buffer.from(JSON.stringify(json) + '\n'), seed.subarray(nl + 1)]);
  },
  async open() {
    let client: BridgeClient | undefined;
    let sock: Socket | undefined;
    const fresh = async () => {
      client?.close();
      sock?.destroy();
      client = await BridgeClient.listen();
      client.onEvent(() => undefined);
      const s = connect(client.port, '127.0.0.1');
      sock = s;
      s.on('error', () => undefined);
      await new Promise<void>((r) => s.once('connect', () => r()));
      s.write(JSON.stringify({ event: 'hello', token: client.token }) + '\n');
      await client.waitForConnection(5000);
    };
    let n = 0;
    return {
      async run(input) {
        if (!client?.connected || ++n % 200 === 0) await fresh();
        // a few requests in flight so that replies find someone waiting
        for (let i = 0; i < 2; i++)
          client!
            .request('read_memory', { address: 0, length: 4 }, { timeoutMs: 50, onReply: () => undefined })
            .catch(() => undefined);
        await new Promise<void>((r) => sock!.write(input, () => r()));
        await tick();
      },
      async close() {
        client?.close();
        sock?.destroy();
      },
    };
  },
};

export const TARGETS: FuzzTarget[] = [cdbTarget, dbgTarget, profileTarget, launchTarget, viceTarget, mameTarget];
