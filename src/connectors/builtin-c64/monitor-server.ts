/**
 * The built-in C64 serves VICE's binary monitor protocol (in process to its
 * session; on loopback TCP only on request) with VICE's code-level behaviour
 * (shared/reference/vice-binary-monitor.md): one client at a time (a few
 * more wait, unserviced), any command stops a running machine first (0x31 +
 * 0x62 events), resuming commands answer and then send 0x63, errors are type
 * 0x00 with the request id, a bad API byte drops the 6-byte prefix, JAM sends
 * an empty 0x61. Deliberate differences: the stop comes at the next
 * instruction, not frame; no drives (memspaces 1-4 are "invalid memspace";
 * device 8 is a host folder at KERNAL level); snapshots are our own format, CPU
 * history comes from the recorded history; display get answers the fixed (r46020) layout; the waiting
 * queue is bounded; AUTOSTART reads only inside autostartRoots.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { fromOtherUser } from '../../core/peer.js';
import type { Duplex } from 'node:stream';
import { PEPTO_PAL } from '../../machines/c64/pepto-palette.js';
import { VICE_DEFAULT_PAL } from '../../machines/c64/vice-palette.js';
import {
  C64_BANKS,
  Cmd,
  ErrCode,
  EVENT_ID,
  Evt,
  REQUEST_HEADER,
  IO_SIMULATION_DEVICE,
  STX,
  encodeBanks,
  encodeCheckpoint,
  encodeDisplay,
  encodePalette,
  encodeRegisterNames,
  encodeRegisters,
  encodeResponse,
} from '../vice/protocol.js';
import { BuiltinC64 } from './c64.js';
import { BuiltinFrames } from './frame-source.js';
import { SlicePacer } from './pacer.js';
import { duplexPair } from './monitor-link.js';
import {
  REGISTER_NAMES,
  VERSION,
  autostart,
  checkpointGet,
  conditionSet,
  cpuHistory,
  machineRegisters,
  memGet,
  memSet,
  registersSet,
  resourceSet,
  u16,
  u32,
  type Answer,
} from './monitor-commands.js';
import { openDrive8 } from './d64-drive.js';
import { DISPLAY, renderDisplay } from './video.js';
import { MachineHistory } from './history/machine-history.js';
import type { HistoryBudget } from './history/recorder.js';
import { dumpAnswer, undumpAnswer } from './snapshot.js';

/** Requests larger than this close the connection (VICE has no bound; we keep memory bounded). */
export const MAX_REQUEST_BODY = 4 * 1024 * 1024;
/** TCP connections waiting for the one client to leave; more are refused (VICE's backlog is unbounded). */
export const MAX_WAITING = 2;

export interface ServerOptions {
  port?: number;
  /** true: run at the real C64's speed; false (default): as fast as possible */
  realtime?: boolean;
  /** the monitor's log lines ("Monitor: …" in VICE's log) */
  onLog?: (text: string) => void;
  /** the machine's own messages (device not present, a KERNAL routine it lacks, JAM); default: onLog */
  onMachineMessage?: (text: string) => void;
  /** QUIT was received */
  onQuit?: () => void;
  /** the in-process client left (the server has closed) */
  onOwnerGone?: () => void;
  /** device 8: a host folder or a .d64 image (default: the folder of the program autostarted) */
  drive8?: string;
  /** AUTOSTART reads programs only inside these folders (real paths); absent: anywhere (the VICE test peer) */
  autostartRoots?: readonly string[];
  /** the recorded history's bounds (default DEFAULT_BUDGET) */
  history?: HistoryBudget;
  /** DUMP writes and UNDUMP reads snapshots only inside these folders (real paths; default: the temp folder) */
  snapshotRoots?: readonly string[];
}

