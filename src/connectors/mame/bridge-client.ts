/**
 * Node side of the MAME Lua bridge. We listen on 127.0.0.1 (random port); the
 * plugin inside MAME connects and proves itself with the token in its `hello`
 * event; we then send a `hello` op with the same token. One JSON object a line;
 * a line with top-level "binary": N is followed by N raw bytes (memory, pixels).
 *
 * While the CPU is held the plugin blocks on its stdin; it says so with an
 * `idle` event and we write "\n" (the doorbell) with the next request.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { fromOtherUser } from '../../core/peer.js';
import {
  RetroError,
  type ErrorCode,
  internalError,
  timedOut,
  targetLost,
  tooLarge,
  mayHaveMutated,
} from '../../core/errors.js';
import { BRIDGE_OPS, type BridgeArgs, type BridgeOp, type BridgeResult } from './bridge-ops.js';

export interface BridgeEvent {
  event: string;
  [key: string]: unknown;
}

export interface BridgeReply<R = Record<string, unknown>> {
  result: R;
  binary?: Buffer;
}

export interface RequestOptions {
  timeoutMs?: number;
  binary?: Uint8Array;
  /** Called synchronously when the reply arrives, before any later message is handled. */
  onReply?: (reply: BridgeReply) => void;
}

const MAX_LINE = 1024 * 1024;
const MAX_BINARY = 64 * 1024 * 1024;
const MAX_PENDING = 256;
/** The plugin's hello (token, version, system, cpu) is ~150 bytes: a peer sending more before it is refused. */
export const MAX_HELLO_BYTES = 512;
/** Connections that may be waiting to say hello at once during the start window. */
export const MAX_UNAUTHENTICATED = 4;
const HELLO_TIMEOUT_MS = 10_000;
const DEFAULT_TIMEOUT_MS = 15_000;
/** Error codes the bridge sends that map 1:1 onto ours. */
const PASSTHROUGH: ReadonlySet<string> = new Set<ErrorCode>([
  'bad_request',
  'bad_address',
  'too_large',
  'not_stopped',
  'not_found',
  'unsupported',
  'not_running',
]);

interface Pending {
  op: string;
  resolve: (reply: BridgeReply) => void;
  reject: (err: RetroError) => void;
  timer: NodeJS.Timeout;
  onReply?: (reply: BridgeReply) => void;
}

/** `binary`: the raw bytes after the event's line (a `frame` event's pixels) */
type Listener = (event: BridgeEvent, binary?: Buffer) => void;

