/** The Target for MAME, through the mamebridge Lua plugin: run control, registers, memory, breakpoints, screen. */
import { RetroError, badRequest, tooLarge, internalError, launchFailed, timedOut } from '../../core/errors.js';
import type { LaunchConfig } from '../../core/launch.js';
import {
  TargetEmitter,
  TargetFeatures,
  type Address,
  type AddressRange,
  type Register,
  type ScreenImage,
  type StopInfo,
  type Target,
  type TargetBreakpoints,
  type TargetInfo,
  type TargetListener,
  type TargetMemory,
  type TargetRun,
  type TargetInput,
  type TargetScreen,
  type TargetStatus,
  type TypedKeys,
  type TargetWatch,
  type RunState,
  type WatchSpec,
} from '../../core/target.js';
import { BridgeClient, type BridgeEvent, type BridgeReply } from './bridge-client.js';
import type { BridgeArgs, InputStep, RunControlOp } from './bridge-ops.js';
import { prepareMameLaunch, spawnMame, type MameProcess } from './launcher.js';
import { bridgeLoad } from './bridge-load.js';
import { orderRegisters, reportedRegisters } from './registers.js';
import { MAME_RAW_FEATURE, MameRawFeature } from './mame-raw.js';
import { bankedCondition, pagedMemory } from './bank-pages.js';
import { cpuOffset, cpuTranslation, watchSpace } from './watch-space.js';
import { MameMouse } from './mame-mouse.js';
import { MOUSE_FEATURE } from '../../core/input-devices.js';
import { MameDisassembler } from './mame-disassembler.js';
import { MameLifecycle } from './mame-lifecycle.js';
import { DISASSEMBLER_FEATURE } from '../../core/disassembly.js';
import { keySteps, strokeFields } from './mame-keys.js';
import type { KeyStroke } from '../../core/keys.js';
import { MAX_TRANSFER } from '../../core/limits.js';
import { checkMounted, mediaLoadFailure } from './media-check.js';
import { unknownSystemMessage } from './unknown-system.js';
import { MAME_FRAME_SOURCE, MameFrames } from './mame-frames.js';
import { screenPixels } from './mame-pixels.js';
import { num, StopTraps, toStopInfo } from './bridge-stops.js';
import { bridgeSpace, checkInteger } from './bridge-space.js';
import { TIME_TRAVEL_FEATURE } from '../../core/time-travel.js';
import { noPastPicture, type MameTimeTravel } from './history/mame-travel.js';
import { makeMameHistory } from './history/make-history.js';
import { QuietRuns } from './history/quiet-runs.js';

const START_TIMEOUT_MS = 60_000;
const EXIT_OP_TIMEOUT_MS = 2_000;
/** Stepping over a long call or a long range takes emulated time: allow for it. */
const RUN_CONTROL_TIMEOUT_MS = 15_000;

export interface BreakpointInfo {
  id: number;
  address: Address;
  condition: string;
}

export class MameTarget implements Target {
  readonly kind = 'mame';
  readonly info: TargetInfo;
  readonly events = new TargetEmitter();
  readonly features: TargetFeatures;
  readonly loadedProgram: MameProcess['launch']['loadedProgram'];
  readonly memory: TargetMemory = {
    read: (address, length) => this.readMemory(address, length),
    write: (address, data) => this.writeMemory(address, data),
    banks: async () =>
      (await this.raw.listShares()).shares.map((s) => ({
        space: 'share',
        bank: s.tag,
        note: `${s.kind}, ${s.size} bytes`,
      })),
  };
  readonly run: TargetRun = {
    registers: () => this.readRegisters(),
    writeRegister: (name, value) => this.writeRegister(name, value),
    resume: () => this.resume(),
    pause: () => this.pause(),
    stepInstruction: (count) => this.stepInstruction(count),
    stepOver: () => this.stepOver(),
    stepOut: () => this.stepOut(),
    stepRange: (ranges, mode) => this.stepRange(ranges, mode),
  };
  readonly breakpoints: TargetBreakpoints = {
    set: (address, condition) => this.setBreakpoint(address, condition),
    clear: (id) => this.clearBreakpoint(id),
    language: 'mame',
  };
  readonly watch: TargetWatch = {
    set: (spec) => this.setWatchpoint(spec),
    clear: (id) => this.clearWatchpoint(id),
  };
  readonly screen: TargetScreen;
  readonly lifecycle: MameLifecycle;
  /** Strokes on the machine's key fields, frame-paced; while stopped they wait for it to run. */
  readonly input: TargetInput = { typeKeys: (strokes) => this.typeKeys(strokes) };
  private state: RunState = 'stopped';
  private stopRegisters?: Register[]; // the last stop's (no round trip at a hit), until an op may change them
  /** key sequences typed while stopped, queued on the next resume */
  private readonly keysOnResume: InputStep[][] = [];
  private lastStop?: StopInfo;
  /** per MAME watchpoint id: its space address minus the address it was set at */
  private readonly watchShift = new Map<number, number>();
  private closing?: Promise<void>;
  private readonly traps = new StopTraps();
  /** time travel's history (Z80 machines) */
  private readonly history?: MameTimeTravel;
  /** time travel's replays: their stops do not reach the session */
  private readonly quiet: QuietRuns;
  private readonly raw: MameRawFeature;

