/**
 * Everything the `dos` tools and the VS Code view do to one guest, behind the
 * Target's 'dos' feature: discovery results, addresses (with profile symbols),
 * memory, screen, input, traces and the loaded profile.
 */
import { notFound, unsupported } from '../../core/errors.js';
import { resolveDosAddress, type DosAddressInput, type ResolvedAddress } from '../../machines/dos/address.js';
import type { BdaSummary } from '../../machines/dos/bda.js';
import type { DosProgram } from '../../machines/dos/mcb.js';
import { paletteFromDac, parsePalette, TEXT_COLOURS, type Rgb } from '../../machines/dos/palette.js';
import { biosDac, defaultAttributePalette } from '../../machines/dos/video-modes.js';
import type { DosProfile, ProfileSymbol } from '../../machines/dos/profile.js';
import { TraceManager } from './trace-cave.js';
import type { Recorders } from './recorders.js';
import type { DosGuest } from './guest.js';
import { matchProfile, type ProfileMatch } from './profile-match.js';
import type { RendererPalette } from './renderer-palette.js';
import { calibrateVga, findVgaByFont, knownLayout, VgaScreen, type VgaLocation } from './vga.js';

export interface DosBackendInfo {
  backend: 'native' | 'wasm';
  description: string;
  pid?: number;
  launched: boolean;
  /** the private X display a native emulator runs on (isolation "xvfb") */
  display?: string;
  /** reads the emulator's live VGA DAC (768 six-bit bytes) when this build allows */
  dac?: () => Promise<Uint8Array | undefined>;
  /** the emulator's own recorders, when this backend has them */
  recorders?: Recorders;
  /** the emulator's own rendering (wasm) */
  emulatorScreenshot?: () => Promise<{ width: number; height: number; rgba: Buffer }>;
  /** 256 colours learned from that rendering, where the live DAC is not located (wasm) */
  rendererPalette?: RendererPalette;
}

/** A decoded frame's mode and layout; its pixels when a palette must be learned from them. */
export interface FrameKind {
  mode: number;
  layout: string;
  indices?: Uint8Array;
  width?: number;
  height?: number;
}

export class DosMachine {
  readonly traces: TraceManager;
  private vga?: VgaScreen;
  private profileState?: { profile: DosProfile; match: ProfileMatch; path?: string };

  constructor(
    readonly guest: DosGuest,
    readonly backend: DosBackendInfo,
  ) {
    this.traces = new TraceManager(guest);
  }

  get profile(): DosProfile | undefined {
    return this.profileState?.profile;
  }
  get profileMatch(): (ProfileMatch & { path?: string }) | undefined {
    return this.profileState && { ...this.profileState.match, path: this.profileState.path };
  }

  async summary(): Promise<{ bda: BdaSummary; programs: DosProgram[]; firstMcb: number; int21Live: boolean }> {
    const bda = await this.guest.bda();
    const map = await this.guest.programMap();
    const target = await this.guest.read(bda.int21.segment * 16 + bda.int21.offset, 4);
    return {
      bda,
      programs: map.programs,
      firstMcb: map.firstMcb,
      int21Live: !target.every((b) => b === 0 || b === 0xff),
    };
  }

  resolve(input: DosAddressInput): ResolvedAddress {
    return resolveDosAddress(input, { profile: this.profile, ds: this.profileState?.match.ds });
  }

  /** The screen reader; finds the VGA buffer on first use (or with explicit calibration text). */
  async screen(calibration?: { text: string; row: number; col: number }): Promise<VgaScreen> {
    if (this.vga && !calibration) return this.vga;
    let where: VgaLocation | undefined;
    if (calibration) where = await calibrateVga(this.guest.host, calibration.text, calibration.row, calibration.col);
    else
      where =
        (await calibrateVga(this.guest.host).catch(() => undefined)) ??
        (await knownLayout(this.guest.host, this.guest)) ??
        (await findVgaByFont(this.guest.host, this.guest).catch(() => undefined));
    if (!where) {
      throw notFound(
        "The VGA buffer is not located: not by our calibration line, not at DOSBox 0.74's place, and no single place holds the BIOS font in a plane-2 buffer (a text mode is needed for that). Pass calibration text that is on screen now with its row and column (dosbox_find_guest with screen_text).",
      );
    }
    if (this.vga) this.vga.relocate(where);
    else this.vga = new VgaScreen(this.guest, where);
    return this.vga;
  }

