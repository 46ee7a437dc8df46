/**
 * Live frames of a DOS guest, read from its video memory while DOSBox runs
 * (it never stops for them: the reads go through /proc/PID/mem or the wasm
 * heap): the BIOS mode, then text cells (with the guest's font) or the mode
 * 13h / Mode X / EGA / CGA picture, decoded by the project's decoders into
 * palette indices with the guest's palette. One read at a time, at most the
 * rate asked for; a frame goes to the viewers only when its pixels or
 * palette changed.
 */
import { deliverFrame, clampFps, samePicture } from '../../core/frames.js';
import type { Rgb } from '../../machines/dos/palette.js';
import type { FrameListener, FrameRequest, FrameSourceInfo, ScreenFrame } from '../../core/target.js';

export const DOS_MAX_FPS = 60;

export const DOS_FRAME_SOURCE: FrameSourceInfo = {
  mode: 'push',
  maxFps: DOS_MAX_FPS,
  cost: "frames are decoded from the guest's video memory while DOSBox runs; the emulator does not stop for them",
};

/** One decoded picture: palette indices and the palette. */
export interface DecodedScreen {
  width: number;
  height: number;
  indices: Uint8Array;
  palette: readonly Rgb[];
}

interface Viewer {
  request: FrameRequest;
  listener: FrameListener;
}

export class DosFrames {
  private readonly viewers = new Set<Viewer>();
  private timer?: NodeJS.Timeout;
  private reading = false;
  private last?: ScreenFrame;
  private counter = 0;
  /** reads made (for tests and the bench: what the source cost) */
  reads = 0;

  constructor(
    /** the guest's screen as it is now */
    private readonly read: () => Promise<DecodedScreen>,
    private readonly alive: () => boolean,
  ) {}

  subscribe(request: FrameRequest, listener: FrameListener): () => void {
    const viewer = { request, listener };
    this.viewers.add(viewer);
    if (this.last) deliverFrame([viewer], this.last); // a newcomer sees the screen at once
    if (!this.timer && !this.reading) this.tick();
    return () => {
      this.viewers.delete(viewer);
      if (!this.viewers.size && this.timer) {
        clearTimeout(this.timer);
        this.timer = undefined;
      }
    };
  }

  private get interval(): number {
    const fps = Math.max(...[...this.viewers].map((v) => clampFps(v.request.fps, DOS_MAX_FPS)));
    return 1000 / fps;
  }

  /** One read, then the next after the interval (counted from this read's start, so a slow read does not slow the rate). */
  private tick(): void {
    this.timer = undefined;
    if (!this.viewers.size || !this.alive()) return;
    const started = performance.now();
    this.reading = true;
    void this.readOnce().finally(() => {
      this.reading = false;
      if (!this.viewers.size || this.timer) return;
      const wait = Math.max(0, this.interval - (performance.now() - started));
      this.timer = setTimeout(() => this.tick(), wait);
    });
  }

  private async readOnce(): Promise<void> {
    let shot: DecodedScreen;
    try {
      shot = await this.read();
      this.reads++;
    } catch {
      return; // a mode we cannot decode, or a guest in the middle of a mode change: this frame is missed
    }
    const frame: ScreenFrame = {
      width: shot.width,
      height: shot.height,
      frame: this.counter + 1,
      pixels: shot.indices,
      palette: shot.palette,
      maybeStale: false,
    };
    if (samePicture(this.last, frame)) return;
    this.counter = frame.frame;
    this.last = frame;
    deliverFrame([...this.viewers], frame);
  }
}
