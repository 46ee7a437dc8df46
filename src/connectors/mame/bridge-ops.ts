/**
 * The operations of the MAME Lua plugin (`plugin/mamebridge/ops.lua`), typed: what each takes, what it answers and
 * whether it changes the emulator. `BridgeClient.request` accepts only these names, so a TypeScript caller and the Lua
 * table cannot drift apart silently; `test/unit/mame-bridge-ops.test.ts` checks both sides name the same operations.
 */

export interface ShareInfo {
  tag: string;
  kind: 'share' | 'region';
  size: number;
  bitwidth: number;
  endianness: string;
}
export interface SpaceInfo {
  name: string;
  address_mask: number;
  data_width: number;
}
export interface PortField {
  name: string;
  mask: number;
  type: string;
  type_class: string;
  player: number;
  is_analog: boolean;
  defvalue: number;
  minvalue?: number;
  maxvalue?: number;
}
export interface PortInfo {
  tag: string;
  fields: PortField[];
}
export interface FieldRef {
  port: string;
  field: string;
  value?: number;
}
export interface InputStep {
  fields: FieldRef[];
  frames: number;
  gap?: number;
}
export interface Instruction {
  address: number;
  text: string;
}

/** Where a memory op reads or writes: a CPU space (`logical`: through the CPU's 16-bit view), a share or region. */
export interface BridgeSpace {
  /** Default `program`. */
  space?: string;
  address: number;
  logical?: boolean;
  tag?: string;
}

type None = Record<string, never>;
/**
 * Time travel's recording rides on run control (no round trip of its own): `record`, an absolute path, has MAME save
 * a state there while the CPU is still held; the reply gives its size and MAME's cycle count at that moment.
 */
interface RecordArgs {
  record?: string;
}
interface Recorded {
  saved?: number;
  cycles?: number;
}
type Op<Args, Result> = { args: Args; result: Result };

export interface MediaSlot {
  tag: string;
  slot: string;
  name: string;
  file?: string;
  mounted: boolean;
}

export interface BridgeOps {
  hello: Op<
    { token: string },
    {
      version: string;
      system: string;
      driver: string;
      cpu: string;
      cpu_type: string;
      state: 'stopped' | 'running';
      lua: string;
      program_mask?: number;
    }
  >;
  echo: Op<None, None>;
  status: Op<
    None,
    { state: 'stopped' | 'running'; pc: number; frame?: number; time: number; last_stop?: unknown; idle: string }
  >;
  read_registers: Op<None, { registers: Record<string, number> }>;
  write_register: Op<{ name: string; value: number }, { value: number }>;
  read_memory: Op<BridgeSpace & { length: number }, { length: number }>;
  write_memory: Op<BridgeSpace, { length: number }>;
  set_breakpoint: Op<{ address: number; condition: string }, { id: number }>;
  clear_breakpoint: Op<{ id: number }, None>;
  list_breakpoints: Op<None, { breakpoints: Array<{ id: number; address: number; condition: string }> }>;
  resume: Op<RecordArgs, Recorded>;
  pause: Op<None, { already?: boolean }>;
  step: Op<{ count: number } & RecordArgs, Recorded>;
  step_over: Op<{ count?: number } & RecordArgs, Recorded>;
  step_out: Op<RecordArgs, Recorded>;
  step_range: Op<{ ranges: Array<[number, number]>; mode: 'into' | 'over'; max: number } & RecordArgs, Recorded>;
  screen_info: Op<None, { width: number; height: number; refresh: number; frame: number }>;
  /** the screen as it stands; `kept`: as screen_keep took it */
  screen_pixels: Op<{ kept?: boolean }, { width: number; height: number; frame: number; format: 'bgra' }>;
  /** keeps the screen as it stands in MAME (the present's, as time travel leaves it) for screen_pixels `kept` */
  screen_keep: Op<None, { width: number; height: number }>;
  /**
   * live frames as `frame` events (changed ones, at most `fps` a second); `throttle` sets MAME's speed; `file`: an
   * existing file whose two slots take the pixels (`slots` says whether it opened), else they follow on the socket
   */
  frames_start: Op<
    { fps: number; throttle?: boolean; file?: string },
    { fps: number; throttled: boolean; slots: boolean }
  >;
  frames_stop: Op<{ throttle?: boolean }, { throttled: boolean }>;
  /** Node took the frames up to `seq`: at most two are in flight, so a slow consumer never blocks MAME */
  frames_ack: Op<{ seq: number }, None>;
  list_shares: Op<None, { shares: ShareInfo[]; spaces: SpaceInfo[] }>;
  list_ports: Op<None, { ports: PortInfo[] }>;
  /** the image slots (brief name `slot`, e.g. hard1; `name`, e.g. harddisk1) and the file each holds */
  list_media: Op<None, { images: MediaSlot[] }>;
  read_port: Op<{ tag: string }, { value: number }>;
  console: Op<{ command: string }, { lines: string[] }>;
  eval: Op<{ expression: string }, { value: number }>;
  disassemble: Op<{ address: number; count: number }, { instructions: Instruction[] }>;
  set_watchpoint: Op<
    { address: number; space?: string; type: 'r' | 'w' | 'rw'; length: number; condition: string },
    { id: number }
  >;
  clear_watchpoint: Op<{ id: number }, None>;
  list_watchpoints: Op<
    None,
    {
      watchpoints: Array<{
        id: number;
        space: string;
        type: number;
        address: number;
        length: number;
        condition: string;
      }>;
      console: string[];
    }
  >;
  input_enqueue: Op<{ id: number; steps: InputStep[] }, { queued: number }>;
  input_set: Op<{ port: string; field: string; value: number }, { held: boolean }>;
  input_natural: Op<{ text: string; coded: boolean }, { posting: boolean }>;
  input_keymap: Op<{ text: string }, { keys: FieldRef[][]; missing: string[] }>;
  input_release_all: Op<None, { cut: number[] }>;
  exit: Op<None, None>;
}