export class BuiltinMonitorServer {
  readonly machine: BuiltinC64;
  private server?: Server;
  private client?: Duplex;
  private readonly waiting: Socket[] = [];
  /** the in-process client: when it leaves, the machine stops serving (the session is over) */
  private owner?: Duplex;
  private inbox = Buffer.alloc(0);
  private running = true;
  private readonly pacer: SlicePacer;
  /** live viewers, fed from the machine's frame clock (no monitor command, no stop) */
  readonly frames: BuiltinFrames;
  /** the machine's recorded past (history/) */
  readonly history: MachineHistory;
  private readonly resources = new Map<string, number>([
    ['VICIIBorderMode', 0],
    ['JAMAction', 0],
    ['WarpMode', 0],
    ['VICIIExternalPalette', 0],
    // VICE's default device in both control ports is the joystick (1); JOYPORT_SET needs the I/O simulation (37)
    ['JoyPort1Device', 1],
    ['JoyPort2Device', 1],
  ]);
  private closed = false;

  private readonly machineMessage = (text: string) => (this.opts.onMachineMessage ?? this.opts.onLog)?.(text);

  constructor(private readonly opts: ServerOptions = {}) {
    this.machine = new BuiltinC64({
      checkpointHit: (info) => this.event(Evt.CHECKPOINT, encodeCheckpoint(info)),
      log: this.machineMessage,
    });
    this.resources.set('WarpMode', opts.realtime ? 0 : 1);
    // a person watching gets real speed unless the viewer asks for warp; otherwise the WarpMode resource decides
    this.pacer = new SlicePacer(
      this.machine,
      () => !this.frames.wantsRealtime && (this.resources.get('WarpMode') ?? 0) !== 0,
      (cause) => this.stopped(cause),
    );
    this.frames = new BuiltinFrames(
      this.machine,
      () => (this.resources.get('VICIIExternalPalette') ? PEPTO_PAL : VICE_DEFAULT_PAL),
      () => undefined,
    );
    if (opts.drive8) this.machine.attachDrive(openDrive8(opts.drive8, this.machineMessage));
    this.history = new MachineHistory(this.machine, opts.history);
  }

  /**
   * The session's own connection, in process: no port, no other client. The
   * machine starts running at once, as x64sc does; when this client leaves,
   * the server closes (nothing keeps serving a machine its session lost).
   */
  connectInProcess(): Duplex {
    const [ours, theirs] = duplexPair();
    this.owner = ours;
    this.adopt(ours);
    this.schedule();
    return theirs;
  }