export class BridgeClient {
  readonly token = randomBytes(16).toString('hex');
  private socket?: Socket;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<Listener>();
  private lostError?: RetroError;
  private bridgeSleeping = false;
  private doorbell: () => void = () => {};
  /** called before each op that may change the machine (an expression MAME evaluates may assign) */
  onMutating?: () => void;
  private connectWaiters: Array<{ resolve: () => void; reject: (e: RetroError) => void }> = [];

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  /** Start listening on 127.0.0.1 with a random port. */
  static async listen(): Promise<BridgeClient> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (!address || typeof address === 'string') throw internalError('listening socket has no port');
    const client = new BridgeClient(server, address.port);
    server.maxConnections = MAX_UNAUTHENTICATED; // the kernel queue aside, more are refused at once
    // our own MAME runs as this user: a socket of another user is no plugin of ours
    server.on('connection', (s) => (fromOtherUser(s) ? s.destroy() : client.onConnection(s)));
    return client;
  }

  /** How we wake a bridge that blocks on stdin while the CPU is held. */
  setDoorbell(ring: () => void): void {
    this.doorbell = ring;
  }

  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get connected(): boolean {
    return this.socket !== undefined && !this.lostError;
  }

  /** Resolves once the plugin connected with the right token; rejects on timeout or loss. */
  waitForConnection(timeoutMs: number): Promise<void> {
    if (this.lostError) return Promise.reject(this.lostError);
    if (this.socket) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (e: RetroError) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      const timer = setTimeout(() => {
        this.connectWaiters = this.connectWaiters.filter((w) => w !== waiter);
        reject(timedOut(`The MAME bridge plugin did not connect within ${timeoutMs / 1000} s.`));
      }, timeoutMs);
      this.connectWaiters.push(waiter);
    });
  }

  /** One op of the plugin's table (`bridge-ops.ts`); ops without arguments may omit them. */
  request<K extends BridgeOp>(
    op: K,
    ...[args, options = {}]: Record<string, never> extends BridgeArgs<K>
      ? [args?: BridgeArgs<K>, options?: RequestOptions]
      : [args: BridgeArgs<K>, options?: RequestOptions]
  ): Promise<BridgeReply<BridgeResult<K>>> {
    if (this.lostError) return Promise.reject(this.lostError);
    if (!this.socket) return Promise.reject(targetLost('The MAME bridge is not connected.'));
    if (this.pending.size >= MAX_PENDING) {
      return Promise.reject(tooLarge(`More than ${MAX_PENDING} requests are waiting for MAME.`));
    }
    if (BRIDGE_OPS[op].mutating || op === 'eval') this.onMutating?.();
    const id = this.nextId++;
    const binary = options.binary
      ? Buffer.from(options.binary.buffer, options.binary.byteOffset, options.binary.byteLength)
      : undefined;
    const head = JSON.stringify({ id, op, args: args ?? {}, ...(binary ? { binary: binary.length } : {}) }) + '\n';
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise<BridgeReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          BRIDGE_OPS[op].mutating
            ? mayHaveMutated(
                `MAME did not answer "${op}" within ${timeoutMs} ms; it may still have carried it out, so the emulator state may have changed. It was not retried.`,
                { op },
              )
            : timedOut(`MAME did not answer "${op}" within ${timeoutMs} ms; nothing was changed.`, {
                op,
              }),
        );
      }, timeoutMs);
      this.pending.set(id, { op, resolve, reject, timer, onReply: options.onReply });
      this.socket!.write(binary ? Buffer.concat([Buffer.from(head), binary]) : head);
      if (this.bridgeSleeping) this.ring();
    });
  }

  /** The process died or the connection dropped: fail everything now and later. */
  markLost(reason: string): void {
    if (this.lostError) return;
    this.lostError = targetLost(reason);
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(this.lostError);
    }
    for (const w of this.connectWaiters.splice(0)) w.reject(this.lostError);
    this.socket?.destroy();
    this.server.close();
  }

  close(): void {
    this.markLost('The MAME bridge connection was closed.');
  }

  private ring(): void {
    this.bridgeSleeping = false;
    try {
      this.doorbell();
    } catch {
      // stdin gone: the bridge falls back to sleeping, and process exit is reported elsewhere
    }
  }

  private emit(event: BridgeEvent, binary?: Buffer): void {
    for (const l of this.listeners) {
      try {
        l(event, binary);
      } catch {
        // a listener's bug must not break the connection
      }
    }
  }

  private reportError(message: string): void {
    this.emit({ event: 'bridge_error', message });
  }

  private onConnection(socket: Socket): void {
    if (this.socket || this.lostError) {
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    let authed = false;
    let unauthenticatedBytes = 0;
    const helloTimer = setTimeout(() => socket.destroy(), HELLO_TIMEOUT_MS);
    const parser = new FrameParser(
      (msg, binary) => {
        if (!authed) {
          // The first message must be the plugin's hello carrying our token.
          if (msg.event !== 'hello' || msg.token !== this.token || binary !== undefined || msg.binary !== undefined) {
            socket.destroy();
            return;
          }
          authed = true;
          clearTimeout(helloTimer);
          this.socket = socket;
          this.server.close();
          this.emit(msg as BridgeEvent);
          for (const w of this.connectWaiters.splice(0)) w.resolve();
          return;
        }
        this.onMessage(msg, binary);
      },
      (problem) => (authed ? this.reportError(problem) : socket.destroy()),
    );
    socket.on('data', (chunk: Buffer) => {
      if (!authed && (unauthenticatedBytes += chunk.length) > MAX_HELLO_BYTES) {
        // checked before parsing: a stranger cannot make us buffer a big line or payload
        const complete = chunk.indexOf(0x0a);
        if (complete < 0 || unauthenticatedBytes - chunk.length + complete + 1 > MAX_HELLO_BYTES) {
          socket.destroy();
          return;
        }
      }
      try {
        parser.push(chunk);
      } catch (err) {
        // a frame we cannot take ends this connection (target_lost), never the process
        if (this.socket === socket)
          this.markLost(`The MAME bridge sent a malformed message: ${(err as Error).message}`);
        else socket.destroy();
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(helloTimer);
      if (this.socket === socket) this.markLost('The connection to MAME was lost.');
    });
  }

  private onMessage(msg: Record<string, unknown>, binary: Buffer | undefined): void {
    if (typeof msg.event === 'string') {
      if (msg.event === 'idle') {
        // The bridge is about to block on stdin. Requests it has not answered yet
        // may have arrived after its last look, so wake it for them now.
        if (this.pending.size > 0) this.ring();
        else this.bridgeSleeping = true;
        return;
      }
      this.emit(msg as BridgeEvent, binary);
      return;
    }
    const id = msg.id;
    const p = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!p) {
      if (typeof id !== 'number') this.reportError(`message without id or event: ${JSON.stringify(msg).slice(0, 200)}`);
      return; // a late reply to a request that already timed out
    }
    this.pending.delete(id as number);
    clearTimeout(p.timer);
    if (msg.ok === true) {
      const reply: BridgeReply = { result: (msg.result ?? {}) as Record<string, unknown>, binary };
      p.onReply?.(reply);
      p.resolve(reply);
    } else {
      const e = (msg.error ?? {}) as { code?: string; message?: string };
      const code: ErrorCode = e.code && PASSTHROUGH.has(e.code) ? (e.code as ErrorCode) : 'internal';
      p.reject(new RetroError(code, e.message ?? `MAME refused "${p.op}".`, { op: p.op, bridgeCode: e.code }));
    }
  }
}

