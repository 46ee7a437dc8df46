/**
 * The session's live screen: one feed per session that every viewer (the
 * panel, MCP watch_screen) shares. A connector with a push source gives
 * frames from the emulator's frame clock; for one without, the feed takes a
 * screenshot per frame while the machine runs (at most its source's rate,
 * single-flight, so captures never pile up) and one at each stop, and sends
 * only frames that changed. The last frames are kept for watch_screen. Where
 * each frame halts the machine (a real VICE) the user's refresh rate bounds
 * the polling and screenshots (screen-refresh.ts).
 */
import { targetLost } from '../core/errors.js';
import { samePicture } from '../core/frames.js';
import type {
  FrameListener,
  FrameRequest,
  FrameSourceInfo,
  ScreenFrame,
  ScreenImage,
  TargetScreen,
} from '../core/target.js';
import { DEFAULT_REFRESH_FPS, checkRefreshFps, pollFps, refreshCost, screenshotReuseMs } from './screen-refresh.js';

/** frames kept for watch_screen's since_frame */
export const KEPT_FRAMES = 32;
/** the rate of a connector that says nothing of its own */
const DEFAULT_SOURCE: FrameSourceInfo = {
  mode: 'stop',
  maxFps: 25,
  cost: 'each frame is one screenshot of the emulator while it runs',
};

interface Viewer {
  request: FrameRequest;
  listener: FrameListener;
}

export class ScreenFeed {
  private readonly viewers = new Set<Viewer>();
  private readonly kept: ScreenFrame[] = [];
  private upstream?: () => void;
  private poller?: NodeJS.Timeout;
  private polling = false;
  /** a stop came while a capture was under way: the stop's own picture is still to take */
  private stopMissed = false;
  private counter = 0;
  private closed = false;
  /** the newest picture taken while running, and when (performance.now()) */
  private live?: { at: number; image: ScreenImage };
  private refreshFps: number;

  constructor(
    private readonly screen: () => TargetScreen,
    private readonly running: () => boolean,
    /** the launch's screenRefreshFps, for a source whose frames halt the machine */
    launch: { screenRefreshFps?: number } = {},
  ) {
    this.refreshFps = launch.screenRefreshFps ?? DEFAULT_REFRESH_FPS;
  }

  /** The feed of a session: its launch's refresh rate, keeping pace with its run-state events. */
  static following(
    session: {
      config: { screenRefreshFps?: number };
      onEvent(listener: (e: { event: { type: string } }) => void): unknown;
    },
    screen: () => TargetScreen,
    running: () => boolean,
  ): ScreenFeed {
    const feed = new ScreenFeed(screen, running, session.config);
    session.onEvent(({ event }) => feed.follow(event.type));
    return feed;
  }

  get info(): FrameSourceInfo {
    const source = this.screen().frameSource ?? DEFAULT_SOURCE;
    if (!source.rates) return source;
    return { ...source, refreshFps: this.refreshFps, cost: refreshCost(source, this.refreshFps) };
  }

  /** The user's refresh rate for a source whose frames halt the machine; refused for one that has none. */
  setRefresh(fps: number, session: string): FrameSourceInfo {
    this.refreshFps = checkRefreshFps(this.info, fps, session);
    if (this.poller) clearTimeout(this.poller);
    this.poller = undefined;
    this.schedulePoll();
    return this.info;
  }

  /**
   * A screenshot: where each frame halts the machine, one taken while running
   * within the refresh bound is given again (with its age) instead of another stop.
   */
  async screenshot(): Promise<ScreenImage> {
    const age = this.live ? performance.now() - this.live.at : Infinity;
    if (this.live && this.running() && age < screenshotReuseMs(this.info, this.refreshFps))
      return { ...this.live.image, ageMs: Math.round(age) };
    const screen = this.screen();
    const shot = await this.taken(screen.capture());
    if (this.viewers.size && !screen.frames) this.publish(this.asFrame(shot));
    return shot;
  }

  /** A viewer's frames until the returned function is called. */
  watch(request: FrameRequest, listener: FrameListener): () => void {
    if (this.closed) throw targetLost('The session has ended; there are no more frames.');
    const screen = this.screen(); // refuses a target without a screen, once, with its reason
    const viewer: Viewer = { request, listener };
    this.viewers.add(viewer);
    const last = this.kept.at(-1);
    this.restart(screen);
    // a push source sends nothing new while the picture stands still: the newcomer gets the last one now
    if (last && this.kept.at(-1) === last) this.deliver(viewer, last);
    return () => {
      if (!this.viewers.delete(viewer)) return;
      this.restart(screen);
    };
  }

  /** Frames newer than `since` that are kept (oldest first, at most `max`). */
  since(since: number, max: number): ScreenFrame[] {
    return this.kept.filter((f) => f.frame > since).slice(0, max);
  }

