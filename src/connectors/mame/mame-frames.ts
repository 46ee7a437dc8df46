/**
 * MAME's live frames, pushed by the Lua plugin's frame callback
 * (`plugin/mamebridge/frames.lua`): while a viewer watches, MAME sends a frame
 * only when its pixels changed, at most at the rate asked for, as a binary
 * `frame` event (BGRA bytes after the line, never JSON). Each is acked so at
 * most two are in flight. At a stop, where MAME draws no frames, one
 * screenshot is sent, marked as possibly stale. Watching at real time turns
 * MAME's throttle on (`-throttle` at run time); without viewers the session's
 * own speed (its `throttle` launch option) comes back.
 */
import { deliverFrame } from '../../core/frames.js';
import type { FrameListener, FrameRequest, FrameSourceInfo, ScreenImage } from '../../core/target.js';
import type { BridgeClient, BridgeEvent } from './bridge-client.js';

/** the most frames a second the plugin sends (frames.lua's MAX_FPS) */
export const MAME_MAX_FPS = 60;

export const MAME_FRAME_SOURCE: FrameSourceInfo = {
  mode: 'push',
  maxFps: MAME_MAX_FPS,
  cost: "frames come from MAME's own frame callback, only when the picture changed; the machine does not stop for them",
};

interface Viewer {
  request: FrameRequest;
  listener: FrameListener;
}

export interface MameFramesOptions {
  /** the session's speed without a viewer: real time (launched with `throttle`), else unthrottled */
  throttle: boolean;
  running: () => boolean;
  /** the picture as it stands (screen_pixels), for a stop */
  screenshot: () => Promise<ScreenImage>;
}

export class MameFrames {
  private readonly viewers = new Set<Viewer>();
  /** what MAME was last asked for ("fps/throttle"), undefined when not subscribed */
  private active?: string;
  private applying: Promise<void> = Promise.resolve();
  private lastFrame = 0;

  constructor(
    private readonly bridge: BridgeClient,
    private readonly opts: MameFramesOptions,
  ) {
    bridge.onEvent((e, binary) => {
      if (e.event === 'frame') this.onFrame(e, binary);
    });
  }

  subscribe(request: FrameRequest, listener: FrameListener): () => void {
    const viewer: Viewer = { request, listener };
    this.viewers.add(viewer);
    this.sync();
    // MAME draws nothing while stopped: a newcomer gets the picture as it stands
    if (!this.opts.running()) void this.still([viewer]);
    return () => {
      if (this.viewers.delete(viewer)) this.sync();
    };
  }

  /** The machine stopped: every viewer gets the frame as it stands, flagged as possibly stale. */
  stopped(): void {
    if (this.viewers.size) void this.still([...this.viewers]);
  }

  private async still(viewers: Viewer[]): Promise<void> {
    try {
      const shot = await this.opts.screenshot();
      deliverFrame(viewers, {
        width: shot.width,
        height: shot.height,
        frame: this.number(shot.frame ?? 0),
        rgba: shot.rgba,
        maybeStale: true,
      });
    } catch {
      /* the machine went away or runs again: a frame missed, not an error */
    }
  }

  /** One subscription in MAME at the highest rate any viewer asks; requests go one at a time, in order. */
  private sync(): void {
    this.applying = this.applying.then(() => this.apply()).catch(() => undefined);
  }

  private async apply(): Promise<void> {
    if (!this.viewers.size) {
      if (this.active === undefined) return;
      this.active = undefined;
      await this.bridge.request('frames_stop', { throttle: this.opts.throttle });
      return;
    }
    const fps = Math.min(MAME_MAX_FPS, Math.max(...[...this.viewers].map((v) => v.request.fps)));
    const throttle = this.opts.throttle || [...this.viewers].some((v) => v.request.realtime !== false);
    const key = `${fps}/${throttle}`;
    if (key === this.active) return;
    this.active = key;
    await this.bridge.request('frames_start', { fps, throttle });
  }

  private onFrame(e: BridgeEvent, binary: Buffer | undefined): void {
    if (typeof e.seq === 'number') void this.bridge.request('frames_ack', { seq: e.seq }).catch(() => undefined);
    const width = Number(e.width);
    const height = Number(e.height);
    if (!this.viewers.size || !binary) return;
    if (binary.length !== width * height * 4) return; // a malformed frame is dropped; the next one comes
    deliverFrame([...this.viewers], {
      width,
      height,
      frame: this.number(Number(e.frame) || 0),
      rgba: bgraToRgba(binary),
      maybeStale: false,
    });
  }

  /** MAME's frame number, never going back (a hard reset restarts MAME's count). */
  private number(frame: number): number {
    this.lastFrame = Math.max(this.lastFrame, frame);
    return this.lastFrame;
  }
}

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** MAME pixels are 0xAARRGGBB little-endian words, i.e. B,G,R,A bytes: R and B swap, one 32-bit word a pixel. */
export function bgraToRgba(src: Buffer): Buffer {
  const out = Buffer.allocUnsafeSlow(src.length); // its own ArrayBuffer: aligned for the word view
  src.copy(out);
  if (!littleEndian) {
    for (let i = 0; i < out.length; i += 4) [out[i], out[i + 2]] = [out[i + 2], out[i]];
    return out;
  }
  const words = new Uint32Array(out.buffer, out.byteOffset, out.length >>> 2);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    words[i] = (w & 0xff00ff00) | ((w & 0xff) << 16) | ((w >>> 16) & 0xff);
  }
  return out;
}
