/**
 * Turns session values into the plain shapes the MCP schemas describe, and
 * parses the loose inputs agents send (addresses as numbers or strings, hex).
 */
import type { Address, Register } from '../core/target.js';
import type { BreakpointInfo, SessionStatus, StackFrameInfo, VariableValue, WatchHit } from '../session/types.js';
import { badRequest, badAddress } from '../core/errors.js';
import type { VariableOut } from './schemas.js';
import { hex, hexBytes } from '../core/hex.js';

/** Bytes on the wire: upper-case hex pairs, no separator. */
export function bytesToHex(bytes: Uint8Array): string {
  return hexBytes(bytes, '', true);
}

/** Printable ASCII, '.' for the rest: a quick look at text in memory. */
export function asciiPreview(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
  return out;
}

export function parseHex(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, '').replace(/^0x/i, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(clean)) {
    throw badRequest(`"${text.slice(0, 40)}" is not hex bytes: use pairs of hex digits, e.g. "DEADBEEF".`);
  }
  return Uint8Array.from(Buffer.from(clean, 'hex'));
}

/** A typed address, or a number/string meaning the CPU's logical view. */
export function parseAddress(input: Address | number | string): Address {
  if (typeof input === 'object') {
    if (input.offset < 0) throw badAddress(`Address offset ${input.offset} is negative.`);
    return input;
  }
  let offset: number;
  if (typeof input === 'number') offset = input;
  else {
    const s = input.trim();
    const m = /^(?:0x|\$)([0-9a-f]+)$/i.exec(s);
    if (m) offset = parseInt(m[1], 16);
    else if (/^\d+$/.test(s)) offset = parseInt(s, 10);
    else throw badAddress(`"${input}" is not an address: give a number, "0x8000", "$8000" or {space, offset}.`);
  }
  if (!Number.isSafeInteger(offset) || offset < 0) throw badAddress(`Address ${offset} is negative or not an integer.`);
  return { space: 'cpu', offset };
}

export function formatStop(status: SessionStatus) {
  const stop = status.last_stop;
  if (!stop || status.state !== 'stopped') return undefined;
  return {
    reason: stop.reason,
    pc: stop.pc,
    pc_hex: hex(stop.pc),
    location: stop.location ?? status.location,
    breakpoint_ids: stop.breakpoint_ids,
    ...(stop.watch ? { watch: stop.watch.map(formatWatchHit) } : {}),
    ...(stop.pages ? { pages: stop.pages } : {}),
    ...(stop.inPast ? { in_past: true } : {}),
  };
}

function formatWatchHit(w: WatchHit) {
  return { ...w, ...(w.access_pc !== undefined ? { access_pc_hex: hex(w.access_pc) } : {}) };
}

/** "Stopped in …", led by what a watchpoint stop found: the accessor's C line and old → new. */
export function stopSentence(status: SessionStatus): string {
  const watch = status.state === 'stopped' ? status.last_stop?.watch : undefined;
  const hits = (watch ?? []).map((w) => {
    const what = w.expression ?? `${w.address.space}:${hex(w.address.offset)}`;
    const change = w.old !== undefined && w.new !== undefined ? `${w.old} → ${w.new}` : (w.new ?? 'unreadable');
    const by =
      w.access_pc === undefined
        ? ''
        : ` by the ${w.access} at ${hex(w.access_pc)}${w.location ? ` in ${describeLocation(w.location)}` : ''}`;
    return `Watchpoint ${w.id} (${what}): ${change}${by}. `;
  });
  const why = status.state === 'stopped' && status.last_stop?.why ? `${status.last_stop.why} ` : '';
  return `${hits.join('')}${why}Stopped in ${describeLocation(status.location)}${pastNote(status)}.`;
}

/** Said after a stop's place when it is in the recorded past, so no summary reads as the present. */
export function pastNote(status: SessionStatus): string {
  return status.state === 'stopped' && status.last_stop?.inPast ? ' (in the past: read-only)' : '';
}

export function describeLocation(loc?: { file: string; line: number; function?: string }): string {
  if (!loc) return 'no source location';
  return `${loc.function ? loc.function + ' at ' : ''}${loc.file}:${loc.line}`;
}

export function formatBreakpoint(bp: BreakpointInfo, myClientId: string | undefined) {
  return {
    id: bp.id,
    owner: { id: bp.owner.id, kind: bp.owner.kind, label: bp.owner.label },
    read_only: bp.owner.id !== myClientId,
    kind: bp.kind,
    file: bp.file,
    line: bp.line,
    function: bp.function,
    address: bp.address,
    condition: bp.condition,
    hit_condition: bp.hit_condition,
    log_message: bp.log_message,
    verified: bp.verified,
    message: bp.message,
    native_condition: bp.native_condition,
    condition_host: bp.condition_host,
    hit_count: bp.hit_count,
  };
}

export function formatFrame(frame: StackFrameInfo) {
  return {
    index: frame.index,
    function: frame.function,
    pc: frame.pc,
    pc_hex: hex(frame.pc),
    location: frame.location,
  };
}

export function formatRegister(reg: Register) {
  return { name: reg.name, value: reg.value, hex: hex(reg.value, Math.ceil(reg.bits / 4)), bits: reg.bits };
}

export function formatVariable(v: VariableValue): VariableOut {
  return {
    name: v.name,
    type: v.type,
    value: v.value,
    numeric: v.numeric,
    address: v.address,
    bytes: v.bytes,
    children: v.children?.map(formatVariable),
  };
}
