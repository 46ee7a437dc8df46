/**
 * VICE binary monitor protocol (API 2): frame layout, command and response
 * types, error codes and the bodies we build or parse. Shared by the client
 * (talking to a real x64sc) and the built-in C64's server, so both speak the
 * exact bytes of the reference (shared/reference/vice-binary-monitor.md).
 */

import type { ExecutedInstruction } from '../../core/cpu-history.js';

export const STX = 0x02;
export const API_VERSION = 0x02;
export const REQUEST_HEADER = 11;
export const RESPONSE_HEADER = 12;
export const EVENT_ID = 0xffffffff;

export const Cmd = {
  MEM_GET: 0x01,
  MEM_SET: 0x02,
  CHECKPOINT_GET: 0x11,
  CHECKPOINT_SET: 0x12,
  CHECKPOINT_DELETE: 0x13,
  CHECKPOINT_LIST: 0x14,
  CHECKPOINT_TOGGLE: 0x15,
  CONDITION_SET: 0x22,
  REGISTERS_GET: 0x31,
  REGISTERS_SET: 0x32,
  DUMP: 0x41,
  UNDUMP: 0x42,
  RESOURCE_GET: 0x51,
  RESOURCE_SET: 0x52,
  ADVANCE_INSTRUCTIONS: 0x71,
  KEYBOARD_FEED: 0x72,
  EXECUTE_UNTIL_RETURN: 0x73,
  PING: 0x81,
  BANKS_AVAILABLE: 0x82,
  REGISTERS_AVAILABLE: 0x83,
  DISPLAY_GET: 0x84,
  VICE_INFO: 0x85,
  CPUHISTORY_GET: 0x86,
  PALETTE_GET: 0x91,
  JOYPORT_SET: 0xa2,
  USERPORT_SET: 0xb2,
  EXIT: 0xaa,
  QUIT: 0xbb,
  RESET: 0xcc,
  AUTOSTART: 0xdd,
} as const;

/** Unsolicited event types (request id 0xFFFFFFFF). 0x11 and 0x31 double as replies. */
export const Evt = { CHECKPOINT: 0x11, REGISTERS: 0x31, JAM: 0x61, STOPPED: 0x62, RESUMED: 0x63 } as const;

/** Every error reply has response type 0x00 and one of these codes. */
export const ErrCode = {
  OK: 0x00,
  OBJECT_MISSING: 0x01,
  INVALID_MEMSPACE: 0x02,
  INVALID_LENGTH: 0x80,
  INVALID_PARAMETER: 0x81,
  INVALID_API_VERSION: 0x82,
  INVALID_TYPE: 0x83,
  FAILURE: 0x8f,
} as const;

export const ERROR_TEXT: Record<number, string> = {
  0x01: 'object missing (no such checkpoint, register or resource)',
  0x02: 'invalid memspace',
  0x80: 'invalid command length',
  0x81: 'invalid parameter',
  0x82: 'invalid API version',
  0x83: 'unknown command type',
  0x8f: 'command failed',
};

/** Register ids of the C64 main CPU (montypes.h; stable binary API). */
export const Reg = {
  A: 0x00,
  X: 0x01,
  Y: 0x02,
  PC: 0x03,
  SP: 0x04,
  FL: 0x05,
  LIN: 0x35,
  CYC: 0x36,
  P00: 0x37,
  P01: 0x38,
} as const;

/** Bank ids of x64sc's main memspace (BANKS_AVAILABLE order). */
export const C64_BANKS: { name: string; id: number }[] = [
  { name: 'default', id: 0 },
  { name: 'cpu', id: 0 },
  { name: 'ram', id: 1 },
  { name: 'rom', id: 2 },
  { name: 'io', id: 3 },
  { name: 'cart', id: 4 },
];

export interface Response {
  type: number;
  error: number;
  requestId: number;
  body: Buffer;
}

export function encodeRequest(requestId: number, command: number, body: Uint8Array = new Uint8Array(0)): Buffer {
  const frame = Buffer.alloc(REQUEST_HEADER + body.length);
  frame[0] = STX;
  frame[1] = API_VERSION;
  frame.writeUInt32LE(body.length, 2);
  frame.writeUInt32LE(requestId >>> 0, 6);
  frame[10] = command;
  frame.set(body, REQUEST_HEADER);
  return frame;
}