  constructor(
    private readonly bridge: BridgeClient,
    private readonly proc: MameProcess,
    hello: Record<string, unknown>,
    initialStop: StopInfo,
    private readonly machine = 'unknown',
    opts: { throttle?: boolean; history?: LaunchConfig['history']; entryRegisters?: Record<string, number> } = {},
  ) {
    this.lastStop = initialStop;
    this.quiet = new QuietRuns(bridge);
    this.loadedProgram = proc.launch.loadedProgram;
    const frames = new MameFrames(bridge, {
      throttle: opts.throttle === true,
      running: () => this.state === 'running',
      screenshot: () => this.screenshot(),
      slotsDir: proc.launch.runDir,
    });
    this.events.on((e) => {
      if (e.type === 'stopped') frames.stopped();
    });
    this.screen = {
      capture: () => this.screenshot(),
      frames: (request, listener) => frames.subscribe(request, listener),
      frameSource: MAME_FRAME_SOURCE,
    };
    const raw = (this.raw = new MameRawFeature(bridge, machine));
    const format = `mame/${String(hello.mame ?? 'unknown')}/${machine}`;
    const load = proc.launch.bridgeLoad;
    const reload = load && (() => bridgeLoad(this, load.exe, load.options));
    this.lifecycle = new MameLifecycle(raw, this.events, () => this.resume(), proc.launch.runDir, format, reload);
    this.features = new TargetFeatures()
      .provide(MAME_RAW_FEATURE, raw)
      .provide(DISASSEMBLER_FEATURE, new MameDisassembler(raw))
      .provide(MOUSE_FEATURE, new MameMouse(raw));
    // Z80s (the Spectrum's z80, the Sprinter's z84c015): the history knows their registers
    if (typeof hello.cpu_type === 'string' && /^z8[04]/.test(hello.cpu_type)) {
      const entry = { pc: initialStop.pc, registers: opts.entryRegisters ?? {} };
      const parts = { raw, quiet: this.quiet, hello, runDir: proc.launch.runDir, entry };
      this.history = makeMameHistory(this, parts, opts.history ?? {});
      this.features.provide(TIME_TRAVEL_FEATURE, this.history);
      this.lifecycle.onStateLoaded = () => this.history?.forget();
    }
    const programBits = typeof hello.program_mask === 'number' ? Math.ceil(Math.log2(hello.program_mask + 1)) : 16;
    this.info = {
      kind: 'mame',
      cpu: typeof hello.cpu_type === 'string' ? hello.cpu_type : 'unknown',
      addressBits: 16,
      spaces: ['cpu', 'program', 'io', 'vram', 'share'],
      spaceBits: { program: programBits },
    };
    bridge.onEvent((e) => this.onBridgeEvent(e));
    bridge.onMutating = () => (this.stopRegisters = undefined);
    void proc.exited.then((info) => {
      const reason = `MAME exited (code ${info.code ?? 'none'}${info.signal ? `, signal ${info.signal}` : ''}).`;
      this.bridge.markLost(reason);
      this.state = 'exited';
      this.events.emit({ type: 'exited', code: info.code ?? undefined, reason });
    });
  }

  isRunning(): boolean {
    return this.state === 'running';
  }

  /** MAME's process id (for measurements). */
  get pid(): number | undefined {
    return this.proc.pid;
  }

  onEvent(listener: TargetListener): () => void {
    return this.events.on(listener);
  }