  /** Locate the VGA buffer now if it can be (called right after launch, while our calibration line is on screen). */
  async tryLocateScreen(): Promise<VgaLocation | undefined> {
    try {
      return (await this.screen()).where;
    } catch {
      return undefined;
    }
  }

  async loadProfile(profile: DosProfile, path?: string): Promise<ProfileMatch> {
    const match = await matchProfile(this.guest, profile);
    this.profileState = { profile, match, path };
    return match;
  }

  unloadProfile(): void {
    this.profileState = undefined;
  }

  symbolEntries(): [string, ProfileSymbol][] {
    return Object.entries(this.profile?.symbols ?? {});
  }

  async readSymbol(
    name: string,
  ): Promise<{ address: ResolvedAddress; bytes: Uint8Array; value: string; numeric?: number }> {
    const address = this.resolve(name);
    const sym = this.profile!.symbols[name];
    const bytes = await this.guest.read(address.physical, sym.size);
    return { address, bytes, ...formatSymbol(sym, bytes) };
  }

  /**
   * Colours for a decoded frame's pixel values: text through the standard 16
   * colours; CGA and 16-colour modes through the BIOS's attribute palette for
   * the mode (the attribute registers are emulator state we cannot read) and
   * the live DAC when known, else the BIOS's; 256 colours as palette().
   */
  async framePalette(f: FrameKind): Promise<{ palette: Rgb[]; source: string }> {
    if (f.layout === 'text') return { palette: TEXT_COLOURS, source: 'standard 16 text colours' };
    if (f.layout === 'chain-4' || f.layout === 'unchained') return this.palette(f);
    const live = this.profile?.palette ? undefined : await this.backend.dac?.();
    const dac = paletteFromDac(live ?? biosDac(f.mode));
    return {
      palette: defaultAttributePalette(f.mode).map((i) => dac[i]),
      source: `${live ? 'guest VGA DAC' : "the BIOS's DAC for the mode"} through the BIOS attribute palette`,
    };
  }

  /**
   * 256 colours: the profile's, else the emulator's live DAC when this build
   * exposes it, else (wasm, given the frame's pixels) learned from the emulator's own picture.
   */
  async palette(f?: FrameKind): Promise<{ palette: Rgb[]; source: string }> {
    if (this.profile?.palette)
      return { palette: parsePalette(this.profile.palette), source: `profile ${this.profile.name}` };
    const dac = await this.backend.dac?.();
    if (dac) return { palette: paletteFromDac(dac), source: 'guest VGA DAC' };
    const learned = this.backend.rendererPalette;
    if (learned && f?.indices && f.width && f.height)
      return {
        palette: await learned.palette(f.indices, f.width, f.height),
        source: "the emulator's own picture, per palette index (its DAC is not located in this build)",
      };
    throw unsupported(
      `The palette of this emulator build (${this.backend.description}) is not known: give the profile a "palette", or capture with source "emulator" on the wasm backend.`,
    );
  }
}

export function formatSymbol(sym: ProfileSymbol, bytes: Uint8Array): { value: string; numeric?: number } {
  const b = Buffer.from(bytes);
  switch (sym.type) {
    case 'u8':
      return { value: String(b[0]), numeric: b[0] };
    case 'u16':
      return { value: String(b.readUInt16LE(0)), numeric: b.readUInt16LE(0) };
    case 'i16':
      return { value: String(b.readInt16LE(0)), numeric: b.readInt16LE(0) };
    case 'u32':
      return { value: String(b.readUInt32LE(0)), numeric: b.readUInt32LE(0) };
    case 'cstring': {
      const end = b.indexOf(0);
      return { value: JSON.stringify(b.subarray(0, end < 0 ? b.length : end).toString('latin1')) };
    }
    default:
      return { value: b.toString('hex').toUpperCase() };
  }
}
