// VICE's own quirks, which the built-in C64 does not reproduce, replayed to
// the client from frames written as VICE 3.x sends them (byte layouts from
// shared/reference/vice-binary-monitor.md §4, §7.14, §7.22, §8, §12.1):
// error replies of type 0x00, RESOURCE_GET's double error, JAM without a
// body, display-get bodies 4 bytes short (builds before r46020), and the
// handshake refusing a VICE that lacks what we need.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { MonitorClient, MonitorErrorReply } from '../../src/connectors/vice/monitor-client.js';
import { ViceTarget } from '../../src/connectors/vice/vice-target.js';
import {
  Cmd,
  REQUEST_HEADER,
  encodeBanks,
  encodeRegisterNames,
  encodeRegisters,
  encodeResponse,
  Reg,
} from '../../src/connectors/vice/protocol.js';
import type { RetroError } from '../../src/core/errors.js';
import type { StopInfo } from '../../src/core/target.js';

const hexFrame = (h: string) => Buffer.from(h.replace(/\s+/g, ''), 'hex');

/** Frames as VICE writes them: STX, API 2, body length, type, error, request id, body. */
const RECORDED = {
  /** error reply to request id 7: type 0x00, error 0x81, empty body */
  invalidParameter: (id: number) => hexFrame(`02 02 00000000 00 81 ${le32(id)}`),
  /** RESOURCE_GET's bug: 0x80 and then 0x01, both for the same request id */
  resourceDoubleError: (id: number) => hexFrame(`02 02 00000000 00 80 ${le32(id)}  02 02 00000000 00 01 ${le32(id)}`),
  /** JAM event: header says 0 body bytes (the documented PC is not sent) */
  jam: hexFrame('02 02 00000000 61 00 ffffffff'),
};

function le32(v: number): string {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v >>> 0, 0);
  return b.toString('hex');
}

const REGISTERS = encodeRegisterNames([
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
]);
const REG_VALUES = encodeRegisters([
  { id: Reg.PC, value: 0x080d },
  { id: Reg.A, value: 0 },
  { id: Reg.X, value: 0 },
  { id: Reg.Y, value: 0 },
  { id: Reg.SP, value: 0xf6 },
  { id: Reg.FL, value: 0x20 },
]);