  private async typeKeys(strokes: readonly KeyStroke[]): Promise<TypedKeys> {
    const raw = this.features.get(MAME_RAW_FEATURE)!;
    const steps = keySteps(await strokeFields(raw, strokes));
    if (this.state !== 'running') {
      this.keysOnResume.push(steps);
      return { typed: strokes.length, pending: true, note: 'typed once the machine is resumed' };
    }
    this.history?.typed();
    const { done } = await raw.enqueueInput(steps);
    const how = await done;
    return {
      typed: strokes.length,
      pending: false,
      note: how === 'cut' ? 'cut short (a stop or a release)' : undefined,
    };
  }

  async status(): Promise<TargetStatus> {
    if (this.state === 'exited') return { state: 'exited', lastStop: this.lastStop };
    const { result } = await this.bridge.request('status');
    return {
      state: result.state === 'stopped' ? 'stopped' : 'running',
      pc: num(result.pc),
      frame: num(result.frame),
      time: num(result.time),
      lastStop: this.lastStop,
    };
  }

  async readRegisters(): Promise<Register[]> {
    if (this.stopRegisters && this.state === 'stopped') return this.stopRegisters.map((r) => ({ ...r }));
    const { result } = await this.bridge.request('read_registers');
    return orderRegisters(this.info.cpu, result.registers);
  }

  async writeRegister(name: string, value: number): Promise<void> {
    if (typeof name !== 'string' || !name) throw badRequest('A register name is needed.');
    checkInteger(value, 'The register value');
    await this.bridge.request('write_register', { name, value });
  }

  async readMemory(address: Address, length: number): Promise<Uint8Array> {
    checkInteger(length, 'The length');
    if (length > MAX_TRANSFER) {
      throw tooLarge(`Reading ${length} bytes at once is more than the ${MAX_TRANSFER}-byte limit; read in pieces.`);
    }
    const { binary } = await this.bridge.request('read_memory', {
      ...bridgeSpace(pagedMemory(this.machine, address, length)),
      length,
    });
    const data = binary ?? Buffer.alloc(0);
    if (data.length !== length) throw internalError(`MAME returned ${data.length} bytes for a ${length}-byte read.`);
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }

  async writeMemory(address: Address, data: Uint8Array): Promise<void> {
    if (!(data instanceof Uint8Array)) throw badRequest('Memory data must be bytes.');
    if (data.length > MAX_TRANSFER) {
      throw tooLarge(`Writing ${data.length} bytes at once is more than the ${MAX_TRANSFER}-byte limit.`);
    }
    await this.bridge.request('write_memory', bridgeSpace(pagedMemory(this.machine, address, data.length)), {
      binary: data,
    });
  }

  async setBreakpoint(address: Address, condition?: string): Promise<number> {
    const offset = cpuOffset(address, 'Breakpoints');
    const when = bankedCondition(this.machine, offset, address.bank, condition);
    const { result } = await this.bridge.request('set_breakpoint', { address: offset, condition: when });
    return result.id;
  }

  /** A stop at `address` becomes an 'exception' stop saying `why` (from the registers at the stop). */
  async trap(address: number, why: (registers: Register[]) => string): Promise<void> {
    // a hard reset keeps the bridge's breakpoints, the trap among them
    if (!this.traps.at(address))
      this.traps.add(await this.setBreakpoint({ space: 'cpu', offset: address }), address, why);
  }

  async clearBreakpoint(id: number): Promise<void> {
    checkInteger(id, 'The breakpoint id');
    await this.bridge.request('clear_breakpoint', { id });
  }

  async listBreakpoints(): Promise<BreakpointInfo[]> {
    const { result } = await this.bridge.request('list_breakpoints');
    return result.breakpoints.map((b) => ({
      id: b.id,
      address: { space: 'cpu', offset: b.address },
      condition: b.condition,
    }));
  }

  async setWatchpoint(spec: WatchSpec): Promise<number> {
    const type = ({ read: 'r', write: 'w', readwrite: 'rw' } as const)[spec.kind];
    if (!type) throw badRequest(`A watchpoint kind is read, write or readwrite, not "${String(spec.kind)}".`);
    checkInteger(spec.length, 'The watchpoint length');
    const where = watchSpace(spec.address, await cpuTranslation(this.machine, () => this.readRegisters()));
    const { result } = await this.bridge.request('set_watchpoint', {
      ...where,
      type,
      length: spec.length,
      condition: spec.condition ?? '1',
    });
    // its hits name the address as given: a translated CPU address back in the CPU's view
    this.watchShift.set(result.id, where.address - spec.address.offset);
    return result.id;
  }

