/**
 * Live frames of the built-in C64, on its own frame clock: at a frame
 * boundary that a viewer is due for, the VIC-II picture is rendered into the
 * "last completed frame" buffer (a double buffer: the one being compared and
 * the one just drawn) and, when it changed, pushed as palette indices of the
 * visible area. The machine never stops for it; PNG is made elsewhere, only
 * for files and MCP images. At a stop (and for a viewer that joins while the
 * machine is stopped) the picture is drawn from memory as it is now: the last
 * completed frame can predate what the program wrote before the stop (text
 * printed just before a breakpoint), while memory now is exactly the stopped
 * machine's (still flagged `maybeStale`, which says "taken at a stop"; its
 * `source` says it is memory now, so the panel shows no stale badge).
 */
import { clampFps, cropIndexed, deliverFrame } from '../../core/frames.js';
import type { Rgb } from '../../core/indexed-png.js';
import type { FrameListener, FrameRequest, FrameSource, FrameSourceInfo, ScreenFrame } from '../../core/target.js';
import type { BuiltinC64 } from './c64.js';
import { DISPLAY, DRAWN_INNER, VISIBLE, displayFrame } from './video.js';

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
  /** the visible area of the frame sent last, to send only changed ones */
  private shown?: Uint8Array;
  /** the frame number given last: numbers only grow, also when time travel takes the machine back */
  private issued = 0;

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
      request: { ...request, fps: clampFps(request.fps, MAX_FPS) },
      listener,
      last: performance.now(),
      allowance: 0,
    };
    this.viewers.add(viewer);
    this.onViewersChanged();
    deliverFrame([viewer], running ? this.render(false) : this.atStop()); // a new viewer sees the screen at once
    return () => {
      if (this.viewers.delete(viewer)) this.onViewersChanged();
    };
  }

  /** The machine stopped: every viewer gets the picture of the stopped machine. */
  stopped(): void {
    if (!this.viewers.size) return;
    deliverFrame([...this.viewers], this.atStop());
  }

  /** The stopped machine's picture: memory as it is now, which no later write has overtaken. */
  private atStop(): ScreenFrame {
    return this.render(true, 'memory-now');
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
    for (const v of due) v.allowance -= 1;
    // the visible area straight from the completed frame: one copy (the frame's own pixels) and one compare a frame
    const pixels = cropIndexed(displayFrame(this.machine.bus).pixels, DISPLAY.width, VISIBLE);
    if (this.shown && Buffer.compare(pixels, this.shown) === 0) return;
    this.shown = pixels;
    deliverFrame(due, this.frameOf(pixels, false));
  }

  private render(stale: boolean, source: FrameSource = 'last-frame'): ScreenFrame {
    this.shown = cropIndexed(displayFrame(this.machine.bus, source).pixels, DISPLAY.width, VISIBLE);
    return this.frameOf(this.shown, stale, source);
  }

  private frameOf(pixels: Uint8Array, stale: boolean, source: FrameSource = 'last-frame'): ScreenFrame {
    return {
      source,
      width: VISIBLE.width,
      height: VISIBLE.height,
      frame: (this.issued = this.machine.frame < this.issued ? this.issued + 1 : this.machine.frame),
      pixels,
      palette: this.palette(),
      inner: INNER,
      maybeStale: stale,
    };
  }
}
