/**
 * The active text font, found by content. The VGA keeps it in plane 2 (glyph
 * c, row r at VGA address 32c + r): DOSBox-X stores plane 2 inside its VGA
 * buffer (linear 4·address + 2); DOSBox 0.74 keeps it as its own 32-byte-a-glyph
 * array elsewhere in the process. Either is located by the BIOS ROM font's
 * glyphs 'A' and 'B' laid out that way, so a program's own glyphs (INT 10h
 * AX=11xxh) show; when it cannot be found the ROM font is used and said so.
 */
import { unsupported } from '../../core/errors.js';
import { findRomFont, fontFrom32, fontFromRom, type Font } from '../../machines/dos/video-modes.js';
import type { DosGuest } from './guest.js';
import { searchHost } from './host-search.js';
import type { TextStride } from '../../machines/dos/video.js';

const VGA_BIOS = 0xc0000;
const VGA_BIOS_SIZE = 0x8000;

export interface ActiveFont {
  font: Font;
  source: string;
}

type FontPlace = { source: string; plane2?: true; at?: number; rom?: Uint8Array };

export class FontLocator {
  private readonly found = new Map<number, FontPlace>();

  constructor(
    private readonly guest: DosGuest,
    private readonly vgaAddress: () => number,
    private readonly stride: () => TextStride,
  ) {}

  async font(height: number): Promise<ActiveFont> {
    let place = this.found.get(height);
    if (!place) {
      place = await this.locate(height);
      this.found.set(height, place);
    }
    // read again each time: a program may load its own glyphs at any moment
    if (place.plane2)
      return { font: fontFrom32(await this.guest.host.read(this.vgaAddress(), 256 * 32 * 4), height, 4, 2), ...place };
    if (place.at !== undefined)
      return { font: fontFrom32(await this.guest.host.read(place.at, 256 * 32), height), ...place };
    return { font: fontFromRom(place.rom!, height), source: place.source };
  }

  private async locate(height: number): Promise<FontPlace> {
    if (this.stride() === 8) return { source: 'plane 2 of the VGA buffer', plane2: true };
    const rom = await this.romFont(height);
    if (!rom) throw unsupported(`The guest's VGA BIOS has no 8x${height} font to find the active font by.`);
    const at = await this.searchArray(rom, height);
    return at !== undefined
      ? { source: `the emulator's font array at 0x${at.toString(16)}`, at }
      : { source: `the BIOS ROM 8x${height} font (the live font was not found)`, rom };
  }

  private async romFont(height: number): Promise<Uint8Array | undefined> {
    const bios = await this.guest.read(VGA_BIOS, VGA_BIOS_SIZE);
    const hits = findRomFont(bios, height);
    return hits.length === 1 ? bios.slice(hits[0], hits[0] + 256 * height) : undefined;
  }

  /** Host address of a 32-byte-a-glyph font whose 'A' and 'B' are the ROM's; one hit or none. */
  private async searchArray(rom: Uint8Array, height: number): Promise<number | undefined> {
    const a = rom.subarray(0x41 * height, 0x42 * height);
    const b = rom.subarray(0x42 * height, 0x43 * height);
    const mem = this.guest.host;
    const hits: number[] = [];
    for (const at of await searchHost(mem, { bytes: a, stride: 1 })) {
      const next = await mem.read(at + 32, height).catch(() => undefined);
      if (next && Buffer.from(next.buffer, next.byteOffset, next.byteLength).equals(b)) hits.push(at);
    }
    const arrays = hits.map((h) => h - 0x41 * 32).filter((h) => !this.isGuest(h));
    return arrays.length === 1 ? arrays[0] : undefined;
  }

  private isGuest(host: number): boolean {
    return host >= this.guest.base && host < this.guest.base + 0x110000;
  }
}
