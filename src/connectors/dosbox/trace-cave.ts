/**
 * Watches code run without a debugger: a near CALL (E8 rel16) is pointed at a
 * zero-filled cave that calls the original target, saves the flags it
 * returned with, counts the hit, copies requested DS-relative bytes into slots
 * after its own code, and returns. Removing restores the CALL's two bytes;
 * the cave itself is left in place (a call may still be inside it). Nothing
 * touches the disk: the patch dies with the emulator.
 */
import { internalError, tooLarge, badRequest, notFound } from '../../core/errors.js';
import { word } from '../../machines/dos/bda.js';
import type { DosGuest } from './guest.js';
import { hex } from '../../core/hex.js';

export interface TraceCapture {
  name: string;
  offset: number;
  length: number;
}

export interface TraceSpec {
  /** code segment of the CALL (a .COM: its PSP) */
  segment: number;
  /** offset of the E8 byte */
  callOffset: number;
  /** offset of the zero-filled cave in the same segment */
  caveOffset: number;
  captures: TraceCapture[];
}

export interface InstalledTrace extends TraceSpec {
  id: number;
  target: number;
  originalRel: number;
  caveSize: number;
  slots: { hits: number; flags: number; ds: number; data: number[] };
}

export interface TraceReadout {
  hits: number;
  flags: number;
  ds: number;
  captures: { name: string; offset: number; hex: string; bytes: number[] }[];
}

export const MAX_CAPTURE_BYTES = 256;

const le = (v: number) => [v & 0xff, (v >> 8) & 0xff];

/** Assembles the cave for `spec` at caveOffset; returns code+slots and where the slots are. */
export function assembleCave(spec: TraceSpec, target: number): { bytes: Uint8Array; slots: InstalledTrace['slots'] } {
  const words = spec.captures.map((c) => Math.ceil(c.length / 2));
  const codeLen = 3 + 1 + 1 + 1 + 1 + 4 + 5 + 5 + words.reduce((a, n) => a + n * 7, 0) + 1 + 1 + 1;
  const base = spec.caveOffset;
  const hits = base + codeLen;
  const flags = hits + 2;
  const ds = hits + 4;
  const data: number[] = [];
  let at = hits + 6;
  for (const n of words) {
    data.push(at);
    at += n * 2;
  }
  const code: number[] = [];
  const rel = (from: number, to: number) => le((to - from) & 0xffff);
  code.push(0xe8, ...rel(base + 3, target)); // call target
  code.push(0x9c); // pushf   (the target's flags, restored last)
  code.push(0x50); // push ax
  code.push(0x9c, 0x58); // pushf; pop ax
  code.push(0x2e, 0xa3, ...le(flags)); // mov cs:[flags], ax
  code.push(0x2e, 0xff, 0x06, ...le(hits)); // inc word cs:[hits]
  code.push(0x2e, 0x8c, 0x1e, ...le(ds)); // mov cs:[ds], ds
  spec.captures.forEach((c, i) => {
    for (let w = 0; w < words[i]; w++) {
      code.push(0xa1, ...le(c.offset + w * 2)); // mov ax, [offset]
      code.push(0x2e, 0xa3, ...le(data[i] + w * 2)); // mov cs:[slot], ax
    }
  });
  code.push(0x58, 0x9d, 0xc3); // pop ax; popf; ret
  if (code.length !== codeLen) throw internalError(`cave assembly length ${code.length} != ${codeLen}`);
  const total = at - base;
  const bytes = new Uint8Array(total);
  bytes.set(code);
  return { bytes, slots: { hits, flags, ds, data } };
}

export class TraceManager {
  private readonly installed = new Map<number, InstalledTrace>();
  private nextId = 1;

  constructor(private readonly guest: DosGuest) {}

  list(): InstalledTrace[] {
    return [...this.installed.values()];
  }

  async install(spec: TraceSpec): Promise<InstalledTrace> {
    const total = spec.captures.reduce((a, c) => a + c.length, 0);
    if (total > MAX_CAPTURE_BYTES)
      throw tooLarge(`A trace captures at most ${MAX_CAPTURE_BYTES} bytes; ${total} were asked for.`);
    if (spec.captures.some((c) => c.length < 1 || c.offset < 0 || c.offset + c.length > 0x10000))
      throw badRequest('Each capture needs a length of at least 1 and must stay inside the 64 KB data segment.');
    const seg = spec.segment * 16;
    const call = await this.guest.read(seg + spec.callOffset, 3);
    if (call[0] !== 0xe8)
      throw badRequest(
        `The byte at ${hex(spec.segment, 4, '')}:${hex(spec.callOffset, 4, '')} is 0x${call[0].toString(16).toUpperCase()}, not a near CALL (E8); give the offset of an E8 rel16 instruction.`,
      );
    if (this.list().some((t) => t.segment === spec.segment && t.callOffset === spec.callOffset))
      throw badRequest(`A trace is already installed on ${hex(spec.segment, 4, '')}:${hex(spec.callOffset, 4, '')}.`);
    const originalRel = word(call, 1);
    const target = (spec.callOffset + 3 + originalRel) & 0xffff;
    const { bytes, slots } = assembleCave(spec, target);
    if (spec.caveOffset + bytes.length > 0x10000)
      throw badRequest('The cave does not fit in the code segment at that offset.');
    const before = await this.guest.read(seg + spec.caveOffset, bytes.length);
    if (before.some((b) => b !== 0))
      throw badRequest(
        `The ${bytes.length} bytes at ${hex(spec.segment, 4, '')}:${hex(spec.caveOffset, 4, '')} are not all zero; a cave must go into unused, zero-filled memory.`,
      );
    await this.guest.write(seg + spec.caveOffset, bytes);
    // The CALL's displacement goes last, in one 2-byte write: the guest sees the old or the new call.
    await this.guest.write(
      seg + spec.callOffset + 1,
      Uint8Array.from(le((spec.caveOffset - (spec.callOffset + 3)) & 0xffff)),
    );
    const trace: InstalledTrace = { ...spec, id: this.nextId++, target, originalRel, caveSize: bytes.length, slots };
    this.installed.set(trace.id, trace);
    return trace;
  }

  async read(id: number): Promise<TraceReadout> {
    const t = this.get(id);
    const seg = t.segment * 16;
    const head = await this.guest.read(seg + t.slots.hits, 6);
    const captures = [];
    for (let i = 0; i < t.captures.length; i++) {
      const c = t.captures[i];
      const bytes = [...(await this.guest.read(seg + t.slots.data[i], c.length))];
      captures.push({ name: c.name, offset: c.offset, hex: Buffer.from(bytes).toString('hex').toUpperCase(), bytes });
    }
    return { hits: word(head, 0), flags: word(head, 2), ds: word(head, 4), captures };
  }

  async remove(id: number): Promise<void> {
    const t = this.get(id);
    await this.guest.write(t.segment * 16 + t.callOffset + 1, Uint8Array.from(le(t.originalRel)));
    this.installed.delete(id);
  }

  private get(id: number): InstalledTrace {
    const t = this.installed.get(id);
    if (!t)
      throw notFound(
        `No trace ${id} is installed; installed: ${
          this.list()
            .map((x) => x.id)
            .join(', ') || 'none'
        }.`,
      );
    return t;
  }
}
