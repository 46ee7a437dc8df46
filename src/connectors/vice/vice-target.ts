/**
 * The Target for a VICE binary monitor (a real x64sc or the built-in C64): the
 * facets on top of one ViceConnection, which is also the 'vice' feature.
 * C-line steps use checkpoints over the addresses outside the line (one run
 * per line step); "over" adds the condition SP >= the line's SP, so calls and
 * interrupts pass.
 */
import { JOYSTICK_FEATURE, MOUSE_FEATURE } from '../../core/input-devices.js';
import { ViceJoystick, viceNoMouse } from './vice-joystick.js';
import { unsupported, notFound, badRequest, badAddress } from '../../core/errors.js';
import {
  TargetEmitter,
  TargetFeatures,
  featureKey,
  type Address,
  type AddressRange,
  type Register,
  type Target,
  type TargetBreakpoints,
  type TargetInfo,
  type TargetInput,
  type TargetLifecycle,
  type TargetMemory,
  type TargetRun,
  type TargetScreen,
  type FrameListener,
  type FrameSource,
  type FrameRequest,
  type FrameSourceInfo,
  type ScreenFrame,
  type ScreenImage,
  type TargetStatus,
  type TargetWatch,
} from '../../core/target.js';
import { frameToImage } from '../../core/frames.js';
import type { MonitorClient } from './monitor-client.js';
import { strokesToPetscii } from './petscii-keys.js';
import { visibleArea } from './vice-capture.js';
import { ViceConnection } from './vice-connection.js';
import { StopCost } from './vice-stop-cost.js';
import { OP_EXEC, checkRange } from './vice-requests.js';
import { peerName, type ViceFeature } from './vice-feature.js';
import { ViceCpuHistory } from './vice-cpu-history.js';
import { CPU_HISTORY_FEATURE } from '../../core/cpu-history.js';

/** The 'vice' feature: what the vice_* tools use beyond the facets. */
export const VICE_FEATURE = featureKey<ViceFeature>('vice');

/** Stepping "into" never stops in the KERNAL/ROM area: it has no C lines and the IRQ runs there. */
const ROM_START = 0xe000;
/** VICE's register id of SP */
const REG_SP = 0x04;

export interface ViceTargetOptions {
  kind: 'vice' | 'builtin';
  /** called by close(): end the emulator we started (undefined when attached) */
  shutdown?: () => Promise<void>;
  /** lines the emulator logged (the built-in's monitor log) */
  logSource?: (listener: (text: string) => void) => void;
  /** the emulated machine's own messages (the built-in: device not present, KERNAL routines it lacks, JAM) */
  messageSource?: (listener: (text: string) => void) => void;
  /** live frames without the monitor (the built-in's frame clock); absent: a real VICE, where each frame costs a stop */
  frames?: PushedFrames;
}

/** A frame source beside the monitor connection (the built-in C64 in this process). */
export interface PushedFrames {
  readonly info: FrameSourceInfo;
  subscribe(request: FrameRequest, listener: FrameListener, running: boolean): () => void;
  /** a real stop: viewers get the frame as it stands */
  stopped(): void;
  /** the picture now, without stopping the machine */
  current(stale: boolean, source?: FrameSource): ScreenFrame;
}

/** A real VICE stops for every monitor command, so its frames while running come at a low rate the user chooses. */
export const VICE_FRAME_SOURCE: FrameSourceInfo = {
  mode: 'stop',
  maxFps: 5,
  cost: 'VICE stops for every monitor command: each frame while running halts it for one display read',
  rates: [0, 1, 2, 5],
};

export class ViceTarget implements Target {
  readonly info: TargetInfo;
  readonly features: TargetFeatures;
  readonly memory: TargetMemory = {
    read: (address, length) => this.vice.readBank(this.vice.bankId(address.bank), cpuStart(address), length),
    write: (address, data) => this.vice.writeBank(this.vice.bankId(address.bank), cpuStart(address), data),
    banks: async () => this.vice.info.banks.map((b) => ({ space: 'cpu', bank: b.name })),
  };
  readonly run: TargetRun = {
    registers: () => this.readRegisters(),
    writeRegister: (name, value) => this.writeRegister(name, value),
    resume: () => this.vice.resume(),
    pause: () => this.vice.pause(),
    stepInstruction: (count = 1) => this.vice.advance(count, false),
    stepOver: () => this.vice.advance(1, true),
    stepOut: () => this.vice.stepOut(),
    stepRange: (ranges, mode) => this.stepRange(ranges, mode),
  };
  readonly breakpoints: TargetBreakpoints = {
    set: async (address, condition) =>
      (await this.vice.addCheckpoint({ ...checkpoint(address, 1, OP_EXEC), condition })).number,
    clear: (id) => this.vice.deleteCheckpoint(id),
    language: 'vice',
  };
  readonly watch: TargetWatch = {
    set: async (spec) => {
      const op = spec.kind === 'read' ? 1 : spec.kind === 'write' ? 2 : 3;
      return (
        await this.vice.addCheckpoint({ ...checkpoint(spec.address, spec.length, op), condition: spec.condition })
      ).number;
    },
    clear: (id) => this.vice.deleteCheckpoint(id),
  };
  readonly screen: TargetScreen;
  /** reset, reload and snapshots: given by the launcher, which knows the program (vice-lifecycle.ts) */
  lifecycle?: TargetLifecycle;
  /** Strokes into the keyboard buffer (VICE's keyboard feed): the KERNAL takes them while the machine runs. */
  readonly input: TargetInput = {
    typeKeys: async (strokes) => {
      await this.vice.keyboardFeed(strokesToPetscii(strokes));
      return { typed: strokes.length, pending: !this.vice.runningForClients };
    },
  };

