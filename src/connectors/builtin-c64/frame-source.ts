/**
 * Live frames of the built-in C64, on its own frame clock: at a frame
 * boundary that a viewer is due for, the VIC-II picture is rendered into the
 * "last completed frame" buffer (a double buffer: the one being compared and
 * the one just drawn) and, when it changed, pushed as palette indices of the
 * visible area. The machine never stops for it; PNG is made elsewhere, only
 * for files and MCP images.
 */
import { cropIndexed } from '../../core/frames.js';
import type { Rgb } from '../../core/indexed-png.js';
import type { FrameListener, FrameRequest, FrameSource, FrameSourceInfo, ScreenFrame } from '../../core/target.js';
import type { BuiltinC64 } from './c64.js';
import { DISPLAY, DRAWN_INNER, VISIBLE, renderDisplay } from './video.js';

/** the PAL frame rate: no viewer gets more */
export const MAX_FPS = 50;
/** frames a late frame clock may send back to back to keep a viewer's average rate */
const MAX_BURST = 1.5;

export const BUILTIN_FRAME_SOURCE: FrameSourceInfo = {
  mode: 'push',
  maxFps: MAX_FPS,
  cost: 'frames come from the built-in C64 frame clock; the machine does not stop for them',
};

interface Viewer {
  request: FrameRequest;
  listener: FrameListener;
  /** performance.now() when its allowance was last topped up */
  last: number;
  /** frames it may be sent now (a token bucket: the average rate is its fps however the frame clock jitters) */
  allowance: number;
}

const INNER = { ...DRAWN_INNER, x: DRAWN_INNER.x - VISIBLE.x, y: DRAWN_INNER.y - VISIBLE.y };

export class BuiltinFrames {
  private readonly viewers = new Set<Viewer>();
  private drawn = Buffer.alloc(DISPLAY.width * DISPLAY.height);
  private shown = Buffer.alloc(DISPLAY.width * DISPLAY.height);
  private hasShown = false;

  constructor(
    private readonly machine: BuiltinC64,
    private readonly palette: () => readonly Rgb[],
    /** viewers asking for real time came or went */
    private readonly onViewersChanged: () => void,
  ) {
    machine.onFrame = () => this.frameEnded();
  }

  /** True while a viewer asks for the machine's real speed (the default for viewers). */
  get wantsRealtime(): boolean {
    for (const v of this.viewers) if (v.request.realtime !== false) return true;
    return false;
  }

  subscribe(request: FrameRequest, listener: FrameListener, running: boolean): () => void {
    const viewer: Viewer = {
      request: { ...request, fps: clampFps(request.fps) },
      listener,
      last: performance.now(),
      allowance: 0,
    };
    this.viewers.add(viewer);
    this.onViewersChanged();
    this.deliver([viewer], this.render(!running)); // a new viewer sees the screen at once
    return () => {
      if (this.viewers.delete(viewer)) this.onViewersChanged();
    };
  }

  /** The machine stopped: every viewer gets the frame as it stands, flagged as possibly stale. */
  stopped(): void {
    if (!this.viewers.size) return;
    this.deliver([...this.viewers], this.render(true));
  }

  /** The current picture without stopping anything (a cheap screenshot while running). */
  current(stale: boolean, source: FrameSource = 'last-frame'): ScreenFrame {
    return this.render(stale, source);
  }

  private frameEnded(): void {
    if (!this.viewers.size) return;
    const now = performance.now();
    for (const v of this.viewers) {
      v.allowance = Math.min(MAX_BURST, v.allowance + ((now - v.last) * v.request.fps) / 1000);
      v.last = now;
    }
    const due = [...this.viewers].filter((v) => v.allowance >= 1);
    if (!due.length) return;
    renderDisplay(this.machine.bus, this.drawn);
    const changed = !this.hasShown || !this.drawn.equals(this.shown);
    for (const v of due) v.allowance -= 1;
    if (!changed) return;
    [this.drawn, this.shown] = [this.shown, this.drawn];
    this.hasShown = true;
    this.deliver(due, this.frameOf(this.shown, false));
  }

  private render(stale: boolean, source: FrameSource = 'last-frame'): ScreenFrame {
    renderDisplay(this.machine.bus, this.shown, source);
    this.hasShown = true;
    return this.frameOf(this.shown, stale, source);
  }

  private frameOf(buffer: Buffer, stale: boolean, source: FrameSource = 'last-frame'): ScreenFrame {
    return {
      source,
      width: VISIBLE.width,
      height: VISIBLE.height,
      frame: this.machine.frame,
      pixels: cropIndexed(buffer, DISPLAY.width, VISIBLE),
      palette: this.palette(),
      inner: INNER,
      maybeStale: stale,
    };
  }

  private deliver(viewers: Viewer[], frame: ScreenFrame): void {
    for (const v of viewers) {
      try {
        v.listener(frame);
      } catch {
        /* a viewer's bug stays its own; the machine runs on */
      }
    }
  }
}

function clampFps(fps: number): number {
  return Number.isFinite(fps) && fps > 0 ? Math.min(MAX_FPS, fps) : MAX_FPS;
}
