/**
 * The Target contract: the vocabulary every layer shares (addresses, stops,
 * registers, screens) and the capability facets a connector implements.
 */
import type { Rgb } from './indexed-png.js';
import type { KeyStroke } from './keys.js';

/** Address spaces. `cpu` is the CPU's logical view (what the program sees). */
export type Space = 'cpu' | 'program' | 'data' | 'io' | 'vram' | 'share';

/** Never a bare number across a layer boundary. */
export interface Address {
  space: Space;
  /** bank/page number, or a share/region tag for space 'share' */
  bank?: number | string;
  offset: number;
}

export type RunState = 'starting' | 'running' | 'stopped' | 'exited';

export type StopReason = 'entry' | 'breakpoint' | 'watchpoint' | 'step' | 'pause' | 'goto' | 'exception' | 'unknown';

export interface StopInfo {
  reason: StopReason;
  pc: number;
  /** target-level breakpoint/watchpoint id that fired, when known */
  breakpointId?: number;
  watchpointId?: number;
  /** emulator console lines that came with the stop */
  log?: string[];
  /** for a watchpoint stop: the access that fired it (pc = the accessing instruction; `pc` above is the next one) */
  access?: WatchAccess;
  /** on machines with memory windows (the Sprinter): the RAM page each window showed at the stop */
  pages?: Record<string, number>;
  /** a stop at a recorded moment of the past (time travel): the machine shows that moment, the present is later */
  inPast?: boolean;
  /** in the past: the frame shown and the present's frame (the machine's frame counts) */
  pastFrame?: { frame: number; present: number };
  /** for an 'exception' stop: what happened, in words */
  why?: string;
}

export type WatchKind = 'read' | 'write' | 'readwrite';

export interface WatchAccess {
  kind: string;
  address: number;
  value: number;
  pc: number;
}

/** A data watchpoint: stop when `length` bytes at `address` are read and/or written. */
export interface WatchSpec {
  address: Address;
  length: number;
  kind: WatchKind;
  condition?: string;
}

export interface Register {
  name: string;
  value: number;
  /** width in bits */
  bits: number;
}

export interface TargetStatus {
  state: RunState;
  pc?: number;
  frame?: number;
  /** emulated time in seconds, when the emulator reports it */
  time?: number;
  lastStop?: StopInfo;
}

/**
 * Which picture a capture is: the frame the raster completed last (the
 * built-in's default), the video buffer as drawn up to the raster so far
 * (rows below it from the frame before: what a real VICE's monitor returns),
 * or video memory drawn as it is now (the built-in only).
 */
export type FrameSource = 'last-frame' | 'raster-now' | 'memory-now';

export interface ScreenImage {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel, row-major */
  rgba: Buffer;
  frame?: number;
  /** which picture this is, when the target can tell */
  source?: FrameSource;
  /** true when the CPU is stopped, so the frame may predate the current state */
  maybeStale: boolean;
  /** a frame taken this long ago, given again instead of another stop (a source whose frames halt the machine) */
  ageMs?: number;
}

export type TargetEvent =
  | { type: 'stopped'; stop: StopInfo }
  | { type: 'running' }
  | { type: 'exited'; code?: number; reason: string }
  | { type: 'reset'; hard: boolean }
  /** `machine`: the emulated machine's own message (device not present, a JAM), which agents are told of too */
  | { type: 'output'; text: string; machine?: boolean };

export type TargetListener = (event: TargetEvent) => void;

/** [first, last] inclusive CPU address range */
export type AddressRange = [number, number];

/** The facets a target may leave out; the session refuses their use once, with 'unsupported' and the reason. */
export type FacetName = 'run' | 'breakpoints' | 'watch' | 'screen' | 'input' | 'lifecycle';

/** What a target is: static facts the session checks requests against. */
export interface TargetInfo {
  /** the connector kind, e.g. 'mame', 'vice', 'builtin', 'dosbox' */
  readonly kind: string;
  /** CPU family, e.g. 'z80', '6502', 'x86' */
  readonly cpu: string;
  readonly addressBits: number;
  readonly spaces: readonly Space[];
  /** address bits of spaces that differ from addressBits (e.g. an 18-bit raw program space) */
  readonly spaceBits?: Partial<Record<Space, number>>;
  /** why each facet this target leaves out is missing (the text of the session's 'unsupported' error) */
  readonly missing?: Partial<Record<FacetName, string>>;
}

