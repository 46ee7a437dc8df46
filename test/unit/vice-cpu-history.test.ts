// VICE 3.10's CPU history (CPUHISTORY_GET 0x86) byte for byte as monitor_binary_process_cpuhistory() writes it
// (items of 47 bytes after their size byte: 8 registers PC A X Y SP FL LIN CYC with LIN/CYC 0xFFFF, the u64
// clock, 4 instruction bytes with a 0xFF filler), the client's errors for a VICE without it, and the built-in
// C64 answering the same request from its recorded history with VICE's checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MonitorClient, MonitorErrorReply } from '../../src/connectors/vice/monitor-client.js';
import { Cmd, decodeCpuHistory, encodeCpuHistory } from '../../src/connectors/vice/protocol.js';
import { readCpuHistory } from '../../src/connectors/vice/vice-cpu-history.js';
import { BuiltinMonitorServer } from '../../src/connectors/builtin-c64/monitor-server.js';
import type { ExecutedInstruction } from '../../src/core/cpu-history.js';
import { RetroError } from '../../src/core/errors.js';
import { chunkedPeer, errorPeer } from '../support/vice-peer.js';

const ITEMS: ExecutedInstruction[] = [
  { cycle: 0x1_0000_2345, pc: 0x0812, a: 0x41, x: 0x02, y: 0xff, sp: 0xf6, flags: 0x35, bytes: [0xa9, 0x41, 0x8d] },
  { cycle: 0x1_0000_2347, pc: 0x0814, a: 0x41, x: 0x02, y: 0xff, sp: 0xf6, flags: 0x35, bytes: [0x8d, 0x20, 0xd0] },
];

/** The reply as VICE's C code lays it out, written out field by field (not through our encoder). */
function viceReply(items: ExecutedInstruction[]): Buffer {
  const out: number[] = [items.length, 0, 0, 0];
  for (const it of items) {
    out.push(47, 8, 0); // item size, register count
    const regs: [number, number][] = [
      [0x03, it.pc],
      [0x00, it.a],
      [0x01, it.x],
      [0x02, it.y],
      [0x04, it.sp],
      [0x05, it.flags],
      [0x35, 0xffff],
      [0x36, 0xffff],
    ];
    for (const [id, v] of regs) out.push(3, id, v & 0xff, v >> 8);
    let clock = BigInt(it.cycle);
    for (let i = 0; i < 8; i++, clock >>= 8n) out.push(Number(clock & 0xffn));
    out.push(4, ...it.bytes, 0xff);
  }
  return Buffer.from(out);
}

test('the 0x86 body: our encoder writes VICE 3.10 bytes, and the decoder reads them back', () => {
  const reply = viceReply(ITEMS);
  assert.equal(reply.length, 4 + 2 * 48, 'VICE items are 48 bytes');
  assert.ok(encodeCpuHistory(ITEMS).equals(reply), 'byte for byte');
  assert.deepEqual(decodeCpuHistory(reply), ITEMS);
  assert.deepEqual(decodeCpuHistory(Buffer.from([0, 0, 0, 0])), []);
});

test('the decoder walks items by their own sizes (a later VICE with a ninth register) and refuses a cut reply', () => {
  const reply = viceReply(ITEMS.slice(0, 1));
  // one more register item (id 0x37, the 6510 port) after the eight: size 51, count 9
  const longer = Buffer.concat([
    reply.subarray(0, 4),
    Buffer.from([51, 9, 0]),
    reply.subarray(7, 7 + 32),
    Buffer.from([3, 0x37, 0x2f, 0]),
    reply.subarray(7 + 32),
  ]);
  assert.deepEqual(decodeCpuHistory(longer), ITEMS.slice(0, 1));
  assert.throws(() => decodeCpuHistory(reply.subarray(0, 40)), /ends inside item 0 of 1/);
});

async function refusal(work: Promise<unknown>): Promise<RetroError> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof RetroError, `a RetroError, not ${String(err)}`);
  return err;
}