export type BridgeOp = keyof BridgeOps;
export type BridgeArgs<K extends BridgeOp> = BridgeOps[K]['args'];
export type BridgeResult<K extends BridgeOp> = BridgeOps[K]['result'];

/**
 * Every op once, with whether it changes emulator state: after a timeout a mutating op may have happened, so it is
 * reported as `timeout_may_have_mutated` and never retried.
 */
export const BRIDGE_OPS: { readonly [K in BridgeOp]: { readonly mutating: boolean } } = {
  hello: { mutating: false },
  echo: { mutating: false },
  status: { mutating: false },
  read_registers: { mutating: false },
  write_register: { mutating: true },
  read_memory: { mutating: false },
  write_memory: { mutating: true },
  set_breakpoint: { mutating: true },
  clear_breakpoint: { mutating: true },
  list_breakpoints: { mutating: false },
  resume: { mutating: true },
  pause: { mutating: true },
  step: { mutating: true },
  step_over: { mutating: true },
  step_out: { mutating: true },
  step_range: { mutating: true },
  screen_info: { mutating: false },
  screen_pixels: { mutating: false },
  screen_keep: { mutating: false },
  frames_start: { mutating: true },
  frames_stop: { mutating: true },
  frames_ack: { mutating: false },
  list_shares: { mutating: false },
  list_ports: { mutating: false },
  list_media: { mutating: false },
  read_port: { mutating: false },
  console: { mutating: true },
  eval: { mutating: false },
  disassemble: { mutating: false },
  set_watchpoint: { mutating: true },
  clear_watchpoint: { mutating: true },
  list_watchpoints: { mutating: false },
  input_enqueue: { mutating: true },
  input_set: { mutating: true },
  input_natural: { mutating: true },
  input_keymap: { mutating: false },
  input_release_all: { mutating: true },
  exit: { mutating: true },
};

/** The run-control ops: their reply means MAME accepted the command; the stop arrives later as an event. */
export type RunControlOp = 'resume' | 'step' | 'step_over' | 'step_out' | 'step_range';
