/**
 * The 'mame-raw' feature of a MAME target: raw abilities that are not part of
 * the Target interface — shares and regions, input ports, the debugger
 * console, disassembly, natural-keyboard typing and frame-paced input
 * sequences. Callers (the session's front ends) check the lease and vet
 * console commands; this class only talks to the bridge.
 */
import { unsupported } from '../../core/errors.js';
import { featureKey } from '../../core/target.js';
import type { BridgeClient, BridgeEvent } from './bridge-client.js';

import type { FieldRef, InputStep, Instruction, PortField, PortInfo, ShareInfo, SpaceInfo } from './bridge-ops.js';
export type { FieldRef, InputStep, Instruction, PortField, PortInfo, ShareInfo, SpaceInfo } from './bridge-ops.js';

/** How long a queued input sequence may take before we stop waiting for it. */
const INPUT_SEQUENCE_TIMEOUT_MS = 60_000;

export interface MameRaw {
  readonly machine: string;
  listShares(): Promise<{ shares: ShareInfo[]; spaces: SpaceInfo[] }>;
  listPorts(): Promise<PortInfo[]>;
  /** What a port reads now, all its fields combined. */
  readPort(tag: string): Promise<number>;
  /** Runs a console command as given: callers vet it first. */
  console(command: string): Promise<string[]>;
  evaluate(expression: string): Promise<number>;
  disassemble(address: number, count: number): Promise<Instruction[]>;
  /** The fields that type each character of `text`; `missing` lists characters this machine cannot type. */
  keymap(text: string): Promise<{ keys: FieldRef[][]; missing: string[] }>;
  /** Queues a frame-paced sequence; `done` settles when it finished or was cut short (stop, release). */
  enqueueInput(steps: InputStep[]): Promise<{ id: number; done: Promise<'done' | 'cut'> }>;
  setInput(port: string, field: string, value: number): Promise<void>;
  typeNatural(text: string, coded: boolean): Promise<void>;
  /** Releases every held field and cuts every queued sequence; returns the cut sequence ids. */
  releaseAllInput(): Promise<number[]>;
  /** Called whenever the held fields were released (a stop, release all, the machine ending). */
  onInputReleased(listener: () => void): () => void;
}

export const MAME_RAW_FEATURE = featureKey<MameRaw>('mame-raw');

export class MameRawFeature implements MameRaw {
  private nextInputId = 1;
  private readonly released = new Set<() => void>();
  private readonly waiting = new Map<number, (how: 'done' | 'cut') => void>();

  constructor(
    private readonly bridge: BridgeClient,
    readonly machine: string,
  ) {
    bridge.onEvent((e) => this.onEvent(e));
  }

  async listShares(): Promise<{ shares: ShareInfo[]; spaces: SpaceInfo[] }> {
    const { result } = await this.bridge.request('list_shares');
    return { shares: result.shares, spaces: result.spaces };
  }

  async listPorts(): Promise<PortInfo[]> {
    return (await this.bridge.request('list_ports')).result.ports;
  }

  async readPort(tag: string): Promise<number> {
    return (await this.bridge.request('read_port', { tag })).result.value;
  }

  async console(command: string): Promise<string[]> {
    return (await this.bridge.request('console', { command })).result.lines;
  }

  async evaluate(expression: string): Promise<number> {
    return (await this.bridge.request('eval', { expression })).result.value;
  }

  async disassemble(address: number, count: number): Promise<Instruction[]> {
    return (await this.bridge.request('disassemble', { address, count })).result.instructions;
  }

  async keymap(text: string): Promise<{ keys: FieldRef[][]; missing: string[] }> {
    const { result } = await this.bridge.request('input_keymap', { text });
    return { keys: result.keys, missing: result.missing };
  }

  async enqueueInput(steps: InputStep[]): Promise<{ id: number; done: Promise<'done' | 'cut'> }> {
    const id = this.nextInputId++;
    const done = new Promise<'done' | 'cut'>((resolve) => {
      const timer = setTimeout(() => this.settle(id, 'cut'), INPUT_SEQUENCE_TIMEOUT_MS);
      timer.unref();
      this.waiting.set(id, (how) => {
        clearTimeout(timer);
        resolve(how);
      });
    });
    try {
      await this.bridge.request('input_enqueue', { id, steps });
    } catch (err) {
      this.settle(id, 'cut');
      throw err;
    }
    return { id, done };
  }

  async setInput(port: string, field: string, value: number): Promise<void> {
    await this.bridge.request('input_set', { port, field, value });
  }

  async typeNatural(text: string, coded: boolean): Promise<void> {
    await this.bridge.request('input_natural', { text, coded });
  }

  async releaseAllInput(): Promise<number[]> {
    const cut = (await this.bridge.request('input_release_all')).result.cut;
    cut.forEach((id) => this.settle(id, 'cut'));
    this.tellReleased();
    return cut;
  }

  onInputReleased(listener: () => void): () => void {
    this.released.add(listener);
    return () => this.released.delete(listener);
  }

  private tellReleased(): void {
    this.released.forEach((l) => l());
  }

  private settle(id: number, how: 'done' | 'cut'): void {
    const resolve = this.waiting.get(id);
    this.waiting.delete(id);
    resolve?.(how);
  }

  private onEvent(e: BridgeEvent): void {
    if (e.event === 'input_done' && typeof e.id === 'number') this.settle(e.id, 'done');
    else if (e.event === 'input_released' && Array.isArray(e.cut)) {
      e.cut.forEach((id) => typeof id === 'number' && this.settle(id, 'cut'));
      this.tellReleased();
    } else if (e.event === 'machine_stop') {
      for (const id of [...this.waiting.keys()]) this.settle(id, 'cut');
      this.tellReleased();
    }
  }
}

/** The values an analog field's port bits take. */
export interface AxisRange {
  min: number;
  max: number;
}

/** Mouse axes and buttons among a machine's ports; 'unsupported' naming the machine when it has none. */
export function findMouse(
  ports: PortInfo[],
  machine: string,
  player = 1,
): { x: FieldRef; y: FieldRef; buttons: FieldRef[]; range: { x: AxisRange; y: AxisRange } } {
  const all = ports.flatMap((p) => p.fields.map((f) => ({ port: p.tag, f })));
  const axis = (suffix: string) =>
    all.find(
      ({ f }) =>
        f.is_analog &&
        f.player === player - 1 &&
        ['MOUSE', 'LIGHTGUN', 'TRACKBALL', 'AD_STICK'].some((k) => f.type.endsWith(`_${k}_${suffix}`)),
    );
  const x = axis('X');
  const y = axis('Y');
  if (!x || !y) {
    throw unsupported(
      `The MAME machine "${machine}" has no mouse (no analog mouse, trackball or lightgun X/Y input).`,
      { machine },
    );
  }
  const buttons = all
    .filter(({ f }) => /mouse/i.test(f.name) && /_BUTTON\d$/.test(f.type))
    .concat(all.filter(({ f }) => f.type === `P${player}_BUTTON1` || f.type === `P${player}_BUTTON2`))
    // a field both named like a mouse button and typed as a player's button is one button
    .filter((b, i, list) => list.findIndex((o) => o.port === b.port && o.f.name === b.f.name) === i)
    .map(({ port, f }) => ({ port, field: f.name }));
  const range = (f: PortField): AxisRange => ({ min: f.minvalue ?? 0, max: f.maxvalue ?? f.mask });
  return {
    x: { port: x.port, field: x.f.name },
    y: { port: y.port, field: y.f.name },
    buttons,
    range: { x: range(x.f), y: range(y.f) },
  };
}