export function encodeResponse(
  type: number,
  error: number,
  requestId: number,
  body: Uint8Array = new Uint8Array(0),
): Buffer {
  const frame = Buffer.alloc(RESPONSE_HEADER + body.length);
  frame[0] = STX;
  frame[1] = API_VERSION;
  frame.writeUInt32LE(body.length, 2);
  frame[6] = type;
  frame[7] = error;
  frame.writeUInt32LE(requestId >>> 0, 8);
  frame.set(body, RESPONSE_HEADER);
  return frame;
}

/** Checkpoint info body (23 bytes, §7.3). */
export interface CheckpointInfo {
  number: number;
  hit: boolean;
  start: number;
  end: number;
  stop: boolean;
  enabled: boolean;
  /** bitmask: 1 load, 2 store, 4 exec */
  op: number;
  temporary: boolean;
  hitCount: number;
  ignoreCount: number;
  hasCondition: boolean;
  memspace: number;
}

/** CHECKPOINT_SET request body (9 bytes, with the memspace byte of VICE 3.6+). */
export function encodeCheckpointSet(c: {
  start: number;
  end: number;
  stop: boolean;
  enabled: boolean;
  op: number;
  temporary: boolean;
  memspace?: number;
}): Buffer {
  return Buffer.from([
    c.start & 0xff,
    c.start >> 8,
    c.end & 0xff,
    c.end >> 8,
    c.stop ? 1 : 0,
    c.enabled ? 1 : 0,
    c.op,
    c.temporary ? 1 : 0,
    c.memspace ?? 0,
  ]);
}

export function encodeCheckpoint(c: CheckpointInfo): Buffer {
  const b = Buffer.alloc(23);
  b.writeUInt32LE(c.number, 0);
  b[4] = c.hit ? 1 : 0;
  b.writeUInt16LE(c.start, 5);
  b.writeUInt16LE(c.end, 7);
  b[9] = c.stop ? 1 : 0;
  b[10] = c.enabled ? 1 : 0;
  b[11] = c.op;
  b[12] = c.temporary ? 1 : 0;
  b.writeUInt32LE(c.hitCount >>> 0, 13);
  b.writeUInt32LE(c.ignoreCount >>> 0, 17);
  b[21] = c.hasCondition ? 1 : 0;
  b[22] = c.memspace;
  return b;
}

/** Parses 22 (VICE 3.5) or 23 bytes. */
export function decodeCheckpoint(body: Buffer): CheckpointInfo {
  if (body.length < 22) throw new Error(`checkpoint info is ${body.length} bytes, expected 23`);
  return {
    number: body.readUInt32LE(0),
    hit: body[4] !== 0,
    start: body.readUInt16LE(5),
    end: body.readUInt16LE(7),
    stop: body[9] !== 0,
    enabled: body[10] !== 0,
    op: body[11],
    temporary: body[12] !== 0,
    hitCount: body.readUInt32LE(13),
    ignoreCount: body.readUInt32LE(17),
    hasCondition: body[21] !== 0,
    memspace: body.length > 22 ? body[22] : 0,
  };
}

export interface RegisterValue {
  id: number;
  value: number;
}

export function encodeRegisters(regs: RegisterValue[]): Buffer {
  const b = Buffer.alloc(2 + regs.length * 4);
  b.writeUInt16LE(regs.length, 0);
  regs.forEach((r, i) => {
    b[2 + i * 4] = 3;
    b[3 + i * 4] = r.id;
    b.writeUInt16LE(r.value & 0xffff, 4 + i * 4);
  });
  return b;
}

/** Items are `size, id, value…`; the next item starts size+1 bytes later. */
export function decodeRegisters(body: Buffer): RegisterValue[] {
  if (body.length < 2) throw new Error('register info shorter than its count');
  const count = body.readUInt16LE(0);
  const out: RegisterValue[] = [];
  let at = 2;
  for (let i = 0; i < count; i++) {
    if (at + 4 > body.length) throw new Error(`register info ends inside item ${i} of ${count}`);
    const size = body[at];
    out.push({ id: body[at + 1], value: body.readUInt16LE(at + 2) });
    at += size + 1;
  }
  return out;
}

export interface RegisterName {
  id: number;
  bits: number;
  name: string;
}

export function encodeRegisterNames(names: RegisterName[]): Buffer {
  const parts = names.map((n) =>
    Buffer.concat([Buffer.from([n.name.length + 3, n.id, n.bits, n.name.length]), Buffer.from(n.name, 'latin1')]),
  );
  const count = Buffer.alloc(2);
  count.writeUInt16LE(names.length, 0);
  return Buffer.concat([count, ...parts]);
}

