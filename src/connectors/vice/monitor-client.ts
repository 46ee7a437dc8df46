/**
 * Client of VICE's binary monitor: framing by the header's body length,
 * unique request ids, replies (and type-0x00 errors) matched by id,
 * unsolicited events by id 0xFFFFFFFF. Reads (PIPELINED) go out back to back,
 * before earlier ones are answered: VICE answers commands queued on its socket
 * in order within one stop. Every other command goes alone, after all before it
 * are answered and before any after it is sent: one that resumes would leave
 * later ones for the next stop.
 *
 * Three kinds of timeout stay distinguishable (details.kind): 'connector'
 * (could not connect), 'protocol' (no reply to a request in time) and
 * 'transport' (the socket failed or closed, possibly mid-reply). A request
 * that may change the machine is never retried; its timeout says what may
 * have changed.
 */
import { sleep } from '../../core/async.js';
import { connect as netConnect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { RetroError, launchFailed, timedOut, mayHaveMutated, targetLost } from '../../core/errors.js';
import { Cmd, ERROR_TEXT, EVENT_ID, RESPONSE_HEADER, STX, encodeRequest, type Response } from './protocol.js';

/** Replies larger than this are refused as garbage (a full PAL display is 157 KB). */
export const MAX_RESPONSE_BODY = 8 * 1024 * 1024;
/** Events kept for a listener that is slow to subscribe. */
const MAX_PENDING_EVENTS = 1024;

export type MonitorEvent = Response;

/** What a mutating command may have changed, named in its timeout error. */
const MUTATION: Partial<Record<number, string>> = {
  [Cmd.MEM_SET]: 'memory may have been written',
  [Cmd.CHECKPOINT_SET]: 'a checkpoint may have been created (and, if temporary, the machine resumed)',
  [Cmd.CHECKPOINT_DELETE]: 'the checkpoint may have been deleted',
  [Cmd.CHECKPOINT_TOGGLE]: 'the checkpoint may have been switched',
  [Cmd.CONDITION_SET]: 'the condition may have been set',
  [Cmd.REGISTERS_SET]: 'registers may have been changed',
  [Cmd.RESOURCE_SET]: 'the resource may have been changed',
  [Cmd.ADVANCE_INSTRUCTIONS]: 'the machine may be running or have stepped',
  [Cmd.KEYBOARD_FEED]: 'the keys may have been queued',
  [Cmd.EXECUTE_UNTIL_RETURN]: 'the machine may be running',
  [Cmd.EXIT]: 'the machine may be running',
  [Cmd.RESET]: 'the machine may have been reset',
  [Cmd.AUTOSTART]: 'the machine may have been reset and the program loaded and started',
  [Cmd.JOYPORT_SET]: 'the joystick port may have been set',
  [Cmd.USERPORT_SET]: 'the user port may have been set',
  [Cmd.QUIT]: 'VICE may have quit',
  [Cmd.UNDUMP]: 'a snapshot may have been loaded',
  [Cmd.DUMP]: 'a snapshot may have been written',
};

/** A monitor error reply (type 0x00) as a RetroError naming the command and code. */
export class MonitorErrorReply extends RetroError {
  constructor(
    readonly command: number,
    readonly errorCode: number,
  ) {
    super(
      errorCode === 0x83
        ? 'unsupported'
        : errorCode === 0x80 || errorCode === 0x81
          ? 'bad_request'
          : errorCode === 0x01
            ? 'not_found'
            : errorCode === 0x02
              ? 'bad_address'
              : 'internal',
      `VICE answered command 0x${command.toString(16).padStart(2, '0')} with error 0x${errorCode.toString(16).padStart(2, '0')}: ${ERROR_TEXT[errorCode] ?? 'unknown error'}.`,
      { command, vice_error: errorCode },
    );
  }
}

/** Side-effect-free commands that never resume the machine: they may share a flight. */
const PIPELINED = new Set<number>([Cmd.MEM_GET, Cmd.REGISTERS_GET]);

interface Pending {
  id: number;
  command: number;
  replies: Response[];
  /** CHECKPOINT_LIST: collect 0x11 replies until the 0x14 one */
  until?: number;
  resolve: (r: Response[]) => void;
  reject: (e: unknown) => void;
  timer: NodeJS.Timeout;
}

export interface RequestOptions {
  timeoutMs?: number;
}

export class MonitorClient {
  /** received bytes not yet taken, as they came (joined only when a frame is whole: reassembly stays linear) */
  private inbox: Buffer[] = [];
  private inboxBytes = 0;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly queue: { shared: boolean; start: () => void }[] = [];
  private readonly listeners = new Set<(e: MonitorEvent) => void>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private closedReason?: string;
  private backlog: MonitorEvent[] = [];

  private constructor(
    private readonly socket: Duplex,
    readonly defaultTimeoutMs: number,
  ) {
    (socket as Partial<Socket>).setNoDelay?.(true);
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', (err) => this.fail(`connection error: ${err.message}`));
    socket.on('close', () => this.fail('VICE closed the connection'));
  }

  /** Connects, retrying until `timeoutMs` (VICE opens its port a moment after starting). */
  static async connect(
    host: string,
    port: number,
    opts: { timeoutMs?: number; requestTimeoutMs?: number; isAlive?: () => string | undefined } = {},
  ): Promise<MonitorClient> {
    const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
    let last = '';
    while (Date.now() < deadline) {
      const dead = opts.isAlive?.();
      if (dead)
        throw launchFailed(`VICE exited before its monitor port opened: ${dead}`, {
          kind: 'connector',
        });
      try {
        const socket = await new Promise<Socket>((resolve, reject) => {
          const s = netConnect({ host, port }, () => {
            s.off('error', reject);
            resolve(s);
          });
          s.once('error', reject);
        });
        return new MonitorClient(socket, opts.requestTimeoutMs ?? 10_000);
      } catch (err) {
        last = (err as Error).message;
        await sleep(100);
      }
    }
    throw timedOut(
      `Could not connect to the VICE binary monitor at ${host}:${port} within ${opts.timeoutMs ?? 10_000} ms (${last}); is VICE running with -binarymonitor on that address?`,
      { kind: 'connector', host, port },
    );
  }

  /** A client over an already connected stream (the built-in C64's in-process connection). */
  static over(stream: Duplex, opts: { requestTimeoutMs?: number } = {}): MonitorClient {
    return new MonitorClient(stream, opts.requestTimeoutMs ?? 10_000);
  }

  get closed(): string | undefined {
    return this.closedReason;
  }

  onEvent(listener: (e: MonitorEvent) => void): () => void {
    this.listeners.add(listener);
    const backlog = this.backlog;
    this.backlog = [];
    for (const e of backlog) listener(e);
    return () => this.listeners.delete(listener);
  }

  onClose(listener: (reason: string) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** One request and its reply body. Errors come back as MonitorErrorReply. */
  async request(command: number, body: Uint8Array = new Uint8Array(0), opts: RequestOptions = {}): Promise<Buffer> {
    const [reply] = await this.exchange(command, body, undefined, opts);
    return reply.body;
  }

  /** CHECKPOINT_LIST: the 0x11 bodies that precede the final 0x14 reply. */
  async requestList(command: number, finalType: number, opts: RequestOptions = {}): Promise<Buffer[]> {
    const replies = await this.exchange(command, new Uint8Array(0), finalType, opts);
    return replies.slice(0, -1).map((r) => r.body);
  }

  close(): void {
    this.socket.destroy();
    this.fail('the connection was closed by us');
  }

  private exchange(
    command: number,
    body: Uint8Array,
    until: number | undefined,
    opts: RequestOptions,
  ): Promise<Response[]> {
    return new Promise<Response[]>((resolve, reject) => {
      const start = () => {
        if (this.closedReason) {
          reject(this.lost(command));
          return;
        }
        const id = this.allocateId();
        const timeoutMs = opts.timeoutMs ?? this.defaultTimeoutMs;
        const timer = setTimeout(() => {
          if (!this.pending.delete(id)) return;
          reject(this.timeout(command, timeoutMs));
          // the late reply (if any) is dropped by id; the stream stays in sync
          this.next();
        }, timeoutMs);
        this.pending.set(id, {
          id,
          command,
          replies: [],
          until,
          timer,
          resolve: (r) => {
            clearTimeout(timer);
            resolve(r);
            this.next();
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
            this.next();
          },
        });
        this.socket.write(encodeRequest(id, command, body));
      };
      this.queue.push({ shared: PIPELINED.has(command), start });
      this.next();
    });
  }

  /** Sends what may go now, in order: a read joins reads under way; anything else waits until none is. */
  private next(): void {
    while (this.queue.length) {
      const head = this.queue[0];
      const busy = this.pending.size > 0;
      if (busy && !(head.shared && [...this.pending.values()].every((p) => PIPELINED.has(p.command)))) return;
      this.queue.shift();
      head.start();
    }
  }

  private allocateId(): number {
    const id = this.nextId;
    this.nextId = this.nextId >= 0xfffffffe ? 1 : this.nextId + 1;
    return id;
  }

  private timeout(command: number, timeoutMs: number): RetroError {
    const effect = MUTATION[command];
    const name = `0x${command.toString(16).padStart(2, '0')}`;
    return effect
      ? mayHaveMutated(`VICE did not answer command ${name} within ${timeoutMs} ms; ${effect}. It was not retried.`, {
          kind: 'protocol',
          command,
          timeout_ms: timeoutMs,
        })
      : timedOut(`VICE did not answer command ${name} within ${timeoutMs} ms; nothing was changed by it.`, {
          kind: 'protocol',
          command,
          timeout_ms: timeoutMs,
        });
  }

  private lost(command?: number): RetroError {
    const effect = command !== undefined ? MUTATION[command] : undefined;
    return targetLost(
      `The VICE monitor connection is gone (${this.closedReason ?? 'closed'})${effect ? `; ${effect}` : ''}.`,
      { kind: 'transport', command },
    );
  }

  /** A malformed frame (or a listener that cannot take it) ends this connection, never the process. */
  private onData(chunk: Buffer): void {
    try {
      this.take(chunk);
    } catch (err) {
      this.protocolError(`a malformed message: ${(err as Error).message}`);
    }
  }

  private take(chunk: Buffer): void {
    if (this.closedReason) return;
    this.inbox.push(chunk);
    this.inboxBytes += chunk.length;
    while (this.inboxBytes >= RESPONSE_HEADER) {
      const head = this.inboxHead(RESPONSE_HEADER);
      if (head[0] !== STX) {
        this.protocolError(
          `a reply did not start with STX (0x${head[0].toString(16).padStart(2, '0')}); this is not a VICE binary monitor, or the stream is corrupt`,
        );
        return;
      }
      const length = head.readUInt32LE(2);
      if (length > MAX_RESPONSE_BODY) {
        this.protocolError(`a reply announced ${length} body bytes, more than the ${MAX_RESPONSE_BODY} accepted`);
        return;
      }
      if (this.inboxBytes < RESPONSE_HEADER + length) return;
      const frame = this.inboxHead(RESPONSE_HEADER + length);
      const rest = frame.subarray(RESPONSE_HEADER + length);
      this.inbox = rest.length ? [rest] : [];
      this.inboxBytes = rest.length;
      this.dispatch({
        type: frame[6],
        error: frame[7],
        requestId: frame.readUInt32LE(8),
        body: Buffer.from(frame.subarray(RESPONSE_HEADER, RESPONSE_HEADER + length)),
      });
      if (this.closedReason) return;
    }
  }

  /** The first chunk, holding at least `bytes` (the chunks are joined into one when it does not yet). */
  private inboxHead(bytes: number): Buffer {
    if (this.inbox[0].length < bytes) this.inbox = [Buffer.concat(this.inbox)];
    return this.inbox[0];
  }

  private dispatch(r: Response): void {
    if (r.requestId === EVENT_ID) {
      if (this.listeners.size === 0) {
        if (this.backlog.length < MAX_PENDING_EVENTS) this.backlog.push(r);
        return;
      }
      for (const l of [...this.listeners]) l(r);
      return;
    }
    const p = this.pending.get(r.requestId);
    if (!p) return; // a late reply to a timed-out request, or RESOURCE_GET's second error
    this.pending.delete(p.id);
    if (r.type === 0x00 && r.error !== 0) {
      p.reject(new MonitorErrorReply(p.command, r.error));
      return;
    }
    p.replies.push(r);
    if (p.until !== undefined && r.type !== p.until) {
      this.pending.set(p.id, p);
      return;
    }
    p.resolve(p.replies);
  }

  private protocolError(why: string): void {
    this.closedReason = `protocol error: ${why}`;
    this.socket.destroy();
    this.fail(this.closedReason);
  }

  private fail(reason: string): void {
    if (!this.closedReason) this.closedReason = reason;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) {
      clearTimeout(p.timer);
      p.reject(this.lost(p.command));
    }
    const queued = this.queue.splice(0);
    for (const q of queued) q.start();
    for (const l of [...this.closeListeners]) {
      this.closeListeners.delete(l);
      l(this.closedReason);
    }
  }
}
