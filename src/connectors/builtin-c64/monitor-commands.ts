/**
 * The built-in monitor's data commands as functions of the machine and the
 * request body: memory get/set, registers, resources. Each returns the
 * reply (type, body) or the VICE error code to send, checking every length
 * before reading, in VICE's order of checks.
 */
import {
  ErrCode,
  Reg,
  encodeCheckpoint,
  encodeCpuHistory,
  encodeRegisters,
  type RegisterName,
} from '../vice/protocol.js';
import { dirname } from 'node:path';
import { readRegularFileSync } from '../../core/files.js';
import type { BuiltinC64 } from './c64.js';
import { HostFolderDrive } from './host-drive.js';
import type { MachineHistory } from './history/machine-history.js';

export const REGISTER_NAMES: RegisterName[] = [
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
export const VERSION = [3, 10, 0, 0];

export type Answer = { type: number; body?: Buffer } | { error: number };

/** The register set VICE reports for the C64's CPU. */
export function machineRegisters(m: BuiltinC64) {
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

type Range = { start: number; end: number; bank: number; effects: boolean };

function memRange(body: Buffer, log: (text: string) => void): Range | { error: number } {
  if (body.length >= 5 && body.readUInt16LE(1) > body.readUInt16LE(3)) return { error: ErrCode.INVALID_PARAMETER };
  if (body.length < 8) return { error: ErrCode.INVALID_LENGTH };
  if (body[5] > 4) return { error: ErrCode.INVALID_MEMSPACE };
  if (body[5] !== 0) {
    log('Monitor: the built-in C64 has no disk drives (memspaces 1-4).');
    return { error: ErrCode.INVALID_MEMSPACE };
  }
  const bank = body.readUInt16LE(6);
  if (bank > 4) return { error: ErrCode.INVALID_PARAMETER };
  return { start: body.readUInt16LE(1), end: body.readUInt16LE(3), bank, effects: body[0] !== 0 };
}

export function memGet(m: BuiltinC64, body: Buffer, log: (text: string) => void): Answer {
  const r = memRange(body, log);
  if ('error' in r) return r;
  const length = r.end - r.start + 1;
  const out = Buffer.alloc(2 + length);
  out.writeUInt16LE(length & 0xffff, 0);
  const bank = ['cpu', 'ram', 'rom', 'io', 'cpu'][r.bank];
  if (bank === 'ram') out.set(m.bus.ram.subarray(r.start, r.end + 1), 2);
  else
    for (let i = 0; i < length; i++)
      out[2 + i] = bank === 'cpu' ? m.bus.peek(r.start + i, r.effects) : m.memory(bank, r.start + i);
  return { type: 0x01, body: out };
}

export function memSet(m: BuiltinC64, body: Buffer, log: (text: string) => void): Answer {
  if (
    body.length >= 5 &&
    body.readUInt16LE(1) <= body.readUInt16LE(3) &&
    body.length >= 8 &&
    body.length < 8 + body.readUInt16LE(3) - body.readUInt16LE(1) + 1
  ) {
    return { error: ErrCode.INVALID_LENGTH };
  }
  const r = memRange(body, log);
  if ('error' in r) return r;
  const bus = m.bus;
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
  return { type: 0x02 };
}

export function registersSet(m: BuiltinC64, body: Buffer): Answer {
  if (body.length < 3) return { error: ErrCode.INVALID_LENGTH };
  const count = body.readUInt16LE(1);
  if (body.length < 3 + 4 * count) return { error: ErrCode.INVALID_LENGTH };
  if (body[0] !== 0) return { error: ErrCode.INVALID_MEMSPACE };
  const cpu = m.cpu;
  let at = 3;
  for (let i = 0; i < count; i++) {
    const size = body[at];
    if (size < 3 || at + 4 > body.length) return { error: ErrCode.INVALID_LENGTH };
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
        return { error: ErrCode.OBJECT_MISSING }; // includes $00/$01: use MEM_SET
    }
    at += size + 1;
  }
  return { type: 0x31, body: encodeRegisters(machineRegisters(m)) };
}

/** AUTOSTART: a regular file of at most a C64's memory, inside `autostartRoots` when given. */
export function autostart(
  m: BuiltinC64,
  body: Buffer,
  opts: {
    drive8?: string;
    autostartRoots?: readonly string[];
    log: (text: string) => void;
    /** where the drive's own messages go (default: log) */
    machineLog?: (text: string) => void;
  },
): Answer {
  const [run, path] = [body[0] !== 0, body.toString('utf8', 4, 4 + body[3])];
  try {
    const prg = readRegularFileSync(path, { maxBytes: 0x10000 + 2, what: 'program', roots: opts.autostartRoots });
    if (!opts.drive8) m.attachDrive(new HostFolderDrive(dirname(path), opts.machineLog ?? opts.log));
    const loaded = m.autostart(prg, run);
    opts.log(
      `Monitor: autostarting ${path}: loaded $${loaded.load.toString(16)}-$${(loaded.end - 1).toString(16)}${loaded.start !== undefined ? `, SYS ${loaded.start}` : ''}.`,
    );
    return { type: 0xdd };
  } catch (err) {
    opts.log(`Monitor: autostart of ${path} failed: ${(err as Error).message}.`);
    return { error: ErrCode.FAILURE };
  }
}

export function resourceSet(resources: Map<string, number>, body: Buffer): Answer {
  if (body.length < 2 || body[1] < 1) return { error: ErrCode.INVALID_LENGTH };
  const nameLength = body[1];
  if (body.length < 3 + nameLength || body[2 + nameLength] < 1 || body.length < 3 + nameLength + body[2 + nameLength])
    return { error: ErrCode.INVALID_LENGTH };
  const type = body[0];
  const name = body.toString('latin1', 2, 2 + nameLength);
  const valueLength = body[2 + nameLength];
  const raw = body.subarray(3 + nameLength, 3 + nameLength + valueLength);
  if (type !== 0 && type !== 1) return { error: ErrCode.INVALID_PARAMETER };
  if (type === 1 && ![1, 2, 4].includes(valueLength)) return { error: ErrCode.INVALID_LENGTH };
  if (!resources.has(name)) return { error: ErrCode.OBJECT_MISSING };
  const value = type === 1 ? raw.readUIntLE(0, valueLength) : Number(raw.toString('latin1'));
  if (!Number.isInteger(value)) return { error: ErrCode.FAILURE };
  resources.set(name, value);
  return { type: 0x52 };
}

export function u16(v: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(v & 0xffff, 0);
  return b;
}

export function u32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v >>> 0, 0);
  return b;
}

