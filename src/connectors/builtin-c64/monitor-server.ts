/**
 * The built-in C64 serves VICE's binary monitor protocol on loopback, with
 * VICE's code-level behaviour (shared/reference/vice-binary-monitor.md):
 * one client at a time (later connections wait, unserviced, until it
 * leaves), any command stops a running machine first (0x31 + 0x62 events),
 * resuming commands answer and then send 0x63, errors are type 0x00 with the
 * request id, a bad API byte silently drops the 6-byte prefix, JAM sends an
 * empty 0x61. Differences, all deliberate: the stop happens at the next
 * instruction rather than the next frame; there are no drives (memspaces
 * 1-4 answer "invalid memspace"; device 8 is a host folder at the KERNAL level); snapshots and CPU history fail with 0x8F;
 * display get answers the fixed (r46020) layout.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { PEPTO_PAL } from '../../machines/c64/pepto-palette.js';
import { readRegularFileSync } from '../../core/files.js';
import {
  C64_BANKS,
  Cmd,
  ErrCode,
  EVENT_ID,
  Evt,
  Reg,
  REQUEST_HEADER,
  STX,
  encodeBanks,
  encodeCheckpoint,
  encodeDisplay,
  encodePalette,
  encodeRegisterNames,
  encodeRegisters,
  encodeResponse,
  type RegisterName,
} from '../vice/protocol.js';
import { BuiltinC64, CYCLES_PER_FRAME } from './c64.js';
import { HostFolderDrive } from './host-drive.js';
import { DISPLAY, renderDisplay } from './video.js';

/** Requests larger than this close the connection (VICE has no bound; we keep memory bounded). */
export const MAX_REQUEST_BODY = 4 * 1024 * 1024;
/** PAL frame time in ms, for real-speed running */
const FRAME_MS = 1000 / 50.125;
/** what one warp slice runs before yielding to I/O */
const WARP_SLICE = CYCLES_PER_FRAME * 5;

const REGISTER_NAMES: RegisterName[] = [
  { id: Reg.PC, bits: 16, name: 'PC' },
  { id: Reg.A, bits: 8, name: 'A' },
  { id: Reg.X, bits: 8, name: 'X' },
  { id: Reg.Y, bits: 8, name: 'Y' },
  { id: Reg.SP, bits: 8, name: 'SP' },
  { id: Reg.P00, bits: 8, name: '00' },
  { id: Reg.P01, bits: 8, name: '01' },
  { id: Reg.FL, bits: 8, name: 'FL' },
  { id: Reg.LIN, bits: 16, name: 'LIN' },
  { id: Reg.CYC, bits: 16, name: 'CYC' },
];

/** What VICE_INFO reports: 3.10.0, SVN revision 0 (as most VICE builds do). */
const VERSION = [3, 10, 0, 0];

export interface ServerOptions {
  port?: number;
  /** true: run at the real C64's speed; false (default): as fast as possible */
  realtime?: boolean;
  /** the machine's log lines ("Monitor: …" in VICE's log) */
  onLog?: (text: string) => void;
  /** QUIT was received */
  onQuit?: () => void;
  /** the host folder served as device 8 (default: the folder of the program autostarted) */
  drive8?: string;
}

export class BuiltinMonitorServer {
  readonly machine: BuiltinC64;
  private server?: Server;
  private client?: Socket;
  private readonly waiting: Socket[] = [];
  private inbox = Buffer.alloc(0);
  private running = true;
  private timer?: NodeJS.Immediate | NodeJS.Timeout;
  private readonly resources = new Map<string, number>([
    ['VICIIBorderMode', 0],
    ['JAMAction', 0],
    ['WarpMode', 0],
  ]);
  private wallStart = performance.now();
  private closed = false;
  private cycleStart = 0;

  constructor(private readonly opts: ServerOptions = {}) {
    this.machine = new BuiltinC64({
      checkpointHit: (info) => this.event(Evt.CHECKPOINT, encodeCheckpoint(info)),
      log: (text) => this.opts.onLog?.(text),
    });
    this.resources.set('WarpMode', opts.realtime ? 0 : 1);
    if (opts.drive8) this.machine.attachDrive(new HostFolderDrive(opts.drive8, (t) => this.opts.onLog?.(t)));
  }

