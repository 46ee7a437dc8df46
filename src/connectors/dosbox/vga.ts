/**
 * Finds the emulator's VGA buffer (`vga.mem.linear`; it never moves during a
 * run) and reads the screen from it: text pages (CP437) and chain-4 mode 13h
 * frames. A mode-13h page is only "confirmed" byte for byte against a
 * reference frame; the confirmed page is cached, a blind read is marked.
 */
import { incompatibleTarget, unsupported } from '../../core/errors.js';
import { decodeText, textIndex, textSpan, type TextScreen, type TextStride } from '../../machines/dos/video.js';
import { findRomFont } from '../../machines/dos/video-modes.js';
import { CALIBRATION_TEXT } from './dosbox-conf.js';
import type { DosGuest } from './guest.js';
import type { HostMemory } from './host-memory.js';
import { searchHost } from './host-search.js';
import { FrameReader, type FrameResult } from './vga-frame.js';
import { FontLocator } from './vga-font.js';

export type { FrameResult };

export interface VgaLocation {
  address: number;
  stride: TextStride;
  how: string;
}

/** DOSBox 0.74 (Debian amd64 build) allocates vga.mem.linear 0x201000 below guest memory. */
const DOSBOX074_VGA_DELTA = 0x201000;

/** Host addresses of `text` written as screen cells with the given stride (char bytes at i, i+s, …); 17 at most. */
export function searchStridedText(mem: HostMemory, text: string | Uint8Array, stride: number): Promise<number[]> {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'latin1') : text;
  return searchHost(mem, { bytes, stride }, 17);
}

/**
 * Calibrates on text known to be at (row, col) of text page 0 — by default the
 * line our autoexec prints at row 0 before the program starts.
 */
export async function calibrateVga(
  mem: HostMemory,
  text = CALIBRATION_TEXT,
  row = 0,
  col = 0,
  columns = 80,
): Promise<VgaLocation | undefined> {
  for (const stride of [2, 8] as const) {
    const hits = await searchStridedText(mem, text, stride);
    if (hits.length === 1)
      return {
        address: hits[0] - textIndex(stride, (row * columns + col) * 2),
        stride,
        how: `calibrated on "${text}" at row ${row}, column ${col}`,
      };
    if (hits.length > 1) {
      throw incompatibleTarget(
        `The calibration text "${text}" appears ${hits.length} times as screen cells; give text that is on screen only once.`,
      );
    }
  }
  return undefined;
}

/** Native DOSBox 0.74's fixed layout, accepted when the page there decodes to the text the BDA cursor implies. */
export async function knownLayout(mem: HostMemory, guest: DosGuest): Promise<VgaLocation | undefined> {
  if (mem.backend !== 'native') return undefined;
  const address = guest.base - DOSBOX074_VGA_DELTA;
  try {
    const page = await mem.read(address, 4000);
    const screen = decodeText(page, 2, 80, 25);
    const printable = screen.chars.filter((c) => c >= 0x20 && c < 0x7f).length;
    if (printable < 1000 && (await guest.bda()).videoMode <= 3) return undefined;
    return { address, stride: 2, how: 'DOSBox 0.74 layout (VGA buffer 0x201000 below guest memory)' };
  } catch {
    return undefined;
  }
}

/**
 * Finds the buffer of a build that keeps the VGA's plane 2 inside it (DOSBox-X
 * and any build that emulates the planes as the hardware does) by content:
 * the BIOS ROM's 8x16 font, which the BIOS loaded into plane 2 (glyph c row r
 * at linear 4·(32c + r) + 2). One place must hold at least 240 of the 256 ROM
 * glyphs (a program may have replaced a few); several such places, or none,
 * give no answer. Such a build keeps text as the hardware's odd/even planes
 * (stride 8).
 */
export async function findVgaByFont(mem: HostMemory, guest: DosGuest): Promise<VgaLocation | undefined> {
  const bios = await guest.read(0xc0000, 0x8000);
  const at = findRomFont(bios, 16);
  if (at.length !== 1) return undefined;
  const rom = bios.subarray(at[0], at[0] + 4096);
  const a = rom.subarray(0x41 * 16, 0x42 * 16);
  const first = a.findIndex((b) => b !== 0);
  const hits = await searchStridedText(mem, a.subarray(first), 4);
  const found: number[] = [];
  for (const hit of hits) {
    const address = hit - 4 * (0x41 * 32 + first) - 2;
    if (address < 0) continue;
    const plane = await mem.read(address, 4 * 256 * 32).catch(() => undefined);
    if (!plane) continue;
    let same = 0;
    for (let c = 0; c < 256; c++) {
      let ok = true;
      for (let r = 0; ok && r < 16; r++) ok = plane[4 * (c * 32 + r) + 2] === rom[c * 16 + r];
      if (ok) same++;
    }
    if (same >= 240) found.push(address);
  }
  if (found.length !== 1) return undefined;
  return { address: found[0], stride: 8, how: "found by content: the BIOS ROM font in the buffer's plane 2" };
}

export class VgaScreen {
  private readonly frames: FrameReader;
  private readonly fonts: FontLocator;

  constructor(
    private readonly guest: DosGuest,
    private location: VgaLocation,
  ) {
    this.fonts = new FontLocator(
      guest,
      () => this.location.address,
      () => this.location.stride,
    );
    this.frames = new FrameReader({
      bda: () => guest.bda(),
      readBuffer: (o, n) => this.readBuffer(o, n),
      stride: () => this.location.stride,
      font: (h) => this.fonts.font(h),
    });
  }

  get where(): VgaLocation {
    return this.location;
  }
  relocate(location: VgaLocation): void {
    this.location = location;
    this.frames.forget();
  }

  /** Raw VGA buffer bytes (space 'vram'). */
  async readBuffer(offset: number, length: number): Promise<Uint8Array> {
    return this.guest.host.read(this.location.address + offset, length);
  }

  async writeBuffer(offset: number, data: Uint8Array): Promise<void> {
    await this.guest.host.write(this.location.address + offset, data);
  }

  async text(): Promise<TextScreen & { mode: number; cursor: { row: number; col: number } }> {
    const bda = await this.guest.bda();
    if (bda.videoMode > 3 && bda.videoMode !== 7) {
      throw unsupported(
        `The guest is in video mode 0x${bda.videoMode.toString(16)}, not a text mode; read it with dosbox_read_framebuffer.`,
        { mode: bda.videoMode },
      );
    }
    const { stride } = this.location;
    const cells = bda.columns * bda.rows;
    const start = textIndex(stride, bda.pageOffset);
    const bytes = await this.readBuffer(start, textSpan(stride, cells));
    return {
      ...decodeText(bytes, stride, bda.columns, bda.rows),
      mode: bda.videoMode,
      cursor: { row: bda.cursorRow, col: bda.cursorCol },
    };
  }

  /**
   * A frame of the current mode. With a reference, every start whose decode
   * equals it byte for byte is found and the first is cached; without one the
   * cached layout is used, or (allowUnconfirmed) start 0, marked.
   */
  frame(opts: { reference?: Uint8Array; allowUnconfirmed?: boolean } = {}): Promise<FrameResult> {
    return this.frames.read(opts);
  }
}
