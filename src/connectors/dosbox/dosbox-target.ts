/**
 * A DOS guest as a Target. There is no CPU debugger behind it: the machine is
 * always 'running' and has no run, breakpoint or watch facets, memory
 * is guest physical ('cpu', 20-bit) or the VGA buffer ('vram'), and the
 * screen is decoded from video memory. The 'dos' feature gives the rest.
 */
import { badAddress } from '../../core/errors.js';
import {
  TargetEmitter,
  TargetFeatures,
  featureKey,
  type Address,
  type ScreenImage,
  type Target,
  type TargetInfo,
  type TargetInput,
  type TargetMemory,
  type TargetScreen,
  type TargetStatus,
} from '../../core/target.js';
import { indexedToRgba } from '../../core/frames.js';
import { DOS_FRAME_SOURCE, DosFrames, type DecodedScreen } from './dos-frames.js';
import type { DosMachine } from './dos-machine.js';
import { typeKeys } from './input.js';
import { DosMouse } from './dos-mouse.js';
import { MOUSE_FEATURE } from '../../core/input-devices.js';
import { strokeWord } from '../../machines/dos/keys.js';

const NO_DEBUGGER =
  'A DOS guest in DOSBox has no CPU debugger here: it always runs. Use the dos tools (memory, screen, keys, traces) instead.';

/** The 'dos' feature: discovery results, guest memory with profile symbols, screen, input, traces. */
export const DOS_FEATURE = featureKey<DosMachine>('dos');

export class DosboxTarget implements Target {
  readonly info: TargetInfo = {
    kind: 'dosbox',
    cpu: 'x86',
    addressBits: 20,
    spaces: ['cpu', 'vram'],
    missing: {
      run: `Run control and CPU registers: ${NO_DEBUGGER}`,
      breakpoints: `Breakpoints: ${NO_DEBUGGER}`,
      watch: `Watchpoints: ${NO_DEBUGGER}`,
      lifecycle:
        'Reset, reload and snapshots: DOSBox offers no reset or save state to a program driving it; stop_session and start it again instead.',
    },
  };
  readonly events = new TargetEmitter();
  readonly memory: TargetMemory = {
    read: (address, length) => this.readMemory(address, length),
    write: (address, data) => this.writeMemory(address, data),
  };
  readonly screen: TargetScreen;
  /** Strokes into the BIOS keyboard ring, as INT 9 would put them; the guest takes them as it runs. */
  readonly input: TargetInput = {
    typeKeys: async (strokes) => {
      const words = strokes.map(strokeWord);
      const r = await typeKeys(this.machine.guest, words, { timeoutMs: 3000, drainMs: 500 });
      return { typed: r.typed, pending: !r.consumed, note: r.warnings.join(' ') || undefined };
    },
  };
  readonly features: TargetFeatures;
  private readonly watchdog: NodeJS.Timeout;
  private gone = false;

  constructor(
    readonly machine: DosMachine,
    private readonly shutdown: () => Promise<void>,
  ) {
    this.features = new TargetFeatures().provide(DOS_FEATURE, machine).provide(MOUSE_FEATURE, new DosMouse(machine));
    const frames = new DosFrames(
      () => this.decoded(),
      () => !this.gone && machine.guest.host.alive(),
    );
    this.screen = {
      capture: () => this.screenshot(),
      frames: (request, listener) => frames.subscribe(request, listener),
      frameSource: DOS_FRAME_SOURCE,
    };
    this.watchdog = setInterval(() => {
      const host = machine.guest.host;
      if (!this.gone && !host.alive())
        this.lost(`${machine.backend.description} exited${host.lostReason?.() ? `: ${host.lostReason()}` : ''}`);
    }, 300);
    this.watchdog.unref();
  }

  async status(): Promise<TargetStatus> {
    return { state: this.gone || !this.machine.guest.host.alive() ? 'exited' : 'running' };
  }

  async readMemory(address: Address, length: number): Promise<Uint8Array> {
    if (address.space === 'vram') return (await this.machine.screen()).readBuffer(address.offset, length);
    this.requireCpu(address);
    return this.machine.guest.read(address.offset, length);
  }

  async writeMemory(address: Address, data: Uint8Array): Promise<void> {
    if (address.space === 'vram') return (await this.machine.screen()).writeBuffer(address.offset, data);
    this.requireCpu(address);
    await this.machine.guest.write(address.offset, data);
  }

  /** The screen decoded from video memory (the confirmed layout, else a blind start-0 read) with its palette. */
  private async decoded(): Promise<DecodedScreen> {
    const frame = await (await this.machine.screen()).frame({ allowUnconfirmed: true });
    const { palette } = await this.machine.framePalette(frame);
    return { width: frame.width, height: frame.height, indices: frame.indices, palette };
  }

  /** Any decodable mode from video memory; else the wasm renderer. */
  async screenshot(): Promise<ScreenImage> {
    await this.machine.screen();
    try {
      const d = await this.decoded();
      return { width: d.width, height: d.height, rgba: indexedToRgba(d.indices, d.palette), maybeStale: false };
    } catch (err) {
      if (!this.machine.backend.emulatorScreenshot) throw err;
      return { ...(await this.machine.backend.emulatorScreenshot()), maybeStale: false };
    }
  }

  async close(): Promise<void> {
    clearInterval(this.watchdog);
    this.gone = true;
    await this.shutdown();
  }

  private lost(reason: string): void {
    this.gone = true;
    clearInterval(this.watchdog);
    this.events.emit({ type: 'exited', reason });
  }

  private requireCpu(address: Address): void {
    if (address.space !== 'cpu')
      throw badAddress(
        `A DOS guest has spaces "cpu" (guest physical memory) and "vram" (the VGA buffer), not "${address.space}".`,
      );
  }
}