export function decodeRegisterNames(body: Buffer): RegisterName[] {
  if (body.length < 2) throw new Error('register list shorter than its count');
  const count = body.readUInt16LE(0);
  const out: RegisterName[] = [];
  let at = 2;
  for (let i = 0; i < count; i++) {
    if (at + 4 > body.length) throw new Error(`register list ends inside item ${i} of ${count}`);
    const size = body[at];
    const len = body[at + 3];
    if (at + 4 + len > body.length) throw new Error(`register list ends inside the name of item ${i}`);
    out.push({ id: body[at + 1], bits: body[at + 2], name: body.toString('latin1', at + 4, at + 4 + len) });
    at += size + 1;
  }
  return out;
}

export function encodeBanks(banks: { name: string; id: number }[]): Buffer {
  const parts = banks.map((b) => {
    const head = Buffer.alloc(4);
    head[0] = b.name.length + 3;
    head.writeUInt16LE(b.id, 1);
    head[3] = b.name.length;
    return Buffer.concat([head, Buffer.from(b.name, 'latin1')]);
  });
  const count = Buffer.alloc(2);
  count.writeUInt16LE(banks.length, 0);
  return Buffer.concat([count, ...parts]);
}

export function decodeBanks(body: Buffer): { name: string; id: number }[] {
  if (body.length < 2) throw new Error('bank list shorter than its count');
  const count = body.readUInt16LE(0);
  const out: { name: string; id: number }[] = [];
  let at = 2;
  for (let i = 0; i < count; i++) {
    if (at + 4 > body.length) throw new Error(`bank list ends inside item ${i} of ${count}`);
    const size = body[at];
    const len = body[at + 3];
    if (at + 4 + len > body.length) throw new Error(`bank list ends inside the name of item ${i}`);
    out.push({ id: body.readUInt16LE(at + 1), name: body.toString('latin1', at + 4, at + 4 + len) });
    at += size + 1;
  }
  return out;
}

/** DISPLAY_GET body (API 2, §7.22): info block of FL = 13 bytes, then the pixels. */
export interface DisplayInfo {
  width: number;
  height: number;
  innerX: number;
  innerY: number;
  innerWidth: number;
  innerHeight: number;
  bitsPerPixel: number;
  pixels: Buffer;
  /** true when the body was 4 bytes short (the overrun bug of builds before r46020) */
  short: boolean;
}

export function encodeDisplay(d: Omit<DisplayInfo, 'short'>): Buffer {
  const head = Buffer.alloc(21);
  head.writeUInt32LE(13, 0);
  head.writeUInt16LE(d.width, 4);
  head.writeUInt16LE(d.height, 6);
  head.writeUInt16LE(d.innerX, 8);
  head.writeUInt16LE(d.innerY, 10);
  head.writeUInt16LE(d.innerWidth, 12);
  head.writeUInt16LE(d.innerHeight, 14);
  head[16] = d.bitsPerPixel;
  head.writeUInt32LE(d.pixels.length, 17);
  return Buffer.concat([head, d.pixels]);
}

export function decodeDisplay(body: Buffer): DisplayInfo {
  if (body.length < 21) throw new Error(`display body is ${body.length} bytes; the info block alone needs 21`);
  const fl = body.readUInt32LE(0);
  if (fl !== 13) throw new Error(`display info block length is ${fl}, expected 13`);
  const length = body.readUInt32LE(17);
  const width = body.readUInt16LE(4);
  const height = body.readUInt16LE(6);
  if (length !== width * height) throw new Error(`display buffer length ${length} is not ${width}x${height}`);
  const available = body.length - 21;
  return {
    width,
    height,
    innerX: body.readUInt16LE(8),
    innerY: body.readUInt16LE(10),
    innerWidth: body.readUInt16LE(12),
    innerHeight: body.readUInt16LE(14),
    bitsPerPixel: body[16],
    pixels: Buffer.from(body.subarray(21, 21 + Math.min(available, length))),
    short: available < length,
  };
}

export function encodePalette(colors: [number, number, number][]): Buffer {
  const b = Buffer.alloc(2 + colors.length * 4);
  b.writeUInt16LE(colors.length, 0);
  colors.forEach(([r, g, bl], i) => {
    b[2 + i * 4] = 3;
    b[3 + i * 4] = r;
    b[4 + i * 4] = g;
    b[5 + i * 4] = bl;
  });
  return b;
}

