/**
 * A DOS guest as a Target. There is no CPU debugger behind it: the machine is
 * always 'running', run control and registers fail with 'unsupported', memory
 * is guest physical ('cpu', 20-bit) or the VGA buffer ('vram'), and the
 * screen is decoded from video memory. The 'dos' feature gives the rest.
 */
import { RetroError } from '../../core/errors.js';
import type {
  Address,
  Register,
  ScreenImage,
  Target,
  TargetCapabilities,
  TargetEvent,
  TargetListener,
  TargetStatus,
} from '../../core/target.js';
import { indicesToRgba } from '../../machines/dos/palette.js';
import type { DosMachine } from './dos-machine.js';

const NO_DEBUGGER =
  'A DOS guest in DOSBox has no CPU debugger here: it always runs. Use the dos tools (memory, screen, keys, traces) instead';

export class DosboxTarget implements Target {
  readonly kind = 'dosbox';
  readonly capabilities: TargetCapabilities = {
    cpu: 'x86',
    addressBits: 20,
    spaces: ['cpu', 'vram'],
    screen: true,
    stepOverOut: false,
    nativeStepRange: false,
    runControl: false,
  };
  private readonly listeners = new Set<TargetListener>();
  private readonly watchdog: NodeJS.Timeout;
  private gone = false;

  constructor(
    readonly machine: DosMachine,
    private readonly shutdown: () => Promise<void>,
  ) {
    this.watchdog = setInterval(() => {
      const host = machine.guest.host;
      if (!this.gone && !host.alive())
        this.lost(`${machine.backend.description} exited${host.lostReason?.() ? `: ${host.lostReason()}` : ''}`);
    }, 300);
    this.watchdog.unref();
  }

  onEvent(listener: TargetListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async status(): Promise<TargetStatus> {
    return { state: this.gone || !this.machine.guest.host.alive() ? 'exited' : 'running' };
  }

  async readRegisters(): Promise<Register[]> {
    throw this.unsupported('CPU registers');
  }
  async writeRegister(): Promise<void> {
    throw this.unsupported('Writing registers');
  }
  async setBreakpoint(): Promise<number> {
    throw this.unsupported('Breakpoints');
  }
  async clearBreakpoint(): Promise<void> {
    throw this.unsupported('Breakpoints');
  }
  async resume(): Promise<void> {
    throw this.unsupported('Resume');
  }
  async pause(): Promise<void> {
    throw this.unsupported('Pause');
  }
  async stepInstruction(): Promise<void> {
    throw this.unsupported('Stepping');
  }
  async stepOver(): Promise<void> {
    throw this.unsupported('Stepping');
  }
  async stepOut(): Promise<void> {
    throw this.unsupported('Stepping');
  }
  async stepRange(): Promise<void> {
    throw this.unsupported('Stepping');
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

  /** Any decodable mode from video memory (the confirmed layout, else a blind start-0 read); else the wasm renderer. */
  async screenshot(): Promise<ScreenImage> {
    const screen = await this.machine.screen();
    try {
      const frame = await screen.frame({ allowUnconfirmed: true });
      const { palette } = await this.machine.framePalette(frame);
      return {
        width: frame.width,
        height: frame.height,
        rgba: indicesToRgba(frame.indices, palette),
        maybeStale: false,
      };
    } catch (err) {
      if (!this.machine.backend.emulatorScreenshot) throw err;
      return { ...(await this.machine.backend.emulatorScreenshot()), maybeStale: false };
    }
  }

  feature(name: string): unknown {
    return name === 'dos' ? this.machine : undefined;
  }

  async close(): Promise<void> {
    clearInterval(this.watchdog);
    this.gone = true;
    await this.shutdown();
  }

  private lost(reason: string): void {
    this.gone = true;
    clearInterval(this.watchdog);
    this.emit({ type: 'exited', reason });
  }

  private emit(e: TargetEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch {
        /* listener bugs stay theirs */
      }
    }
  }

  private requireCpu(address: Address): void {
    if (address.space !== 'cpu')
      throw new RetroError(
        'bad_address',
        `A DOS guest has spaces "cpu" (guest physical memory) and "vram" (the VGA buffer), not "${address.space}".`,
      );
  }

  private unsupported(what: string): RetroError {
    return new RetroError('unsupported', `${what}: ${NO_DEBUGGER}.`);
  }
}