  async clearWatchpoint(id: number): Promise<void> {
    checkInteger(id, 'The watchpoint id');
    await this.bridge.request('clear_watchpoint', { id });
    this.watchShift.delete(id);
  }

  async resume(): Promise<void> {
    await this.runControl('resume', {});
    // keys typed while stopped: MAME presses fields only while frames run
    const queued = this.keysOnResume.splice(0);
    if (queued.length) this.history?.typed();
    const raw = this.features.get(MAME_RAW_FEATURE)!;
    for (const steps of queued) await raw.enqueueInput(steps).catch(() => undefined);
  }

  async pause(): Promise<void> {
    await this.bridge.request('pause');
  }

  async stepInstruction(count = 1): Promise<void> {
    checkInteger(count, 'The step count');
    if (count < 1) throw badRequest('The step count must be at least 1.');
    return this.runControl('step', { count });
  }

  stepOver(): Promise<void> {
    return this.runControl('step_over', {});
  }

  stepOut(): Promise<void> {
    return this.runControl('step_out', {});
  }

  /** `maxSteps` bounds the instructions stepped; at the bound it stops with reason 'step' anyway. */
  async stepRange(ranges: AddressRange[], mode: 'into' | 'over', maxSteps = 1_000_000): Promise<void> {
    if (!Array.isArray(ranges) || ranges.length === 0) throw badRequest('stepRange needs at least one range.');
    for (const r of ranges) {
      if (
        !Array.isArray(r) ||
        r.length !== 2 ||
        !Number.isInteger(r[0]) ||
        !Number.isInteger(r[1]) ||
        r[0] > r[1] ||
        r[0] < 0 ||
        r[1] > 0xffff
      ) {
        throw badRequest(`The range ${JSON.stringify(r)} is not [first, last] inside 0..0xFFFF.`);
      }
    }
    if (mode !== 'into' && mode !== 'over') throw badRequest('The step mode must be "into" or "over".');
    return this.runControl('step_range', { ranges, mode, max: maxSteps });
  }

  /** The screen of the machine's moment: in the past, as the history redrew it or kept it (refused where neither). */
  async screenshot(): Promise<ScreenImage> {
    const picture = this.history ? this.history.picture() : 'live';
    if (!picture) throw noPastPicture();
    return screenPixels(this.bridge, this.state === 'stopped', picture === 'kept');
  }

  /** MAME keeps its screen as it stands (time travel leaving the present), for a screenshot there later. */
  async keepScreen(): Promise<void> {
    await this.bridge.request('screen_keep');
  }

  /** Echo round trip (the benchmark floor). */
  async echo(): Promise<void> {
    await this.bridge.request('echo');
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.proc.stop(() => this.bridge.request('exit', {}, { timeoutMs: EXIT_OP_TIMEOUT_MS }));
      this.bridge.close();
    })();
    return this.closing;
  }

  private async runControl<K extends RunControlOp>(op: K, args: BridgeArgs<K>): Promise<void> {
    // time travel's state, saved by the same op (no round trip of its own, and nothing between a pause and this)
    const record = this.history?.beforeRun() ?? {};
    await this.bridge.request(op, { ...args, ...record } as BridgeArgs<K>, {
      timeoutMs: RUN_CONTROL_TIMEOUT_MS,
      // Synchronously, so 'running' cannot overtake a 'stopped' that follows in the same chunk.
      onReply: (reply) => {
        this.history?.ran(reply.result);
        this.state = 'running';
        this.events.emit({ type: 'running' });
      },
    });
  }

  private onBridgeEvent(e: BridgeEvent): void {
    if (e.event === 'stopped') {
      const stop = toStopInfo(e);
      const registers = (e.registers ?? {}) as Record<string, number>;
      if (stop.access && stop.watchpointId !== undefined)
        stop.access.address -= this.watchShift.get(stop.watchpointId) ?? 0;
      if (this.quiet.take(stop, registers, num(e.cycles))) {
        this.state = 'stopped';
        this.stopRegisters = reportedRegisters(this.info.cpu, e.registers);
        return;
      }
      this.state = 'stopped';
      this.stopRegisters = reportedRegisters(this.info.cpu, e.registers);
      this.traps.apply(stop, this.stopRegisters);
      this.lastStop = stop;
      this.history?.stopped(stop, registers, num(e.cycles));
      this.events.emit({ type: 'stopped', stop });
    } else if (e.event === 'machine_start') {
      this.history?.forget();
      this.events.emit({ type: 'reset', hard: e.hard_reset === true });
    } else if (e.event === 'bridge_error') {
      this.events.emit({ type: 'output', text: `MAME bridge: ${String(e.message)}\n` });
    }
  }
}