  /**
   * Also (or only) serve TCP on 127.0.0.1: one client at a time, at most
   * MAX_WAITING more queued. Resolves with the port.
   */
  async listen(port = this.opts.port ?? 0): Promise<number> {
    const server = createServer((socket) => this.onConnection(socket));
    server.maxConnections = 1 + MAX_WAITING;
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.schedule();
    const address = server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.running = false;
    this.pacer.stop();
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
    // another user of this machine gets nothing: the monitor has no secret of its own
    if (this.closed || fromOtherUser(socket) || (this.client && this.waiting.length >= MAX_WAITING)) {
      socket.destroy();
      return;
    }
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

  private adopt(socket: Duplex): void {
    this.client = socket;
    this.inbox = Buffer.alloc(0);
    socket.on('data', (chunk) => this.onData(socket, chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => this.onClose(socket));
    socket.resume();
  }

  private onClose(socket: Duplex): void {
    if (this.client !== socket || this.closed) return;
    this.client = undefined;
    if (socket === this.owner) {
      void this.close();
      this.opts.onOwnerGone?.();
      return;
    }
    if (!this.running) this.resume(); // VICE leaves the monitor when its client goes
    const next = this.waiting.shift();
    if (next) this.adopt(next);
  }

  private onData(socket: Duplex, chunk: Buffer): void {
    if (socket !== this.client) return;
    this.inbox = Buffer.concat([this.inbox, chunk]);
    try {
      this.drain();
    } catch (err) {
      // a request we cannot take ends that connection, never the process
      this.opts.onLog?.(`Monitor: closing the connection after a malformed request: ${(err as Error).message}`);
      socket.destroy();
    }
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
      this.history.commandDone(command);
      if (this.running) {
        // a resuming command left the rest for the next stop, as VICE does at its next frame
        if (this.inbox.length) setImmediate(() => this.drain());
        return;
      }
    }
  }

  // ---- run control ----

  private schedule(): void {
    if (this.running && !this.closed) this.pacer.schedule();
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
    this.pacer.stop();
    this.event(Evt.REGISTERS, encodeRegisters(this.registers()));
    this.event(Evt.STOPPED, u16(this.machine.cpu.pc));
  }

  private resume(): void {
    this.history.resumed();
    this.running = true;
    this.event(Evt.RESUMED, u16(this.machine.cpu.pc));
    if (!this.closed) this.pacer.start();
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

  private answer(id: number, a: Answer): void {
    if ('error' in a) this.error(id, a.error);
    else this.reply(a.type, id, a.body);
  }

  private readonly log = (text: string) => this.opts.onLog?.(text);

  /** The registers as they are now, sent as an event (the machine moved while stopped: time travel). */
  announceRegisters(): void {
    this.event(Evt.REGISTERS, encodeRegisters(this.registers()));
  }

  private registers() {
    return machineRegisters(this.machine);
  }

  /** One command, answered before the next is read (as VICE's single thread does). */
  private handle(api: number, id: number, command: number, body: Buffer): void {
    const m = this.machine;
    switch (command) {
      case Cmd.MEM_GET:
        return this.answer(id, memGet(m, body, this.log));
      case Cmd.MEM_SET:
        return this.answer(id, memSet(m, body, this.log));
      case Cmd.CHECKPOINT_GET:
        return this.answer(id, checkpointGet(m, body));
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
      case Cmd.CONDITION_SET:
        return this.answer(id, conditionSet(m, body, this.log));
      case Cmd.REGISTERS_GET:
        if (body.length < 1) return this.error(id, ErrCode.INVALID_LENGTH);
        if (body[0] !== 0) return this.error(id, ErrCode.INVALID_MEMSPACE);
        return this.reply(0x31, id, encodeRegisters(this.registers()));
      case Cmd.REGISTERS_SET:
        return this.answer(id, registersSet(m, body));
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
        // VICE's internal palette by default; VICIIExternalPalette=1 is its pepto-pal file
        return this.reply(
          0x91,
          id,
          encodePalette(
            (this.resources.get('VICIIExternalPalette') ? PEPTO_PAL : VICE_DEFAULT_PAL).map((c) => [c[0], c[1], c[2]]),
          ),
        );
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
        // as VICE: only the I/O simulation device has lines to set; with another device it is accepted and does nothing
        if (this.resources.get(`JoyPort${port + 1}Device`) === IO_SIMULATION_DEVICE) m.bus.joy[port] = value & 0x1f;
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
      case Cmd.RESOURCE_SET: {
        this.answer(id, resourceSet(this.resources, body));
        // a port whose device is no longer the I/O simulation has nothing pressed from it
        for (const port of [0, 1] as const)
          if (this.resources.get(`JoyPort${port + 1}Device`) !== IO_SIMULATION_DEVICE) m.bus.joy[port] = 0x1f;
        return;
      }
      case Cmd.DUMP:
        if (body.length < 3 || body.length < 3 + body[2]) return this.error(id, ErrCode.INVALID_LENGTH);
        return this.answer(id, dumpAnswer(m, body.toString('utf8', 3, 3 + body[2]), this.opts, this.log));
      case Cmd.UNDUMP:
        if (body.length < 1 || body.length < 1 + body[0]) return this.error(id, ErrCode.INVALID_LENGTH);
        return this.answer(id, undumpAnswer(m, body.toString('utf8', 1, 1 + body[0]), this.opts, this.log));
      case Cmd.CPUHISTORY_GET:
        return this.answer(id, cpuHistory(this.history, body, this.log));
      default:
        return this.error(id, ErrCode.INVALID_TYPE);
    }
  }

  private autostart(id: number, body: Buffer): void {
    if (body.length < 4 || body.length < 4 + body[3]) return this.error(id, ErrCode.INVALID_LENGTH);
    this.answer(id, autostart(this.machine, body, { ...this.opts, log: this.log, machineLog: this.machineMessage }));
    this.machine.continueRunning();
    this.resume(); // VICE resumes after AUTOSTART in every case
  }
}