/** A scripted VICE: answers the handshake as a stopped x64sc of `version`, the rest from `extra`. */
async function fakeVice(
  version: number[],
  extra: (cmd: number, id: number, body: Buffer, s: Socket) => boolean = () => false,
) {
  const server = createServer((s) => {
    let buf = Buffer.alloc(0);
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= REQUEST_HEADER && buf.length >= REQUEST_HEADER + buf.readUInt32LE(2)) {
        const len = buf.readUInt32LE(2);
        const id = buf.readUInt32LE(6);
        const cmd = buf[10];
        const body = buf.subarray(REQUEST_HEADER, REQUEST_HEADER + len);
        buf = buf.subarray(REQUEST_HEADER + len);
        if (extra(cmd, id, body, s)) continue;
        if (cmd === Cmd.PING) s.write(encodeResponse(0x81, 0, id));
        else if (cmd === Cmd.VICE_INFO) {
          if (version[0] === 3 && version[1] < 6) s.write(encodeResponse(0x00, 0x83, id));
          else s.write(encodeResponse(0x85, 0, id, Buffer.from([4, ...version, 4, 0, 0, 0, 0])));
        } else if (cmd === Cmd.BANKS_AVAILABLE)
          s.write(
            encodeResponse(
              0x82,
              0,
              id,
              encodeBanks([
                { name: 'default', id: 0 },
                { name: 'cpu', id: 0 },
                { name: 'ram', id: 1 },
                { name: 'rom', id: 2 },
                { name: 'io', id: 3 },
                { name: 'cart', id: 4 },
              ]),
            ),
          );
        else if (cmd === Cmd.REGISTERS_AVAILABLE) s.write(encodeResponse(0x83, 0, id, REGISTERS));
        else if (cmd === Cmd.REGISTERS_GET) s.write(encodeResponse(0x31, 0, id, REG_VALUES));
        else s.write(encodeResponse(0x00, 0x83, id));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    open: async () =>
      ViceTarget.open(await MonitorClient.connect('127.0.0.1', port, { requestTimeoutMs: 3000 }), { kind: 'vice' }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

test('VICE 3.5 (no VICE_INFO) is refused by the handshake with one error naming what is missing', async () => {
  const vice = await fakeVice([3, 5, 0, 0]);
  await assert.rejects(
    vice.open(),
    (e: unknown) =>
      (e as RetroError).code === 'incompatible_target' &&
      /VICE_INFO/.test((e as Error).message) &&
      /3\.6/.test((e as Error).message),
  );
  await vice.close();
});

test("error replies of type 0x00 are matched by id; RESOURCE_GET's second error is dropped and the stream stays usable", async () => {
  const vice = await fakeVice([3, 9, 0, 0], (cmd, id, _body, s) => {
    if (cmd === Cmd.MEM_GET) {
      s.write(RECORDED.invalidParameter(id));
      return true;
    }
    if (cmd === Cmd.RESOURCE_GET) {
      s.write(RECORDED.resourceDoubleError(id));
      return true;
    }
    return false;
  });
  const target = await vice.open();
  await assert.rejects(
    target.vice.readBank(1, 0, 16),
    (e: unknown) => e instanceof MonitorErrorReply && e.errorCode === 0x81 && e.code === 'bad_request',
  );
  const client = (target.vice as unknown as { client: MonitorClient }).client;
  await assert.rejects(
    client.request(Cmd.RESOURCE_GET, Buffer.from([4, ...Buffer.from('Spee')])),
    (e: unknown) => e instanceof MonitorErrorReply && e.errorCode === 0x80,
  );
  assert.equal((await client.request(Cmd.PING)).length, 0, 'the next request gets its own reply');
  await target.close();
  await vice.close();
});

test('JAM arrives without a body; the stop is reported as an exception at the PC of the 0x62 event', async () => {
  const vice = await fakeVice([3, 9, 0, 0], (cmd, id, _body, s) => {
    if (cmd !== Cmd.EXIT) return false;
    s.write(encodeResponse(0xaa, 0, id));
    s.write(hexFrame('02 02 02000000 63 00 ffffffff 0d08')); // RESUMED at $080D
    setTimeout(() => {
      s.write(RECORDED.jam);
      s.write(encodeResponse(0x31, 0, 0xffffffff, REG_VALUES));
      s.write(hexFrame('02 02 02000000 62 00 ffffffff 3412')); // STOPPED at $1234
    }, 20);
    return true;
  });
  const target = await vice.open();
  const stopped = new Promise<StopInfo>((resolve) =>
    target.events.on((e) => {
      if (e.type === 'stopped') resolve(e.stop);
    }),
  );
  await target.vice.resume();
  const stop = await stopped;
  assert.equal(stop.reason, 'exception');
  assert.equal(stop.pc, 0x1234);
  assert.match(stop.log?.[0] ?? '', /JAM at \$1234/);
  await target.close();
  await vice.close();
});

test('display get: builds before r46020 are refused, by version or by a body 4 bytes short of its length field', async () => {
  let displayCalls = 0;
  const display = (cmd: number, id: number, _body: Buffer, s: Socket) => {
    if (cmd === Cmd.DISPLAY_GET) {
      displayCalls++;
      // 3.10-release layout bug: FL=13 info block, BL = DW*DH, but the header counts 17 + BL, so the last 4 pixels are missing
      const w = 8,
        h = 4;
      const info = Buffer.alloc(21);
      info.writeUInt32LE(13, 0);
      info.writeUInt16LE(w, 4);
      info.writeUInt16LE(h, 6);
      info.writeUInt16LE(0, 8);
      info.writeUInt16LE(0, 10);
      info.writeUInt16LE(w, 12);
      info.writeUInt16LE(h, 14);
      info[16] = 8;
      info.writeUInt32LE(w * h, 17);
      s.write(encodeResponse(0x84, 0, id, Buffer.concat([info, Buffer.alloc(w * h - 4, 6)])));
      return true;
    }
    if (cmd === Cmd.PALETTE_GET) {
      s.write(encodeResponse(0x91, 0, id, Buffer.from([1, 0, 3, 1, 2, 3])));
      return true;
    }
    return false;
  };
  const old = await fakeVice([3, 9, 0, 0], display);
  const t39 = await old.open();
  await assert.rejects(
    t39.vice.capture(),
    (e: unknown) => (e as RetroError).code === 'incompatible_target' && /predates r46020/.test((e as Error).message),
  );
  assert.equal(displayCalls, 0, 'a 3.9 is refused before display get is sent');
  await t39.close();
  await old.close();

  const unknownRevision = await fakeVice([3, 10, 0, 0], display);
  const t310 = await unknownRevision.open();
  await assert.rejects(
    t310.vice.capture(),
    (e: unknown) =>
      (e as RetroError).code === 'incompatible_target' &&
      /shorter than its own length field/.test((e as Error).message),
  );
  await assert.rejects(t310.vice.capture(), (e: unknown) => (e as RetroError).code === 'incompatible_target');
  assert.equal(displayCalls, 1, 'once seen short, display get is not called again');
  await t310.close();
  await unknownRevision.close();
});