  /**
   * Frames newer than `since`: the kept ones, else those that come within
   * `waitMs` (up to `max`); an agent watching does not change the speed.
   */
  collect(since: number, max: number, waitMs: number): Promise<ScreenFrame[]> {
    const out = this.since(since, max);
    if (out.length >= max || waitMs <= 0) return Promise.resolve(out);
    return new Promise((resolve) => {
      let finished = false;
      const sub: { off?: () => void } = {};
      const finish = () => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        sub.off?.();
        resolve(out);
      };
      const timer = setTimeout(finish, waitMs);
      sub.off = this.watch({ fps: 25, realtime: false }, (f) => {
        if (f.frame <= (out.at(-1)?.frame ?? since)) return;
        out.push(f);
        if (out.length >= max) finish();
      });
      if (finished) sub.off();
    });
  }

  /** Keeps pace with the session's run state (its event types). */
  follow(event: string): void {
    if (event === 'stopped') this.stopped();
    else if (event === 'running') this.resumed();
    else if (event === 'exited') this.close();
  }

  /** The machine stopped: a source without push takes one frame as it stands. */
  stopped(): void {
    this.live = undefined;
    if (this.viewers.size && !this.screen().frames) void this.pollOnce();
  }

  /** The machine runs again: polling resumes. */
  resumed(): void {
    if (this.viewers.size && !this.screen().frames) this.schedulePoll();
  }

  close(): void {
    this.closed = true;
    this.viewers.clear();
    this.stopUpstream();
  }

  /** One upstream subscription for all viewers, at the highest rate any of them asks (real time if any asks it). */
  private restart(screen: TargetScreen): void {
    this.stopUpstream();
    if (!this.viewers.size) return;
    const fps = Math.max(...[...this.viewers].map((v) => v.request.fps));
    const realtime = [...this.viewers].some((v) => v.request.realtime !== false);
    if (screen.frames) {
      // a pushed frame at a stop names a moment (a stop, a move in time): passed on even when it looks the same
      this.upstream = screen.frames({ fps, realtime }, (f) => this.publish(f, f.maybeStale === true));
      return;
    }
    // refresh off: while running, the newcomer waits for the next stop (the kept frame, if any, it has)
    if (this.running() && pollFps(this.info, this.refreshFps, fps) <= 0) return;
    void this.pollOnce().then(() => this.schedulePoll());
  }

  private stopUpstream(): void {
    this.upstream?.();
    this.upstream = undefined;
    if (this.poller) clearTimeout(this.poller);
    this.poller = undefined;
  }

  private schedulePoll(): void {
    if (this.poller || !this.viewers.size || this.closed || !this.running()) return;
    const fps = pollFps(this.info, this.refreshFps, Math.max(...[...this.viewers].map((v) => v.request.fps)));
    if (fps <= 0) return;
    this.poller = setTimeout(
      () => {
        this.poller = undefined;
        void this.pollOnce().then(() => this.schedulePoll());
      },
      Math.max(1, 1000 / fps),
    );
  }

  private async pollOnce(): Promise<void> {
    if (this.closed) return;
    if (this.polling) {
      // a stop met a capture begun while running: that picture predates the stop, so one more follows it
      if (!this.running()) this.stopMissed = true;
      return;
    }
    this.polling = true;
    try {
      this.publish(this.asFrame(await this.taken(this.screen().capture())));
    } catch {
      /* a capture that failed (the machine went away, a stop in between) is a frame missed, not an error */
    } finally {
      this.polling = false;
    }
    if (this.stopMissed) {
      this.stopMissed = false;
      if (!this.running()) await this.pollOnce();
    }
  }

  /** A capture, remembered when it was taken while running. */
  private async taken(capture: Promise<ScreenImage>): Promise<ScreenImage> {
    const shot = await capture;
    if (shot.maybeStale) this.live = undefined;
    else this.live = { at: performance.now(), image: shot };
    return shot;
  }

  private asFrame(shot: ScreenImage): ScreenFrame {
    return {
      width: shot.width,
      height: shot.height,
      frame: Math.max(shot.frame ?? 0, this.counter + 1),
      rgba: shot.rgba,
      maybeStale: shot.maybeStale,
    };
  }

  private publish(frame: ScreenFrame, moment = false): void {
    const last = this.kept.at(-1);
    if (!moment && samePicture(last, frame) && last?.maybeStale === frame.maybeStale) return;
    this.counter = Math.max(this.counter, frame.frame);
    this.kept.push(frame);
    if (this.kept.length > KEPT_FRAMES) this.kept.shift();
    for (const v of [...this.viewers]) this.deliver(v, frame);
  }

  private deliver(viewer: Viewer, frame: ScreenFrame): void {
    try {
      viewer.listener(frame);
    } catch {
      /* one viewer's bug stays its own */
    }
  }
}
