/**
 * `source: "window"`: the emulator's own rendering, photographed on its
 * private X display. The window is what the emulator's scaler made of the
 * mode (DOSBox 0.74: normal2x, 320x200 → 640x400); it is reduced to the mode's
 * pixels when it is an exact integer multiple, then enlarged by the integer
 * `scale` asked for, and compared with the VRAM decode of the same moment.
 * Video memory stays the better source: exact, cheaper, never half-drawn.
 */
import { unsupported } from '../../core/errors.js';
import { indicesToRgba } from '../../machines/dos/palette.js';
import type { DosMachine } from './dos-machine.js';
import { PrivateDisplay } from './x-display.js';
import { reduceToMode, scaleUp, type RgbaImage } from './xwd.js';

export interface WindowCapture {
  image: RgbaImage;
  window: { id: string; width: number; height: number };
  /** the emulator's scale of the mode in its window, when it is an integer one */
  emulator_scale?: [number, number];
  capture_ms: number;
  /** guest BIOS ticks (55 ms each) that passed during the capture */
  guest_ticks: number;
  /** pixels that differ from the VRAM decode (after reduction), when that decode and its palette are known */
  vram_differing_pixels?: number;
}

export function privateDisplay(machine: DosMachine): PrivateDisplay {
  const display = machine.backend.display;
  if (!display)
    throw unsupported(
      machine.backend.backend === 'wasm'
        ? 'The embedded emulator has no window; use source "emulator" (its own renderer) or "vram".'
        : 'This emulator has no private display: only a DOSBox launched with isolation "xvfb" has a window we may photograph or send hotkeys to (a window on your desktop is never touched).',
    );
  return new PrivateDisplay(display);
}

export async function captureWindow(machine: DosMachine, scale?: number): Promise<WindowCapture> {
  const display = privateDisplay(machine);
  const before = (await machine.guest.bda()).ticks;
  const shot = await display.capture();
  const after = (await machine.guest.bda()).ticks;
  const frame = await (await machine.screen()).frame({ allowUnconfirmed: true }).catch(() => undefined);
  let reduced: (RgbaImage & { scale: [number, number] }) | undefined;
  if (frame) {
    try {
      reduced = reduceToMode(shot.image, frame.width, frame.height);
    } catch (err) {
      if (scale !== undefined) throw err;
    }
  } else if (scale !== undefined)
    throw unsupported('The current video mode is not known, so the window cannot be reduced to it.');
  let differing: number | undefined;
  if (frame && reduced) {
    const palette = await machine.framePalette(frame).catch(() => undefined);
    if (palette) {
      const vram = indicesToRgba(frame.indices, palette.palette);
      differing = 0;
      for (let i = 0; i < frame.indices.length; i++)
        if (vram.readUInt32BE(i * 4) !== reduced.rgba.readUInt32BE(i * 4)) differing++;
    }
  }
  return {
    image: scale !== undefined && reduced ? scaleUp(reduced, scale) : shot.image,
    window: { id: shot.window, width: shot.image.width, height: shot.image.height },
    emulator_scale: reduced?.scale,
    capture_ms: Math.round(shot.ms),
    guest_ticks: (after - before) >>> 0,
    vram_differing_pixels: differing,
  };
}