export interface TargetMemory {
  /** Side-effect free read (no watchpoints, no I/O handlers). */
  read(address: Address, length: number): Promise<Uint8Array>;
  /** Write and return; callers verify by reading back. */
  write(address: Address, data: Uint8Array): Promise<void>;
  /** the banks and tags its spaces are read through, for a memory view's picker (absent: the spaces alone) */
  banks?(): Promise<SpaceBank[]>;
}

/** A named part of a space: a bank of the CPU's view (VICE's ram, rom, io), a MAME share or region. */
export interface SpaceBank {
  space: Space;
  bank: string | number;
  /** a few words: its size, what it is */
  note?: string;
}

export interface TargetEvents {
  on(listener: TargetListener): () => void;
}

/**
 * A CPU debugger: registers and run control. Each run call returns once the
 * emulator accepted the command; the resulting stop arrives as a 'stopped'
 * event. Without this facet the machine always runs (a DOS guest), and
 * memory writes are accepted while it runs, under the control lease.
 */
export interface TargetRun {
  registers(): Promise<Register[]>;
  writeRegister(name: string, value: number): Promise<void>;
  resume(): Promise<void>;
  pause(): Promise<void>;
  stepInstruction(count?: number): Promise<void>;
  stepOver(): Promise<void>;
  stepOut(): Promise<void>;
  /**
   * Step (into or over calls) while PC stays inside any of `ranges`; the stop
   * event comes when PC leaves them, or earlier at a breakpoint/pause.
   */
  stepRange(ranges: AddressRange[], mode: 'into' | 'over'): Promise<void>;
}

/** An emulator's own breakpoint condition language: MAME debugger expressions, VICE checkpoint conditions. */
export type ConditionLanguage = 'mame' | 'vice';

export interface TargetBreakpoints {
  /** Returns the target's own id for the breakpoint; `condition` in `language`, evaluated without stopping. */
  set(address: Address, condition?: string): Promise<number>;
  clear(id: number): Promise<void>;
  /** the language `set`'s condition is in; absent: the session evaluates every condition itself */
  readonly language?: ConditionLanguage;
}

/** What a reset reaches: the CPU (soft) or the whole machine, as at power-on (hard). */
export type ResetKind = 'soft' | 'hard';

/**
 * Restarting the machine and its snapshots. Each call returns with the work done; the target emits 'reset' for a
 * reset (the session re-arms its breakpoints, once each, whatever the emulator kept).
 */
export interface TargetLifecycle {
  /** Resolves once reset: 'runs', or 'held' (stopped at or before the reset, MAME) for the session to resume. */
  reset(kind: ResetKind): Promise<'runs' | 'held'>;
  /** The program loaded again from its file (a hard reset where the machine loads it itself), stopped at its start. */
  reload(): Promise<void>;
  /** the payload format `saveState` writes and `loadState` takes (a snapshot of another is refused before loading) */
  readonly stateFormat?: string;
  /** The machine's state as the emulator saves it (the CPU stopped). Absent: no snapshots here. */
  saveState?(): Promise<Uint8Array>;
  /** Puts a `saveState` payload back whole, or refuses it with nothing changed; the CPU stays stopped. */
  loadState?(payload: Uint8Array): Promise<void>;
}

/** Data watchpoints. */
export interface TargetWatch {
  set(spec: WatchSpec): Promise<number>;
  clear(id: number): Promise<void>;
}

/**
 * One frame as the machine shows it, for live viewers: palette indices with
 * the palette (cheap to send and compare), or RGBA. PNG is made only for
 * files and MCP images, never on the way to the panel.
 */
export interface ScreenFrame {
  width: number;
  height: number;
  /** the machine's own frame counter (emulated frames), or the source's count when it has none; only ever grows */
  frame: number;
  /** one palette index a pixel, row-major, with `palette` */
  pixels?: Uint8Array;
  palette?: readonly Rgb[];
  /** RGBA, 4 bytes a pixel, when the source has no palette */
  rgba?: Uint8Array;
  /** the screen's inner area (no border) inside this frame, when the machine has a border */
  inner?: { x: number; y: number; width: number; height: number };
  /** true when the CPU is stopped, so the frame may predate the current state */
  maybeStale: boolean;
  /** which picture this is, when the source can tell */
  source?: FrameSource;
}

/** What a viewer asks of a frame source. */
export interface FrameRequest {
  /** the most frames a second the viewer wants (the source sends fewer when nothing changed) */
  fps: number;
  /** a person watches: run at the machine's real speed (the default for viewers); false lets it run warp */
  realtime?: boolean;
}