/**
 * Starts MAME with the bridge and resolves once the CPU is held at entry
 * (state 'stopped', reason 'entry', PC 0).
 */
export async function launchMameTarget(
  config: LaunchConfig,
  opts: { workDir: string; onProgress?: (message: string) => void },
): Promise<MameTarget> {
  const progress = opts.onProgress ?? (() => {});
  if (config.emulator !== undefined && config.emulator !== 'mame') {
    throw launchFailed(`launchMameTarget cannot start the emulator "${String(config.emulator)}".`);
  }
  if (typeof config.machine !== 'string' || !/^[a-z0-9_]+$/.test(config.machine)) {
    throw launchFailed(`"${String(config.machine)}" is not a MAME machine name.`);
  }
  const bridge = await BridgeClient.listen();
  let proc: MameProcess | undefined;
  const stops: StopInfo[] = [];
  let entryRegisters: Record<string, number> = {};
  bridge.onEvent((e) => {
    if (e.event !== 'stopped') return;
    stops.push(toStopInfo(e));
    entryRegisters = (e.registers ?? {}) as Record<string, number>;
  });
  let hello: Record<string, unknown> | undefined;
  bridge.onEvent((e) => {
    if (e.event === 'hello') hello = e;
  });
  try {
    const launch = await prepareMameLaunch(config, opts.workDir, bridge);
    progress(`starting MAME (${launch.mamePath} ${config.machine})`);
    proc = spawnMame(launch);
    bridge.setDoorbell(() => proc!.ringDoorbell());
    const started = proc;
    const died = started.exited.then((info) => {
      const tail = started.outputTail();
      const unknown = unknownSystemMessage(tail) ?? mediaLoadFailure(tail, launch.media);
      if (unknown) throw launchFailed(unknown, { output: tail });
      const why = `MAME exited during start-up (code ${info.code ?? 'none'}${info.signal ? `, signal ${info.signal}` : ''})`;
      throw launchFailed(tail ? `${why}. Its last output:\n${tail}` : `${why}.`, { output: tail });
    });
    died.catch(() => {});
    await Promise.race([bridge.waitForConnection(START_TIMEOUT_MS), died]);
    progress('bridge connected');
    const reply: BridgeReply = await Promise.race([bridge.request('hello', { token: bridge.token }), died]);
    await Promise.race([waitFor(() => stops.length > 0, START_TIMEOUT_MS), died]);
    const entry = stops[stops.length - 1];
    if (launch.media.length)
      checkMounted(launch.media, (await bridge.request('list_media')).result.images, config.machine);
    progress(`CPU held at entry, PC=0x${entry.pc.toString(16).padStart(4, '0')}`);
    const options = { throttle: config.throttle, history: config.history, entryRegisters };
    const target = new MameTarget(bridge, started, { ...hello, ...reply.result }, entry, config.machine, options);
    if (launch.bridgeLoad) {
      progress('booting the BIOS to load the program (bridgeLoad)');
      await bridgeLoad(target, launch.bridgeLoad.exe, launch.bridgeLoad.options);
    }
    return target;
  } catch (err) {
    bridge.close();
    if (proc) await proc.stop(async () => {});
    if (err instanceof RetroError && err.code === 'timeout') {
      const tail = proc?.outputTail();
      throw launchFailed(`${err.message}${tail ? ` MAME's last output:\n${tail}` : ''}`);
    }
    throw err;
  }
}

function waitFor(cond: () => boolean, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      if (cond()) return resolve();
      if (Date.now() - started > timeoutMs) {
        return reject(timedOut(`MAME did not stop at entry within ${timeoutMs / 1000} s.`));
      }
      setTimeout(tick, 5);
    };
    tick();
  });
}