export function decodePalette(body: Buffer): [number, number, number][] {
  if (body.length < 2) throw new Error('palette shorter than its count');
  const count = body.readUInt16LE(0);
  const out: [number, number, number][] = [];
  let at = 2;
  for (let i = 0; i < count; i++) {
    if (at + 4 > body.length) throw new Error(`palette ends inside entry ${i} of ${count}`);
    const size = body[at];
    out.push([body[at + 1], body[at + 2], body[at + 3]]);
    at += size + 1;
  }
  return out;
}

/** MEM_GET / MEM_SET request header (8 bytes). */
export function encodeMemHeader(
  sideEffects: boolean,
  start: number,
  end: number,
  memspace: number,
  bank: number,
): Buffer {
  const b = Buffer.alloc(8);
  b[0] = sideEffects ? 1 : 0;
  b.writeUInt16LE(start, 1);
  b.writeUInt16LE(end, 3);
  b[5] = memspace;
  b.writeUInt16LE(bank, 6);
  return b;
}

/** JOYPORT_ID_IO_SIMULATION in VICE's joyport.h: the one device whose lines JOYPORT_SET drives */
export const IO_SIMULATION_DEVICE = 37;

/** CPUHISTORY_GET (VICE 3.10): registers of each item, in the order monitor_binary.c writes them for the 6510. */
const HISTORY_REGS = [Reg.PC, Reg.A, Reg.X, Reg.Y, Reg.SP, Reg.FL, Reg.LIN, Reg.CYC] as const;
/** bytes after an item's size byte: register count, 8 register items, u64 clock, instruction length, 4 bytes */
const HISTORY_ITEM = 2 + HISTORY_REGS.length * 4 + 8 + 1 + 4;

/** The 0x86 reply: u32 count, then items oldest first; LIN/CYC are VICE's 0xFFFF placeholders, the 4th byte 0xFF. */
export function encodeCpuHistory(items: ExecutedInstruction[]): Buffer {
  const b = Buffer.alloc(4 + items.length * (HISTORY_ITEM + 1));
  b.writeUInt32LE(items.length, 0);
  items.forEach((it, i) => {
    let at = 4 + i * (HISTORY_ITEM + 1);
    b[at++] = HISTORY_ITEM;
    const values = [it.pc, it.a, it.x, it.y, it.sp, it.flags, 0xffff, 0xffff];
    encodeRegisters(HISTORY_REGS.map((id, k) => ({ id, value: values[k] }))).copy(b, at);
    at += 2 + HISTORY_REGS.length * 4;
    b.writeBigUInt64LE(BigInt(it.cycle), at);
    b[at + 8] = 4;
    b.set([...it.bytes, 0xff], at + 9);
  });
  return b;
}

/** Items are walked by their own size bytes and register counts (a later VICE may add fields). */
export function decodeCpuHistory(body: Buffer): ExecutedInstruction[] {
  if (body.length < 4) throw new Error('CPU history shorter than its count');
  const count = body.readUInt32LE(0);
  const out: ExecutedInstruction[] = [];
  let at = 4;
  for (let i = 0; i < count; i++) {
    if (at + 1 > body.length || at + 1 + body[at] > body.length)
      throw new Error(`CPU history ends inside item ${i} of ${count}`);
    const size = body[at];
    const item = body.subarray(at + 1, at + 1 + size);
    const regCount = item.readUInt16LE(0);
    const regs = new Map(decodeRegisters(item.subarray(0, 2 + regCount * 4)).map((r) => [r.id, r.value]));
    const clock = 2 + regCount * 4;
    if (clock + 9 > size) throw new Error(`CPU history item ${i} has no clock and instruction`);
    const length = item[clock + 8];
    if (clock + 9 + Math.min(length, 3) > size) throw new Error(`CPU history item ${i} ends inside its instruction`);
    const bytes = [0, 1, 2].map((k) => (k < length ? item[clock + 9 + k] : 0)) as [number, number, number];
    const reg = (id: number) => regs.get(id) ?? 0;
    out.push({
      cycle: Number(item.readBigUInt64LE(clock)),
      pc: reg(Reg.PC),
      a: reg(Reg.A),
      x: reg(Reg.X),
      y: reg(Reg.Y),
      sp: reg(Reg.SP),
      flags: reg(Reg.FL),
      bytes,
    });
    at += size + 1;
  }
  return out;
}