/** How a frame source gets its frames, for the panel to state. */
export interface FrameSourceInfo {
  /** 'push': frames come from the emulator's own frame clock, the machine never stops for them; 'stop': each costs a stop */
  mode: 'push' | 'stop';
  /** the most frames a second it offers while running */
  maxFps: number;
  /** a sentence for people: what watching costs the machine */
  cost: string;
  /** 'stop' sources whose every frame halts the machine (VICE): the rates a user may choose, 0 = frames only at stops */
  rates?: readonly number[];
  /** with `rates`: the rate chosen for this session (the session's screen feed fills it in) */
  refreshFps?: number;
  /** with `rates`: the stops frames cost while running, as measured (absent until one was) */
  measured?: { stopMs: number; stopsPerSecond: number; samples: number };
}

export type FrameListener = (frame: ScreenFrame) => void;

export interface TargetScreen {
  /** `source`: the picture wanted (default: the target's own; 'last-frame' on the built-in C64) */
  capture(opts?: { source?: FrameSource }): Promise<ScreenImage>;
  /**
   * Live frames, pushed: changed frames at most `fps` a second while the
   * machine runs, and one at each stop. Returns the unsubscribe. Absent: the
   * session polls capture() and says each frame costs what a capture costs.
   */
  frames?(request: FrameRequest, listener: FrameListener): () => void;
  readonly frameSource?: FrameSourceInfo;
}

/** Typing on the machine's keyboard: strokes of the common key syntax (keys.ts), mapped by the connector. */
export interface TargetInput {
  /** Every stroke is checked first: one the keyboard lacks refuses them all (`unsupported`), nothing typed. */
  typeKeys(strokes: readonly KeyStroke[]): Promise<TypedKeys>;
}

export interface TypedKeys {
  typed: number;
  /** queued for the machine to type as it runs (e.g. while it is stopped), not yet taken */
  pending: boolean;
  /** what else the typing met, e.g. "cut short by a stop" */
  note?: string;
}

declare const featureType: unique symbol;

/**
 * A typed name for a connector-specific ability beyond the facets (e.g.
 * 'mame-raw' for MAME's ports and console, 'dos' for DOS guest memory):
 * `session.feature(DOS_FEATURE)` is a DosMachine, no cast at the caller.
 */
export interface FeatureKey<T> {
  readonly name: string;
  /** never set: carries T for the type checker */
  readonly [featureType]?: T;
}

export function featureKey<T>(name: string): FeatureKey<T> {
  return { name };
}

/** The features one target provides, looked up by their typed keys. */
export class TargetFeatures {
  private readonly values = new Map<FeatureKey<unknown>, unknown>();

  provide<T>(key: FeatureKey<T>, value: T): this {
    this.values.set(key, value);
    return this;
  }

  get<T>(key: FeatureKey<T>): T | undefined {
    // the only place a feature's type is asserted: provide() stored it under the same key
    return this.values.get(key) as T | undefined;
  }

  names(): string[] {
    return [...this.values.keys()].map((k) => k.name);
  }
}

/**
 * The contract every emulator connector implements, as capability facets.
 * Front ends never see a Target directly: they go through a Session, which
 * adds leases, owners and generations, and refuses a missing facet with
 * 'unsupported' and `info.missing`'s reason.
 */
export interface Target {
  readonly info: TargetInfo;
  readonly memory: TargetMemory;
  readonly events: TargetEvents;
  status(): Promise<TargetStatus>;
  readonly run?: TargetRun;
  readonly breakpoints?: TargetBreakpoints;
  readonly watch?: TargetWatch;
  readonly screen?: TargetScreen;
  readonly input?: TargetInput;
  readonly lifecycle?: TargetLifecycle;
  readonly features: TargetFeatures;
  /** a program the machine loads itself after power-on (a DSS .EXE): what it will find at its load address */
  readonly loadedProgram?: LoadedProgram;
  /** End the emulator (if we started it) or drop the connection (if attached). */
  close(): Promise<void>;
}

/** The code of a program the machine's own loader places in memory (not there at power-on). */
export interface LoadedProgram {
  path: string;
  load: number;
  code: Uint8Array;
}

/** Delivers target events to listeners; a listener's bug stays its own. */
export class TargetEmitter implements TargetEvents {
  private readonly listeners = new Set<TargetListener>();

  on(listener: TargetListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: TargetEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        /* listener bugs stay theirs */
      }
    }
  }
}
