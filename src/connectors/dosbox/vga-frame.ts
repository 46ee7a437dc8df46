/**
 * A frame of whatever BIOS mode the guest is in, decoded from the VGA buffer.
 * As for mode 13h, a frame is only "confirmed" when it equals a reference byte
 * for byte; the search for it finds where the picture starts (the CRTC start
 * address, or the chain-4 page) and whether 256 colours are chain-4 (13h) or
 * unchained (Mode X). The confirmed layout is cached per mode; a blind read is
 * marked unconfirmed.
 */
import { unsupported, badRequest, notFound } from '../../core/errors.js';
import { chain4Matches, countDifferences, decodeMode13, MODE13_SPAN, textIndex } from '../../machines/dos/video.js';
import {
  cgaSpan,
  decodeCga,
  decodePlanar,
  decodeUnchained,
  modeGeometry,
  planarSpan,
  renderTextIndices,
  unchainedMatches,
  type Font,
  type ModeGeometry,
} from '../../machines/dos/video-modes.js';
import type { BdaSummary } from '../../machines/dos/bda.js';

/** How much of the buffer a start-address search looks through (pages sit low; svga_s3 has 2 MiB+). */
const SEARCH_BYTES = 1 << 20;

export type FrameLayout = 'chain-4' | 'unchained' | 'planar' | 'cga' | 'text';

export interface FrameResult {
  mode: number;
  mode_name: string;
  width: number;
  height: number;
  indices: Uint8Array;
  layout: FrameLayout;
  /** chain-4: the CPU offset of the page in A000 (as mode 13h always reported) */
  page_offset: number;
  /** the VGA address the picture starts at (CRTC start address; text: the BDA page) */
  start_address: number;
  confirmed: boolean;
  cached: boolean;
  /** every start (page_offset for chain-4, else VGA address) that matched the reference */
  pages: number[];
  font_source?: string;
}

export interface FrameSource {
  bda(): Promise<BdaSummary>;
  readBuffer(offset: number, length: number): Promise<Uint8Array>;
  stride(): 2 | 8;
  /** the active text font for a character height */
  font(height: number): Promise<{ font: Font; source: string }>;
}

interface Layout {
  mode: number;
  layout: FrameLayout;
  start: number;
}

export class FrameReader {
  private confirmed?: Layout;

  constructor(private readonly src: FrameSource) {}

  forget(): void {
    this.confirmed = undefined;
  }

  async read(opts: { reference?: Uint8Array; allowUnconfirmed?: boolean } = {}): Promise<FrameResult> {
    const bda = await this.src.bda();
    const g = modeGeometry(bda.videoMode, { columns: bda.columns, rows: bda.rows, charHeight: bda.charHeight });
    if (!g)
      throw unsupported(
        `Video mode 0x${bda.videoMode.toString(16)} is not decoded from video memory (text, CGA 04h-06h, EGA/VGA 0Dh/0Eh/10h/12h, 13h and Mode X are).`,
        { mode: bda.videoMode },
      );
    if (opts.reference) return this.confirm(g, bda, opts.reference);
    const cached = this.confirmed?.mode === g.mode ? this.confirmed : undefined;
    if (!cached && !opts.allowUnconfirmed) {
      throw badRequest(
        `No confirmed frame page yet: pass reference (a ${g.width * g.height}-byte file of the ${g.width}x${g.height} pixel values on screen now) once, or allow_unconfirmed: true for a blind read that is marked unconfirmed.`,
      );
    }
    const layout = cached ?? this.blindLayout(g, bda);
    const { indices, fontSource } = await this.decode(g, layout, bda);
    return this.result(g, layout, indices, !!cached, !!cached, cached ? [this.startOf(layout)] : [], fontSource);
  }

  private blindLayout(g: ModeGeometry, bda: BdaSummary): Layout {
    const layout: FrameLayout =
      g.kind === 'vga256' ? 'chain-4' : g.kind === 'planar' ? 'planar' : g.kind === 'cga' ? 'cga' : 'text';
    return { mode: g.mode, layout, start: g.kind === 'text' ? bda.pageOffset / 2 : 0 };
  }

