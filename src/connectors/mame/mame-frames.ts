/**
 * MAME's live frames, pushed by the Lua plugin's frame callback
 * (`plugin/mamebridge/frames.lua`): while a viewer watches, MAME sends a frame
 * only when its pixels changed, at most at the rate asked for, as a `frame`
 * event whose BGRA bytes lie in one of two slots of a file in MAME's private
 * run folder (so MAME's thread never waits on the socket for Node to read;
 * without the file they follow the line on the socket). Each is acked so at
 * most two are in flight and a slot is rewritten only after it was read. At a
 * stop, where MAME draws no frames, one screenshot is sent, marked as possibly
 * stale. Watching at real time turns MAME's throttle on (`-throttle` at run
 * time); without viewers the session's own speed (its `throttle` launch
 * option) comes back.
 */
import { closeSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deliverFrame } from '../../core/frames.js';
import { bgraToRgba, PaletteIndexer } from './mame-pixels.js';
import type { FrameListener, FrameRequest, FrameSourceInfo, ScreenImage } from '../../core/target.js';
import type { BridgeClient, BridgeEvent } from './bridge-client.js';

export { bgraToRgba } from './mame-pixels.js';

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
  /** MAME's private run folder, where the slot file is made; without it the pixels come over the socket */
  slotsDir?: string;
}

/** frames.lua's SLOT_BYTES: the stride of the two slots */
export const MAME_SLOT_BYTES = 16 * 1024 * 1024;

export class MameFrames {
  private readonly viewers = new Set<Viewer>();
  /** what MAME was last asked for ("fps/throttle"), undefined when not subscribed */
  private active?: string;
  private applying: Promise<void> = Promise.resolve();
  private lastFrame = 0;
  /** whether the slot file was made: undefined before the first subscription */
  private slotsMade?: boolean;
  private readonly slotsFile?: string;
  private readBuffer?: Buffer;
  private readonly indexer = new PaletteIndexer();

  constructor(
    private readonly bridge: BridgeClient,
    private readonly opts: MameFramesOptions,
  ) {
    this.slotsFile = opts.slotsDir && join(opts.slotsDir, 'frames.bin');
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
    await this.bridge.request('frames_start', { fps, throttle, ...this.slots() });
  }

  /** The slot file, created (empty, owner only) before MAME first opens it; none when it cannot be made. */
  private slots(): { file?: string } {
    const file = this.slotsFile;
    if (!file || this.slotsMade === false) return {};
    if (this.slotsMade === undefined) {
      try {
        writeFileSync(file, '', { mode: 0o600 });
        this.slotsMade = true;
      } catch {
        this.slotsMade = false; // the socket carries the pixels
        return {};
      }
    }
    return { file };
  }

  /**
   * The frame's BGRA bytes: after its line on the socket, or read from its
   * slot into one buffer kept for it (the indexed or RGBA frame made from it is
   * a new array; the slot's bytes are not kept).
   */
  private pixels(e: BridgeEvent, binary: Buffer | undefined, bytes: number): Buffer | undefined {
    if (binary) return binary.length === bytes ? binary : undefined;
    const file = this.slotsFile;
    if (!file || e.bytes !== bytes || (e.offset !== 0 && e.offset !== MAME_SLOT_BYTES)) return undefined;
    if (this.readBuffer?.length !== bytes) this.readBuffer = Buffer.allocUnsafeSlow(bytes);
    const fd = openSync(file, 'r');
    try {
      return readSync(fd, this.readBuffer, 0, bytes, e.offset) === bytes ? this.readBuffer : undefined;
    } finally {
      closeSync(fd);
    }
  }

  private onFrame(e: BridgeEvent, binary: Buffer | undefined): void {
    const width = Number(e.width);
    const height = Number(e.height);
    let bgra: Buffer | undefined;
    try {
      // read before the ack: after it MAME may rewrite the slot
      bgra = this.viewers.size ? this.pixels(e, binary, width * height * 4) : undefined;
    } catch {
      bgra = undefined; // the run folder went away with MAME: a frame missed
    }
    if (typeof e.seq === 'number') void this.bridge.request('frames_ack', { seq: e.seq }).catch(() => undefined);
    if (!bgra) return; // no viewer, or a malformed frame: dropped; the next one comes
    const aligned = bgra.byteOffset % 4 === 0 ? bgra : Buffer.from(bgra);
    const indexed = this.indexer.toIndexed(aligned, width * height);
    deliverFrame([...this.viewers], {
      width,
      height,
      frame: this.number(Number(e.frame) || 0),
      ...(indexed ?? { rgba: bgraToRgba(bgra) }),
      maybeStale: false,
    });
  }

  /** MAME's frame number, never going back (a hard reset restarts MAME's count). */
  private number(frame: number): number {
    this.lastFrame = Math.max(this.lastFrame, frame);
    return this.lastFrame;
  }
}