  /** Starts listening; resolves with the port. The machine starts running at once, as x64sc does. */
  async listen(): Promise<number> {
    const server = createServer((socket) => this.onConnection(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.port ?? 0, '127.0.0.1', () => resolve());
    });
    this.schedule();
    const address = server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.running = false;
    if (this.timer) {
      clearTimeout(this.timer as NodeJS.Timeout);
      clearImmediate(this.timer as NodeJS.Immediate);
    }
    this.client?.destroy();
    for (const s of this.waiting) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  get isRunning(): boolean {
    return this.running;
  }

  // ---- connections ----

  private onConnection(socket: Socket): void {
    socket.setNoDelay(true);
    if (this.client) {
      socket.pause(); // like a connection in VICE's backlog: connected, not serviced
      this.waiting.push(socket);
      socket.once('close', () => {
        const i = this.waiting.indexOf(socket);
        if (i >= 0) this.waiting.splice(i, 1);
      });
      return;
    }
    this.adopt(socket);
  }

  private adopt(socket: Socket): void {
    this.client = socket;
    this.inbox = Buffer.alloc(0);
    socket.on('data', (chunk) => this.onData(socket, chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => this.onClose(socket));
    socket.resume();
  }

  private onClose(socket: Socket): void {
    if (this.client !== socket || this.closed) return;
    this.client = undefined;
    if (!this.running) this.resume(); // VICE leaves the monitor when its client goes
    const next = this.waiting.shift();
    if (next) this.adopt(next);
  }

  private onData(socket: Socket, chunk: Buffer): void {
    if (socket !== this.client) return;
    this.inbox = Buffer.concat([this.inbox, chunk]);
    this.drain();
  }

  /** Processes every complete request; stops a running machine first, as VICE does. */
  private drain(): void {
    for (;;) {
      const stx = this.inbox.indexOf(STX);
      if (stx < 0) {
        this.inbox = Buffer.alloc(0);
        return;
      }
      if (stx > 0) this.inbox = this.inbox.subarray(stx);
      if (this.inbox.length < 2) return;
      const api = this.inbox[1];
      if (api !== 1 && api !== 2) {
        // VICE reads the 6-byte prefix, sends nothing, and hunts for STX after it
        if (this.inbox.length < 6) return;
        this.inbox = this.inbox.subarray(6);
        continue;
      }
      if (this.inbox.length < REQUEST_HEADER) return;
      const length = this.inbox.readUInt32LE(2);
      if (length > MAX_REQUEST_BODY) {
        this.opts.onLog?.(
          `Monitor: a request announced ${length} body bytes (limit ${MAX_REQUEST_BODY}); closing the connection.`,
        );
        this.client?.destroy();
        return;
      }
      if (this.inbox.length < REQUEST_HEADER + length) return;
      const id = this.inbox.readUInt32LE(6);
      const command = this.inbox[10];
      const body = Buffer.from(this.inbox.subarray(REQUEST_HEADER, REQUEST_HEADER + length));
      this.inbox = this.inbox.subarray(REQUEST_HEADER + length);
      if (this.running) this.enterMonitor();
      this.handle(api, id, command, body);
      if (this.running) {
        // a resuming command left the rest for the next stop, as VICE does at its next frame
        if (this.inbox.length) setImmediate(() => this.drain());
        return;
      }
    }
  }

  // ---- run control ----

  private schedule(): void {
    if (!this.running || this.timer || this.closed) return;
    const warp = (this.resources.get('WarpMode') ?? 0) !== 0;
    const tick = () => {
      this.timer = undefined;
      if (!this.running) return;
      let budget = WARP_SLICE;
      if (!warp) {
        const due = this.cycleStart + ((performance.now() - this.wallStart) / FRAME_MS) * CYCLES_PER_FRAME;
        budget = Math.min(WARP_SLICE, Math.max(0, Math.floor(due - this.machine.cpu.cycles)));
      }
      const cause = budget > 0 ? this.machine.runSlice(budget) : undefined;
      if (cause) {
        this.stopped(cause);
        return;
      }
      this.timer = warp ? setImmediate(tick) : setTimeout(tick, Math.max(1, FRAME_MS / 2));
    };
    this.timer = warp ? setImmediate(tick) : setTimeout(tick, 1);
  }

  private stopped(cause: 'checkpoint' | 'step' | 'jam'): void {
    if (!this.client) {
      // headless VICE: a stop with nobody connected resumes at once
      this.schedule();
      return;
    }
    if (cause === 'jam') this.event(Evt.JAM, Buffer.alloc(0));
    this.enterMonitor();
  }

  private enterMonitor(): void {
    this.running = false;
    this.machine.noteStopped();
    if (this.timer) {
      clearTimeout(this.timer as NodeJS.Timeout);
      clearImmediate(this.timer as NodeJS.Immediate);
      this.timer = undefined;
    }
    this.event(Evt.REGISTERS, encodeRegisters(this.registers()));
    this.event(Evt.STOPPED, u16(this.machine.cpu.pc));
  }

  private resume(): void {
    this.running = true;
    this.wallStart = performance.now();
    this.cycleStart = this.machine.cpu.cycles;
    this.event(Evt.RESUMED, u16(this.machine.cpu.pc));
    this.schedule();
  }

  // ---- replies ----

  private send(frame: Buffer): void {
    if (this.client && !this.client.destroyed) this.client.write(frame);
  }

  private event(type: number, body: Buffer): void {
    this.send(encodeResponse(type, 0, EVENT_ID, body));
  }

  private reply(type: number, id: number, body: Buffer = Buffer.alloc(0)): void {
    this.send(encodeResponse(type, 0, id, body));
  }

  private error(id: number, code: number): void {
    this.send(encodeResponse(0x00, code, id));
  }

  private registers() {
    const m = this.machine;
    const cpu = m.cpu;
    return [
      { id: Reg.PC, value: cpu.pc },
      { id: Reg.A, value: cpu.a },
      { id: Reg.X, value: cpu.x },
      { id: Reg.Y, value: cpu.y },
      { id: Reg.SP, value: cpu.s },
      { id: Reg.P00, value: m.bus.peek(0) },
      { id: Reg.P01, value: m.bus.peek(1) },
      { id: Reg.FL, value: cpu.p | 0x20 },
      { id: Reg.LIN, value: m.bus.rasterLine() },
      { id: Reg.CYC, value: cpu.cycles % 63 },
    ];
  }

  /** One command, answered before the next is read (as VICE's single thread does). */
  private handle(api: number, id: number, command: number, body: Buffer): void {
    const m = this.machine;
    switch (command) {
      case Cmd.MEM_GET:
        return this.memGet(id, body);
      case Cmd.MEM_SET:
        return this.memSet(id, body);
      case Cmd.CHECKPOINT_GET: {
        if (body.length < 4) return this.error(id, ErrCode.INVALID_LENGTH);
        const cp = m.checkpoints.get(body.readUInt32LE(0));
        return cp
          ? this.reply(0x11, id, encodeCheckpoint({ ...cp, hit: false }))
          : this.error(id, ErrCode.OBJECT_MISSING);
      }
      case Cmd.CHECKPOINT_SET: {
        if (body.length < 8) return this.error(id, ErrCode.INVALID_LENGTH);
        const memspace = body.length > 8 ? body[8] : 0;
        if (memspace > 4) return this.error(id, ErrCode.INVALID_MEMSPACE);
        const cp = m.addCheckpoint({
          start: body.readUInt16LE(0),
          end: body.readUInt16LE(2),
          stop: body[4] !== 0,
          enabled: body[5] !== 0,
          op: body[6],
          temporary: body[7] !== 0,
          memspace,
        });
        this.reply(0x11, id, encodeCheckpoint({ ...cp, hit: false }));
        if (cp.temporary) {
          m.continueRunning();
          this.resume();
        }
        return;
      }
      case Cmd.CHECKPOINT_DELETE:
        if (body.length < 4) return this.error(id, ErrCode.INVALID_LENGTH);
        return m.deleteCheckpoint(body.readUInt32LE(0)) ? this.reply(0x13, id) : this.error(id, ErrCode.OBJECT_MISSING);
      case Cmd.CHECKPOINT_LIST: {
        const all = m.listCheckpoints();
        for (const cp of all) this.reply(0x11, id, encodeCheckpoint({ ...cp, hit: false }));
        return this.reply(0x14, id, u32(all.length));
      }
      case Cmd.CHECKPOINT_TOGGLE:
        if (body.length < 5) return this.error(id, ErrCode.INVALID_LENGTH);
        return m.toggleCheckpoint(body.readUInt32LE(0), body[4] !== 0)
          ? this.reply(0x15, id)
          : this.error(id, ErrCode.OBJECT_MISSING);
      case Cmd.CONDITION_SET: {
        if (body.length < 5 || body.length < 5 + body[4]) return this.error(id, ErrCode.INVALID_LENGTH);
        const number = body.readUInt32LE(0);
        if (!m.checkpoints.has(number)) return this.error(id, ErrCode.OBJECT_MISSING);
        try {
          m.setCondition(number, body.toString('latin1', 5, 5 + body[4]));
        } catch (err) {
          this.opts.onLog?.(`Monitor: condition for checkpoint ${number}: ${(err as Error).message}`);
          return this.error(id, ErrCode.FAILURE);
        }
        return this.reply(0x22, id);
      }
      case Cmd.REGISTERS_GET:
        if (body.length < 1) return this.error(id, ErrCode.INVALID_LENGTH);
        if (body[0] !== 0) return this.error(id, ErrCode.INVALID_MEMSPACE);
        return this.reply(0x31, id, encodeRegisters(this.registers()));
      case Cmd.REGISTERS_SET:
        return this.registersSet(id, body);
      case Cmd.REGISTERS_AVAILABLE:
        if (body.length < 1) return this.error(id, ErrCode.INVALID_LENGTH);
        if (body[0] !== 0) return this.error(id, ErrCode.INVALID_MEMSPACE);
        return this.reply(0x83, id, encodeRegisterNames(REGISTER_NAMES));
      case Cmd.BANKS_AVAILABLE:
        return this.reply(0x82, id, encodeBanks(C64_BANKS));
      case Cmd.PING:
        return this.reply(0x81, id);
      case Cmd.VICE_INFO:
        return this.reply(0x85, id, Buffer.from([4, ...VERSION, 4, 0, 0, 0, 0]));
      case Cmd.PALETTE_GET:
        return this.reply(0x91, id, encodePalette(PEPTO_PAL.map((c) => [c[0], c[1], c[2]])));
      case Cmd.DISPLAY_GET: {
        if (api !== 2) return this.error(id, ErrCode.INVALID_API_VERSION);
        if (body.length < 2) return this.error(id, ErrCode.INVALID_LENGTH);
        if (body[1] !== 0) return this.error(id, ErrCode.INVALID_PARAMETER);
        return this.reply(0x84, id, encodeDisplay({ ...DISPLAY, bitsPerPixel: 8, pixels: renderDisplay(m.bus) }));
      }
      case Cmd.KEYBOARD_FEED:
        if (api !== 2) return this.error(id, ErrCode.INVALID_API_VERSION);
        if (body.length < 1 || body.length < 1 + body[0]) return this.error(id, ErrCode.INVALID_LENGTH);
        m.feedKeys(body.subarray(1, 1 + body[0]));
        return this.reply(0x72, id);
      case Cmd.JOYPORT_SET: {
        if (body.length < 4) return this.error(id, ErrCode.INVALID_LENGTH);
        const port = body.readUInt16LE(0);
        const value = body.readUInt16LE(2);
        if (port > 1) return this.error(id, ErrCode.OBJECT_MISSING);
        if (value > 0xff) return this.error(id, ErrCode.INVALID_PARAMETER);
        m.bus.joy[port] = value & 0x1f;
        return this.reply(0xa2, id);
      }
      case Cmd.USERPORT_SET:
        if (body.length < 2) return this.error(id, ErrCode.INVALID_LENGTH);
        return body.readUInt16LE(0) > 0xff ? this.error(id, ErrCode.INVALID_PARAMETER) : this.reply(0xb2, id);
      case Cmd.ADVANCE_INSTRUCTIONS:
        if (body.length < 3) return this.error(id, ErrCode.INVALID_LENGTH);
        m.advance(body.readUInt16LE(1), body[0] !== 0);
        this.reply(0x71, id);
        return this.resume();
      case Cmd.EXECUTE_UNTIL_RETURN:
        m.untilReturn();
        this.reply(0x73, id);
        return this.resume();
      case Cmd.EXIT:
        m.continueRunning();
        this.reply(0xaa, id);
        return this.resume();
      case Cmd.QUIT:
        this.reply(0xbb, id);
        this.client?.end();
        this.opts.onQuit?.();
        return;
      case Cmd.RESET: {
        if (body.length < 1) return this.error(id, ErrCode.INVALID_LENGTH);
        const target = body[0];
        this.reply(0xcc, id);
        if (target >= 8 && target <= 11) return; // drive resets do not resume (no drives here)
        if (target === 1) m.powerOn();
        else m.reset();
        return this.resume();
      }
      case Cmd.AUTOSTART:
        return this.autostart(id, body);
      case Cmd.RESOURCE_GET: {
        if (body.length < 1 || body[0] < 1 || body.length < 1 + body[0]) return this.error(id, ErrCode.INVALID_LENGTH);
        const value = this.resources.get(body.toString('latin1', 1, 1 + body[0]));
        return value === undefined
          ? this.error(id, ErrCode.OBJECT_MISSING)
          : this.reply(0x51, id, Buffer.concat([Buffer.from([1, 4]), u32(value)]));
      }
      case Cmd.RESOURCE_SET:
        return this.resourceSet(id, body);
      case Cmd.DUMP:
      case Cmd.UNDUMP:
      case Cmd.CPUHISTORY_GET:
        this.opts.onLog?.(
          `Monitor: command 0x${command.toString(16)} (snapshots, CPU history) is not available in the built-in C64.`,
        );
        return this.error(id, ErrCode.FAILURE);
      default:
        return this.error(id, ErrCode.INVALID_TYPE);
    }
  }

  private memRange(
    id: number,
    body: Buffer,
  ): { start: number; end: number; bank: number; effects: boolean } | undefined {
    if (body.length >= 5 && body.readUInt16LE(1) > body.readUInt16LE(3)) {
      this.error(id, ErrCode.INVALID_PARAMETER);
      return undefined;
    }
    if (body.length < 8) {
      this.error(id, ErrCode.INVALID_LENGTH);
      return undefined;
    }
    if (body[5] > 4) {
      this.error(id, ErrCode.INVALID_MEMSPACE);
      return undefined;
    }
    if (body[5] !== 0) {
      this.opts.onLog?.('Monitor: the built-in C64 has no disk drives (memspaces 1-4).');
      this.error(id, ErrCode.INVALID_MEMSPACE);
      return undefined;
    }
    const bank = body.readUInt16LE(6);
    if (bank > 4) {
      this.error(id, ErrCode.INVALID_PARAMETER);
      return undefined;
    }
    return { start: body.readUInt16LE(1), end: body.readUInt16LE(3), bank, effects: body[0] !== 0 };
  }

  private memGet(id: number, body: Buffer): void {
    const r = this.memRange(id, body);
    if (!r) return;
    const m = this.machine;
    const length = r.end - r.start + 1;
    const out = Buffer.alloc(2 + length);
    out.writeUInt16LE(length & 0xffff, 0);
    const bank = ['cpu', 'ram', 'rom', 'io', 'cpu'][r.bank];
    if (bank === 'ram') out.set(m.bus.ram.subarray(r.start, r.end + 1), 2);
    else
      for (let i = 0; i < length; i++)
        out[2 + i] = bank === 'cpu' ? m.bus.peek(r.start + i, r.effects) : m.memory(bank, r.start + i);
    this.reply(0x01, id, out);
  }

  private memSet(id: number, body: Buffer): void {
    if (
      body.length >= 5 &&
      body.readUInt16LE(1) <= body.readUInt16LE(3) &&
      body.length >= 8 &&
      body.length < 8 + body.readUInt16LE(3) - body.readUInt16LE(1) + 1
    ) {
      return this.error(id, ErrCode.INVALID_LENGTH);
    }
    const r = this.memRange(id, body);
    if (!r) return;
    const bus = this.machine.bus;
    for (let i = 0; i <= r.end - r.start; i++) {
      const address = r.start + i;
      const value = body[8 + i];
      switch (r.bank) {
        case 1:
          bus.ram[address] = value;
          break;
        case 2:
          if (address < 0xd000) bus.ram[address] = value;
          break; // writes inside ROM are discarded
        case 3:
          bus.pokeIo(address, value);
          break;
        default:
          bus.poke(address, value, r.effects);
      }
    }
    this.reply(0x02, id);
  }

  private registersSet(id: number, body: Buffer): void {
    if (body.length < 3) return this.error(id, ErrCode.INVALID_LENGTH);
    const count = body.readUInt16LE(1);
    if (body.length < 3 + 4 * count) return this.error(id, ErrCode.INVALID_LENGTH);
    if (body[0] > 4) return this.error(id, ErrCode.INVALID_MEMSPACE);
    if (body[0] !== 0) return this.error(id, ErrCode.INVALID_MEMSPACE);
    const cpu = this.machine.cpu;
    let at = 3;
    for (let i = 0; i < count; i++) {
      const size = body[at];
      if (size < 3 || at + 4 > body.length) return this.error(id, ErrCode.INVALID_LENGTH);
      const reg = body[at + 1];
      const value = body.readUInt16LE(at + 2);
      switch (reg) {
        case Reg.A:
          cpu.a = value & 0xff;
          break;
        case Reg.X:
          cpu.x = value & 0xff;
          break;
        case Reg.Y:
          cpu.y = value & 0xff;
          break;
        case Reg.PC:
          cpu.pc = value & 0xffff;
          break;
        case Reg.SP:
          cpu.s = value & 0xff;
          break;
        case Reg.FL:
          cpu.p = (value & 0xef) | 0x20;
          break;
        case Reg.LIN:
        case Reg.CYC:
          break; // accepted, ignored
        default:
          return this.error(id, ErrCode.OBJECT_MISSING); // includes $00/$01: use MEM_SET
      }
      at += size + 1;
    }
    this.reply(0x31, id, encodeRegisters(this.registers()));
  }

  private resourceSet(id: number, body: Buffer): void {
    if (body.length < 2 || body[1] < 1) return this.error(id, ErrCode.INVALID_LENGTH);
    const nameLength = body[1];
    if (
      body.length < 3 + nameLength ||
      body[2 + nameLength] < 1 ||
      body.length < 3 + nameLength + body[2 + nameLength]
    ) {
      return this.error(id, ErrCode.INVALID_LENGTH);
    }
    const type = body[0];
    const name = body.toString('latin1', 2, 2 + nameLength);
    const valueLength = body[2 + nameLength];
    const raw = body.subarray(3 + nameLength, 3 + nameLength + valueLength);
    if (type !== 0 && type !== 1) return this.error(id, ErrCode.INVALID_PARAMETER);
    if (type === 1 && ![1, 2, 4].includes(valueLength)) return this.error(id, ErrCode.INVALID_LENGTH);
    if (!this.resources.has(name)) return this.error(id, ErrCode.OBJECT_MISSING);
    const value = type === 1 ? raw.readUIntLE(0, valueLength) : Number(raw.toString('latin1'));
    if (!Number.isInteger(value)) return this.error(id, ErrCode.FAILURE);
    this.resources.set(name, value);
    this.reply(0x52, id);
  }

  private autostart(id: number, body: Buffer): void {
    if (body.length < 4 || body.length < 4 + body[3]) return this.error(id, ErrCode.INVALID_LENGTH);
    const run = body[0] !== 0;
    const path = body.toString('latin1', 4, 4 + body[3]);
    const m = this.machine;
    try {
      const prg = readRegularFileSync(path, { maxBytes: 0x10000 + 2, what: 'program' });
      if (!this.opts.drive8) m.attachDrive(new HostFolderDrive(dirname(path), (t) => this.opts.onLog?.(t)));
      const loaded = m.autostart(prg, run);
      this.opts.onLog?.(
        `Monitor: autostarting ${path}: loaded $${loaded.load.toString(16)}-$${(loaded.end - 1).toString(16)}${loaded.start !== undefined ? `, SYS ${loaded.start}` : ''}.`,
      );
      this.reply(0xdd, id);
    } catch (err) {
      this.opts.onLog?.(`Monitor: autostart of ${path} failed: ${(err as Error).message}.`);
      this.error(id, ErrCode.FAILURE);
    }
    m.continueRunning();
    this.resume(); // VICE resumes after AUTOSTART in every case
  }
}

function u16(v: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(v & 0xffff, 0);
  return b;
}

function u32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v >>> 0, 0);
  return b;
}