  private async confirm(g: ModeGeometry, bda: BdaSummary, ref: Uint8Array): Promise<FrameResult> {
    if (ref.length !== g.width * g.height)
      throw badRequest(
        `A reference frame for ${g.name} has ${g.width * g.height} bytes (one pixel value per pixel); this one has ${ref.length}.`,
      );
    const found: Layout[] = [];
    if (g.kind === 'vga256') {
      const buf = await this.src.readBuffer(0, SEARCH_BYTES + MODE13_SPAN);
      for (let p = 0; p * 4 + MODE13_SPAN <= buf.length && found.length < 8; p += 4)
        if (chain4Matches(buf, p * 4, ref)) found.push({ mode: g.mode, layout: 'chain-4', start: p });
      for (let s = 0; !found.length && 4 * s + ref.length <= buf.length; s++)
        if (unchainedMatches(buf, s, ref)) found.push({ mode: g.mode, layout: 'unchained', start: s });
    } else if (g.kind === 'planar') {
      const span = planarSpan(g);
      const buf = await this.src.readBuffer(0, SEARCH_BYTES + span);
      for (let s = 0; 4 * s + span <= buf.length && found.length < 8; s++) {
        if (!planarHead(buf, s, g, ref)) continue;
        if (countDifferences(decodePlanar(buf, s, g), ref) === 0)
          found.push({ mode: g.mode, layout: 'planar', start: s });
      }
    } else {
      const layout = this.blindLayout(g, bda);
      if (countDifferences((await this.decode(g, layout, bda)).indices, ref) === 0) found.push(layout);
    }
    if (!found.length) {
      const blind = await this.decode(g, this.blindLayout(g, bda), bda);
      const diff = countDifferences(blind.indices, ref);
      throw notFound(
        `No start address of video memory shows the reference frame byte for byte (${g.name}; at start 0, ${diff} of ${ref.length} pixels differ); the screen is not showing it now.`,
        { differing_at_start_0: diff, mode: g.mode },
      );
    }
    this.confirmed = found[0];
    const { indices, fontSource } = await this.decode(g, found[0], bda);
    return this.result(
      g,
      found[0],
      indices,
      true,
      false,
      found.map((l) => this.startOf(l)),
      fontSource,
    );
  }

  private async decode(
    g: ModeGeometry,
    l: Layout,
    bda: BdaSummary,
  ): Promise<{ indices: Uint8Array; fontSource?: string }> {
    switch (l.layout) {
      case 'chain-4':
        return { indices: decodeMode13(await this.src.readBuffer(l.start * 4, MODE13_SPAN)) };
      case 'unchained':
        return {
          indices: decodeUnchained(await this.src.readBuffer(4 * l.start, g.width * g.height), 0, g.width, g.height),
        };
      case 'planar':
        return { indices: decodePlanar(await this.src.readBuffer(4 * l.start, planarSpan(g)), 0, g) };
      case 'cga':
        return { indices: decodeCga(await this.src.readBuffer(0, cgaSpan(this.src.stride())), this.src.stride(), g) };
      case 'text': {
        const stride = this.src.stride();
        const cells = bda.columns * bda.rows;
        const first = textIndex(stride, l.start * 2);
        const bytes = await this.src.readBuffer(first, textIndex(stride, cells * 2 - 1) + 1);
        const chars = new Uint8Array(cells);
        const attrs = new Uint8Array(cells);
        for (let k = 0; k < cells; k++) {
          chars[k] = bytes[textIndex(stride, k * 2)];
          attrs[k] = bytes[textIndex(stride, k * 2 + 1)];
        }
        const { font, source } = await this.src.font(bda.charHeight);
        return { indices: renderTextIndices(chars, attrs, bda.columns, bda.rows, font), fontSource: source };
      }
    }
  }

  private startOf(l: Layout): number {
    return l.start;
  }

  private result(
    g: ModeGeometry,
    l: Layout,
    indices: Uint8Array,
    confirmed: boolean,
    cached: boolean,
    pages: number[],
    fontSource?: string,
  ): FrameResult {
    return {
      mode: g.mode,
      mode_name: l.layout === 'unchained' ? 'Mode X (unchained 320x200x256)' : g.name,
      width: g.width,
      height: g.height,
      indices,
      layout: l.layout,
      page_offset: l.layout === 'chain-4' ? l.start : 0,
      start_address: l.layout === 'chain-4' ? l.start / 4 : l.start,
      confirmed,
      cached,
      pages,
      font_source: fontSource,
    };
  }
}

/** Cheap pre-check of a planar start: the first 8 pixels. */
function planarHead(buf: Uint8Array, s: number, g: ModeGeometry, ref: Uint8Array): boolean {
  const i = 4 * s;
  for (let bit = 0; bit < 8; bit++) {
    const sh = 7 - bit;
    const v =
      ((buf[i] >> sh) & 1) |
      (((buf[i + 1] >> sh) & 1) << 1) |
      (((buf[i + 2] >> sh) & 1) << 2) |
      (((buf[i + 3] >> sh) & 1) << 3);
    if (v !== ref[bit]) return false;
  }
  return g.width >= 8;
}
