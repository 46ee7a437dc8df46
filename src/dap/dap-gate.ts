/**
 * The debug adapter's door when it listens on TCP (`retro-debug serve`): a
 * connection must speak DAP framing from its first byte (so an HTTP request
 * a web page sends is cut off at once), may send only `initialize` until it
 * proves itself, and proves itself with the secret in its `launch` or
 * `attach` arguments (`"dapToken": "…"`). Anything else gets an error
 * response and the connection is closed; nothing reaches the adapter.
 */
import { timingSafeEqual } from 'node:crypto';
import { PassThrough, type Duplex } from 'node:stream';

/** The launch/attach attribute that carries the secret (declared in launch-schema.ts, read only here). */
export const DAP_TOKEN_ATTRIBUTE = 'dapToken';

/** A DAP header block longer than this before any message is not a DAP client. */
const MAX_HEADER_BYTES = 1024;
/** Messages before authentication are small (initialize, launch/attach arguments). */
const MAX_UNAUTHENTICATED_BODY = 256 * 1024;
const FRAMING = /^content-length:/i;

function sameSecret(given: unknown, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function errorResponse(seq: number, command: string, message: string): Buffer {
  const body = JSON.stringify({
    seq: 0,
    type: 'response',
    request_seq: seq,
    success: false,
    command,
    message,
    body: { error: { id: 3022, format: message, showUser: true } },
  });
  return Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

/**
 * Returns the stream the adapter should read: bytes of `socket` pass once
 * the gate is satisfied; until then each message is checked here.
 */
export function gateDap(
  socket: Duplex,
  token: string,
  onRefused?: (why: string) => void,
  onOpen?: () => void,
): PassThrough {
  const toAdapter = new PassThrough();
  let pending = Buffer.alloc(0);
  let open = false;
  const refuse = (why: string, seq = 0, command = 'unknown') => {
    onRefused?.(why);
    if (seq) socket.write(errorResponse(seq, command, why));
    socket.end();
    setTimeout(() => socket.destroy(), 100).unref();
  };
  const take = (chunk: Buffer) => {
    if (open) return void toAdapter.write(chunk);
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const head = pending.toString('latin1', 0, Math.min(pending.length, MAX_HEADER_BYTES));
      if (pending.length >= 15 && !FRAMING.test(head)) return refuse('not a DAP client (no Content-Length header)');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (pending.length > MAX_HEADER_BYTES) return refuse('DAP header too long');
        return;
      }
      const length = Number(/content-length:\s*(\d+)/i.exec(head.slice(0, end))?.[1]);
      if (!Number.isInteger(length) || length > MAX_UNAUTHENTICATED_BODY) return refuse('bad Content-Length');
      if (pending.length < end + 4 + length) return;
      const raw = pending.subarray(0, end + 4 + length);
      let msg: { seq?: number; type?: string; command?: string; arguments?: Record<string, unknown> };
      try {
        msg = JSON.parse(raw.subarray(end + 4).toString('utf8'));
      } catch {
        return refuse('a DAP message that is not JSON');
      }
      const seq = typeof msg.seq === 'number' ? msg.seq : 0;
      const command = String(msg.command ?? 'unknown');
      if (msg.type === 'request' && command === 'initialize') {
        // capabilities only: nothing changes, nothing is revealed about sessions
      } else if (msg.type === 'request' && (command === 'launch' || command === 'attach')) {
        if (!sameSecret(msg.arguments?.[DAP_TOKEN_ATTRIBUTE], token))
          return refuse(
            `This debug adapter needs its secret: add "dapToken" (from the token file retro-debug serve printed) to the ${command} configuration.`,
            seq,
            command,
          );
        open = true;
        onOpen?.();
      } else {
        return refuse(`"${command}" before launch/attach with the dapToken is refused.`, seq, command);
      }
      toAdapter.write(raw);
      pending = pending.subarray(raw.length);
      if (open) {
        if (pending.length) toAdapter.write(pending);
        pending = Buffer.alloc(0);
        return;
      }
    }
  };
  socket.on('data', take);
  socket.on('end', () => toAdapter.end());
  return toAdapter;
}