test('the client: a VICE before 3.10, one built without CPU history, a cut reply and bad counts are typed errors', async () => {
  const old = MonitorClient.over(errorPeer(0x83));
  const built = MonitorClient.over(errorPeer(0x8f));
  const builtin = MonitorClient.over(errorPeer(0x8f));
  const cut = MonitorClient.over(chunkedPeer(() => viceReply(ITEMS).subarray(0, 60), 7));
  try {
    const e1 = await refusal(readCpuHistory(old, 'vice', '3.9.0', 10));
    assert.equal(e1.code, 'unsupported');
    assert.match(e1.message, /VICE 3\.9\.0 has no CPU history command.*3\.10/);
    const e2 = await refusal(readCpuHistory(built, 'vice', '3.10.0', 10));
    assert.equal(e2.code, 'unsupported');
    assert.match(e2.message, /built without the CPU history \(configure --disable-cpuhistory\)/);
    const e3 = await refusal(readCpuHistory(builtin, 'builtin', '3.10.0', 10));
    assert.match(e3.message, /built-in C64 keeps no history.*history\.maxMegabytes/);
    const e4 = await refusal(readCpuHistory(cut, 'vice', '3.10.0', 2));
    assert.equal(e4.code, 'incompatible_target');
    for (const count of [0, 65536, 1.5]) {
      const e = await refusal(readCpuHistory(old, 'vice', '3.10.0', count));
      assert.equal(e.code, 'bad_request', `count ${count}`);
    }
  } finally {
    for (const c of [old, built, builtin, cut]) c.close();
  }
});

/** A CPUHISTORY_GET with a raw body to the built-in server: its reply, or VICE's error code. */
async function ask(client: MonitorClient, body: number[]): Promise<Buffer | number> {
  try {
    return await client.request(Cmd.CPUHISTORY_GET, Buffer.from(body));
  } catch (err) {
    if (err instanceof MonitorErrorReply) return err.errorCode;
    throw err;
  }
}

test("the built-in C64 answers 0x86 from its recorded history with VICE's checks; off, it fails as VICE without it", async () => {
  const server = new BuiltinMonitorServer();
  const client = MonitorClient.over(server.connectInProcess());
  const off = new BuiltinMonitorServer({ history: { seconds: 0, maxBytes: 0 } });
  const offClient = MonitorClient.over(off.connectInProcess());
  try {
    // the KERNAL stand-in waits for keys in JavaScript (no 6502 instructions): run a loop of our own at $C000
    const loop = [0xe8, 0xc8, 0x4c, 0x00, 0xc0]; // INX; INY; JMP $C000
    await client.request(Cmd.MEM_SET, Buffer.from([0, 0x00, 0xc0, 0x04, 0xc0, 0, 0, 0, ...loop]));
    await client.request(Cmd.REGISTERS_SET, Buffer.from([0, 1, 0, 3, 0x03, 0x00, 0xc0]));
    await client.request(Cmd.EXIT);
    await new Promise((r) => setTimeout(r, 300));
    const reply = await ask(client, [0, 100, 0, 0, 0]);
    assert.ok(Buffer.isBuffer(reply));
    const items = decodeCpuHistory(reply);
    assert.equal(items.length, 100);
    assert.equal(reply.length, 4 + 100 * 48);
    assert.ok(encodeCpuHistory(items).equals(reply), 'every item in the 48-byte layout, LIN/CYC placeholders');
    for (let i = 1; i < items.length; i++) {
      const [a, b] = [items[i - 1], items[i]];
      assert.ok(b.cycle > a.cycle, 'oldest first');
      // the loop's own rule: INX then INY then JMP, X and Y counting up (an interrupt in between returns to it)
      if (a.pc === 0xc000 && b.pc === 0xc001) assert.equal(b.x, (a.x + 1) & 0xff);
      if (a.pc === 0xc001 && b.pc === 0xc002) assert.equal(b.y, (a.y + 1) & 0xff);
    }
    assert.ok(
      items.some((i) => i.pc === 0xc002 && i.bytes.join() === '76,0,192'),
      'JMP $C000 with its operand bytes',
    );
    const cpu = server.machine.cpu;
    const last = items.at(-1)!;
    assert.ok(last.cycle < cpu.cycles, 'the instruction at the stop has not run yet');
    // the count is read as 16 bits, as VICE does: 0x10064 asks for 0x64
    const wrapped = await ask(client, [0, 0x64, 0, 1, 0]);
    assert.ok(Buffer.isBuffer(wrapped) && wrapped.equals(reply), 'the same 100 instructions');
    assert.equal(await ask(client, [0, 0, 0, 1, 0]), 0x81, '0x10000 is 0 in 16 bits: invalid parameter');
    assert.equal(await ask(client, [0, 0, 0, 0, 0]), 0x81);
    assert.equal(await ask(client, [1, 10, 0, 0, 0]), 0x02, 'no drive memspaces here');
    assert.equal(await ask(client, [0, 10, 0, 0]), 0x80, 'short body');
    assert.equal(await ask(offClient, [0, 10, 0, 0, 0]), 0x8f);
  } finally {
    client.close();
    offClient.close();
    await server.close();
    await off.close();
  }
});