/** Splits the byte stream into JSON lines, each optionally followed by a binary payload. */
class FrameParser {
  private chunks: Buffer[] = [];
  private size = 0;
  private waitingFor?: { msg: Record<string, unknown>; bytes: number };

  constructor(
    private readonly onMessage: (msg: Record<string, unknown>, binary?: Buffer) => void,
    private readonly onProblem: (message: string) => void,
  ) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    for (;;) {
      if (this.waitingFor) {
        if (this.size < this.waitingFor.bytes) return;
        const { msg, bytes } = this.waitingFor;
        this.waitingFor = undefined;
        this.onMessage(msg, this.take(bytes));
        continue;
      }
      const buf = this.peekAll();
      const nl = buf.indexOf(0x0a);
      if (nl < 0) {
        if (this.size > MAX_LINE) {
          this.onProblem(`a line from MAME exceeded ${MAX_LINE} bytes; dropped it`);
          this.take(this.size);
        }
        return;
      }
      const line = this.take(nl + 1)
        .subarray(0, nl)
        .toString('utf8');
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        this.onProblem(`malformed line from MAME: ${line.slice(0, 200)}`);
        continue;
      }
      if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
        this.onProblem(`unexpected message from MAME: ${line.slice(0, 200)}`);
        continue;
      }
      const m = msg as Record<string, unknown>;
      const bytes = m.binary;
      if (bytes === undefined || bytes === null) {
        this.onMessage(m);
      } else if (typeof bytes === 'number' && Number.isInteger(bytes) && bytes >= 0 && bytes <= MAX_BINARY) {
        this.waitingFor = { msg: m, bytes };
      } else {
        this.onProblem(`bad binary length from MAME: ${String(bytes)}`);
        this.onMessage(m);
      }
    }
  }

  private peekAll(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.size)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private take(n: number): Buffer {
    const all = this.peekAll();
    const head = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.size = rest.length;
    return head;
  }
}