  private constructor(
    readonly vice: ViceConnection,
    readonly events: TargetEmitter,
    private readonly opts: ViceTargetOptions,
  ) {
    this.info = { kind: opts.kind, cpu: '6502', addressBits: 16, spaces: ['cpu'] };
    this.features = new TargetFeatures()
      .provide(VICE_FEATURE, vice)
      .provide(JOYSTICK_FEATURE, new ViceJoystick(vice))
      .provide(MOUSE_FEATURE, viceNoMouse)
      .provide(CPU_HISTORY_FEATURE, new ViceCpuHistory((count) => vice.cpuHistory(count), vice.connector));
    opts.logSource?.((text) => events.emit({ type: 'output', text }));
    opts.messageSource?.((text) => events.emit({ type: 'output', text, machine: true }));
    this.screen = opts.frames ? this.pushedScreen(opts.frames) : this.stoppingScreen();
  }

  /** A real VICE: each capture while running is a stop, timed, so the cost shown is the one measured. */
  private stoppingScreen(): TargetScreen {
    const cost = new StopCost();
    return {
      capture: (opts) =>
        this.vice.runningForClients
          ? cost.time(() => this.captureStopping(opts?.source))
          : this.captureStopping(opts?.source),
      get frameSource() {
        return { ...VICE_FRAME_SOURCE, measured: cost.measured() };
      },
    };
  }

  /** Through the monitor: stops a running machine for the read (unseen), as VICE must. */
  private async captureStopping(wanted?: FrameSource): Promise<ScreenImage> {
    if (wanted === 'memory-now' && this.opts.kind === 'vice')
      throw unsupported(
        "A memory-now capture on VICE: VICE returns only what its VIC-II has drawn (source 'raster-now'); memory-now is the built-in C64's.",
      );
    const wasRunning = this.vice.runningForClients;
    const shot = await this.vice.whileStopped(async () => visibleArea(await this.vice.capture()));
    // the built-in's display get answers its last completed frame; a real VICE's is its buffer as drawn so far
    return { ...shot, maybeStale: !wasRunning, source: this.opts.kind === 'builtin' ? 'last-frame' : 'raster-now' };
  }

  /** The built-in: frames from its frame clock, and a screenshot while running that stops nothing. */
  private pushedScreen(source: PushedFrames): TargetScreen {
    this.events.on((e) => {
      if (e.type === 'stopped') source.stopped();
    });
    return {
      capture: async (opts) =>
        this.vice.runningForClients || (opts?.source && opts.source !== 'last-frame')
          ? frameToImage(source.current(!this.vice.runningForClients, opts?.source))
          : this.captureStopping(),
      frames: (request, listener) => source.subscribe(request, listener, this.vice.runningForClients),
      frameSource: source.info,
    };
  }

  /** Handshake, then leave the machine stopped (the PING of the handshake stopped it). */
  static async open(client: MonitorClient, opts: ViceTargetOptions): Promise<ViceTarget> {
    const events = new TargetEmitter();
    return new ViceTarget(await ViceConnection.open(client, opts.kind, events), events, opts);
  }

  async status(): Promise<TargetStatus> {
    return this.vice.status();
  }

  async close(): Promise<void> {
    if (this.opts.shutdown) await this.opts.shutdown().catch(() => undefined);
    this.vice.disconnect();
  }

  private async readRegisters(): Promise<Register[]> {
    return this.vice.readRegisters();
  }

  private async writeRegister(name: string, value: number): Promise<void> {
    const reg = this.vice.info.registers.find((r) => r.name.toUpperCase() === name.toUpperCase());
    if (!reg)
      throw notFound(
        `${peerName(this.vice.connector)}'s main CPU has no register ${name}; it has ${this.vice.info.registers.map((r) => r.name).join(', ')}.`,
      );
    if (value < 0 || value >= 2 ** reg.bits)
      throw badRequest(`${value} does not fit the ${reg.bits}-bit register ${reg.name}.`);
    await this.vice.setRegisters([{ id: reg.id, value }]);
  }

  private stepRange(ranges: AddressRange[], mode: 'into' | 'over'): Promise<void> {
    const sp = this.vice.cachedRegister(REG_SP) ?? 0xff;
    const gaps = complement(ranges, mode === 'into' ? ROM_START - 1 : 0xffff);
    return this.vice.runWithStepCheckpoints(
      gaps.map(([start, end]) => ({
        start,
        end,
        op: OP_EXEC,
        stop: true,
        enabled: true,
        temporary: false,
        condition: mode === 'over' ? `SP >= $${sp.toString(16)}` : undefined,
      })),
    );
  }
}

function checkpoint(address: Address, length: number, op: number) {
  const start = cpuStart(address);
  checkRange(start, length);
  return { start, end: start + length - 1, op, stop: true, enabled: true, temporary: false };
}

function cpuStart(address: Address): number {
  if (address.space !== 'cpu')
    throw badAddress(`VICE memory is addressed in the 'cpu' space with a bank; '${address.space}' is not available.`, {
      space: address.space,
    });
  return address.offset;
}

/** The addresses of [0, top] not in any of `ranges`, as inclusive [start, end] pairs. */
export function complement(ranges: AddressRange[], top: number): AddressRange[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: AddressRange[] = [];
  let next = 0;
  for (const [s, e] of sorted) {
    if (s > next) out.push([next, Math.min(s - 1, top)]);
    next = Math.max(next, e + 1);
    if (next > top) break;
  }
  if (next <= top) out.push([next, top]);
  return out.filter(([s, e]) => s <= e);
}