/** CHECKPOINT_GET: the checkpoint by number. */
export function checkpointGet(m: BuiltinC64, body: Buffer): Answer {
  if (body.length < 4) return { error: ErrCode.INVALID_LENGTH };
  const cp = m.checkpoints.get(body.readUInt32LE(0));
  return cp ? { type: 0x11, body: encodeCheckpoint({ ...cp, hit: false }) } : { error: ErrCode.OBJECT_MISSING };
}

/** CONDITION_SET: a condition the monitor's parser takes, else FAILURE with the reason logged. */
export function conditionSet(m: BuiltinC64, body: Buffer, log: (text: string) => void): Answer {
  if (body.length < 5 || body.length < 5 + body[4]) return { error: ErrCode.INVALID_LENGTH };
  const number = body.readUInt32LE(0);
  if (!m.checkpoints.has(number)) return { error: ErrCode.OBJECT_MISSING };
  try {
    m.setCondition(number, body.toString('latin1', 5, 5 + body[4]));
  } catch (err) {
    log(`Monitor: condition for checkpoint ${number}: ${(err as Error).message}`);
    return { error: ErrCode.FAILURE };
  }
  return { type: 0x22 };
}

/** VICE's ring at its default size (MonitorChisLines 8192, raised to 10 140, × 5 + 1): it gives at most one less */
export const VICE_HISTORY_ENTRIES = 10_140 * 5;

/**
 * CPUHISTORY_GET as VICE 3.10 answers it, from the recorded history (back to its oldest snapshot, so not across
 * a reset as VICE's ring is); with the history off, "command failed" as a VICE built without CPU history.
 */
export function cpuHistory(history: MachineHistory, body: Buffer, log: (text: string) => void): Answer {
  if (body.length < 5) return { error: ErrCode.INVALID_LENGTH };
  if (body[0] !== 0) return { error: ErrCode.INVALID_MEMSPACE }; // no drives here
  const count = body.readUInt32LE(1) & 0xffff; // VICE keeps 16 bits of it
  if (count < 1) return { error: ErrCode.INVALID_PARAMETER };
  const off = history.recorder.off;
  if (off) {
    log(`Monitor: no CPU history: ${off}.`);
    return { error: ErrCode.FAILURE };
  }
  return { type: 0x86, body: encodeCpuHistory(history.travel.recent(Math.min(count, VICE_HISTORY_ENTRIES))) };
}
