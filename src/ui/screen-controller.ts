/**
 * The screen panel's logic without VS Code: follows the manager's current
 * session, feeds the webview raw frames from the session's live screen feed
 * (pushed while running, one at each stop), shows who holds control, types
 * the keys pressed in the panel and drives the joystick and mouse
 * (panel-devices.ts) and the timeline slider (panel-timeline.ts) for the user: under the lease of the user's own VS Code
 * debug session on this session when there is one, else as the panel's own
 * client; either claims a free lease when it acts, and an agent's lease is
 * taken back only on request ("Take back", the status-bar item). It also
 * answers the inspector's hovers.
 * Frames are posted at most three at a time (a post settles only after a
 * round trip to the webview's process, which in a browser-hosted VS Code
 * under load took longer than two frames at 30/s), only the rows that
 * changed (frame-delta.ts); beyond that a slow webview gets the newest frame,
 * no queue.
 */
import { asRetroError, timedOut } from '../core/errors.js';
import { parseKeyText } from '../core/keys.js';
import { memoryReference } from '../core/memory-reference.js';
import type { ScreenFrame } from '../core/target.js';
import type { ClientSession, SessionApi, SessionManagerApi } from '../session/types.js';
import { FrameDelta, frameKey } from './frame-delta.js';
import { isUsersClient, panelRefusal } from './control-text.js';
import { PanelDevices } from './panel-devices.js';
import { PanelTimeline, panelMove, timelineMessage } from './panel-timeline.js';
import { c64SpriteOutlines, inspectPoint } from './screen-inspect.js';
import { parseWebviewMessage, type HostMessage } from './screen-messages.js';

export interface ScreenControllerOptions {
  sessions: Pick<SessionManagerApi, 'get' | 'onSessionsChanged'>;
  /** delivers a message to the webview; a promise settles when it is delivered */
  post: (message: HostMessage) => unknown;
  /** frames a second while running; default 30 */
  fps?: number;
  /** bound on one status read; default 15 s */
  timeoutMs?: number;
  /** the user's VS Code debug session's handle on this session, if any: the panel acts through it */
  userClient?: (sessionId: string) => ClientSession | undefined;
  /** a timeline move made by the user's debug session on this session (undefined: none there) */
  userGoTo?: (sessionId: string, frame: number | 'present') => Promise<void> | undefined;
}

export const NO_SESSION_MESSAGE =
  'No Retro Debug session is running. Start one with F5 (debug type "retro") or from an agent over MCP.';
export const PANEL_LABEL = 'Screen panel';
/** sprite outlines follow the sprites at most this often (each is one read of the VIC-II registers) */
const OUTLINE_MS = 100;
/** posts under way at once: 2 lost ~3 frames/s of 30 in code-server at load 8-10, 3 none; few enough not to queue */
export const FRAMES_IN_FLIGHT = 3;
/** heartbeat of the panel's client while it is open (well within the lease time) */
const BEAT_MS = 5000;

export class ScreenController {
  private session?: SessionApi;
  private me?: ClientSession;
  private stopListening?: () => void;
  private stopWatching?: () => void;
  private readonly stopFollowingManager: () => void;
  private readonly beat: NodeJS.Timeout;
  private ready = false;
  private disposed = false;
  private warp = false;
  private state = 'starting';
  private lastFrame?: ScreenFrame;
  private posting = 0;
  private fed = 0;
  private readonly delta = new FrameDelta();
  private pendingFrame?: ScreenFrame;
  private machine?: string;
  private spriteOutlines = false;
  private outlining = false;
  private outlinedAt = 0;

  /** the slider's moves in the recorded history */
  private readonly timeline = new PanelTimeline();

  /** joystick and mouse from the panel, under the panel's control lease */
  private readonly devices = new PanelDevices({
    controlling: () => this.controlling(),
    frame: () => this.lastFrame,
  });

  constructor(private readonly opts: ScreenControllerOptions) {
    this.stopFollowingManager = opts.sessions.onSessionsChanged(() => this.follow());
    this.beat = setInterval(() => this.me?.beat(), BEAT_MS);
    this.beat.unref();
    this.follow();
  }

  /** The session currently shown, if any. */
  get currentSessionId(): string | undefined {
    return this.session?.id;
  }

  /** Handles a message from the webview; unknown messages are ignored. */
  async handleMessage(raw: unknown): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message || this.disposed) return;
    try {
      // each case awaited here, so a refusal becomes a status line for the panel, never an unhandled rejection
      switch (message.type) {
        case 'ready':
          this.ready = true;
          this.delta.reset();
          return await this.refresh();
        case 'refresh':
          this.delta.reset();
          return await this.refresh();
        case 'full-frame':
          return this.delta.reset();
        case 'take-control':
          this.actor()?.claimControl({ takeOver: true });
          return await this.postControl();
        case 'release-control':
          this.me?.releaseControl();
          return await this.postControl();
        case 'key':
          return await this.typeKey(message.text);
        case 'inspect':
          return await this.inspect(message.x, message.y);
        case 'warp':
          this.warp = message.on;
          return this.watch();
        case 'refresh-rate':
          this.session?.setScreenRefresh(message.fps);
          return this.postSource();
        case 'sprites':
          this.spriteOutlines = message.on;
          return await this.outlineSprites();
        case 'open-memory':
          return; // the VS Code side opens the memory view
        case 'joystick':
          return await this.devices.joystick(message.port, message.state);
        case 'pointer':
          return await this.devices.pointer(message.x, message.y, message.buttons);
        case 'go-to-frame':
        case 'go-to-present':
          return await this.travel(message.type === 'go-to-frame' ? message.frame : 'present');
      }
    } catch (err) {
      this.post({ type: 'status', sessionId: this.session?.id, state: this.state, message: asRetroError(err).message });
    }
  }

  /** Re-reads the state and restarts the frames (the Refresh button). */
  async refresh(): Promise<void> {
    if (this.disposed || !this.ready) return;
    const session = this.session;
    if (!session) {
      this.post({ type: 'status', message: NO_SESSION_MESSAGE });
      return;
    }
    try {
      const status = await this.bounded(session.status());
      this.state = status.state;
      this.machine = status.machine;
      if (status.phase !== 'ready') {
        const latest = status.error?.message ?? status.progress.at(-1) ?? status.phase;
        this.post({
          type: 'status',
          sessionId: session.id,
          state: status.state,
          message: `Session is ${status.phase}: ${latest}`,
        });
        return;
      }
      this.watch();
      this.postSource();
      await this.postControl();
      this.post({ ...(await this.devices.describe(session)), spriteOutlines: status.machine === 'c64' });
      await this.postTimeline();
    } catch (err) {
      this.post({ type: 'status', sessionId: session.id, state: this.state, message: asRetroError(err).message });
    }
  }

  dispose(): void {
    this.disposed = true;
    clearInterval(this.beat);
    this.stopFollowingManager();
    this.unfollow();
  }

  /** The panel's client in the session, joined on first need (a key, taking control). */
  private client(): ClientSession | undefined {
    if (!this.me && this.session) this.me = this.session.attach('ui', PANEL_LABEL);
    return this.me;
  }

  /** Who acts for the user here: their debug session on this session when there is one, else the panel. */
  private actor(): ClientSession | undefined {
    const session = this.session;
    return (session && this.opts.userClient?.(session.id)) ?? this.client();
  }

  /** The actor once it holds the lease (claimed when free); undefined, with the panel told why, when not. */
  private async controlling(): Promise<ClientSession | undefined> {
    const me = this.actor();
    if (!me) return undefined;
    if (me.holdsControl || me.tryClaim()) return me;
    const holder = this.session && (await this.bounded(this.session.status())).lease?.holder;
    const refusal = panelRefusal(holder);
    this.post({ type: 'status', sessionId: this.session?.id, state: this.state, message: refusal, until: 'control' });
    await this.postControl();
    return undefined;
  }

  /**
   * The timeline slider's move (single-flight in PanelTimeline): by the user's debug session when there is one, so
   * VS Code takes the stop as its own (no "continued" first), else by the panel under its lease; the stop updates
   * the panel. A refusal becomes the panel's status line.
   */
  private async travel(frame: number | 'present'): Promise<void> {
    const session = this.session;
    if (!session) return;
    await this.timeline.goTo(frame, async (next) => {
      const byUser = this.opts.userGoTo?.(session.id, next);
      const me = byUser ? undefined : await this.controlling();
      await (byUser ?? (me && panelMove(me, next)))?.catch((err: unknown) =>
        this.post({ type: 'status', sessionId: session.id, state: this.state, message: asRetroError(err).message }),
      );
    });
  }

  /** The recorded span and the stops in it, for the slider (hidden where the machine records no history). */
  private async postTimeline(): Promise<void> {
    const session = this.session;
    if (session) this.post(await timelineMessage(session));
  }

  private async typeKey(text: string): Promise<void> {
    const me = await this.controlling();
    if (me) await me.typeKeys(parseKeyText(text));
  }

  private async inspect(x: number, y: number): Promise<void> {
    const session = this.session;
    if (!session || !this.lastFrame) return;
    const status = await this.bounded(session.status());
    const found = await inspectPoint(session, status.machine, x, y, this.lastFrame);
    const reference = found.address && memoryReference(found.address);
    this.post({ type: 'inspect', x, y, lines: found.lines, reference });
  }

  /** The sprite boxes for the outlines toggle (C64 only), one read at a time. */
  private async outlineSprites(): Promise<void> {
    const session = this.session;
    const frame = this.lastFrame;
    if (!this.spriteOutlines || this.outlining || !session || !frame) return;
    this.outlining = true;
    this.outlinedAt = performance.now();
    try {
      if (this.machine === 'c64') this.post({ type: 'sprites', boxes: await c64SpriteOutlines(session, frame) });
    } catch {
      /* a read refused while the machine changes hands: the next frame asks again */
    } finally {
      this.outlining = false;
    }
  }

  /** The frame source, and the refresh choice where each frame halts the machine. */
  private postSource(): void {
    const s = this.session?.frameSource();
    if (s) this.post({ type: 'source', mode: s.mode, rates: s.rates && [...s.rates], fps: s.refreshFps, cost: s.cost });
  }

  private async postControl(): Promise<void> {
    const session = this.session;
    if (!session) return;
    const lease = (await this.bounded(session.status())).lease;
    const me = this.actor();
    this.post({
      type: 'control',
      holder: lease?.holder.label,
      mine: !!me && !!lease && me.holdsControl,
      users: !!lease && isUsersClient(lease.holder),
    });
  }

  /** Switches to the manager's current session when it changed. */
  private follow(): void {
    let current: SessionApi | undefined;
    try {
      current = this.opts.sessions.get();
    } catch {
      current = undefined; // no_session: show the hint instead of a picture
    }
    if (current === this.session) return;
    const had = this.session;
    this.unfollow();
    this.session = current;
    // a new session starts blank: the previous one's picture is not this one's
    if (had)
      this.post({
        type: 'status',
        sessionId: current?.id,
        message: current ? 'Waiting for the screen…' : NO_SESSION_MESSAGE,
        clear: true,
      });
    if (current) {
      this.stopListening = current.onEvent(({ event }) => {
        if (event.type === 'running' || event.type === 'stopped') {
          this.state = event.type;
          void this.postTimeline().catch(() => undefined);
        }
        if (event.type === 'phase' && event.phase === 'ready') void this.refresh();
        else if (event.type === 'lease_changed') void this.postControl().catch(() => undefined);
        else if (event.type === 'exited')
          this.post({
            type: 'status',
            sessionId: current.id,
            state: 'exited',
            message: `The session ended: ${event.reason}`,
          });
      });
    }
    void this.refresh();
  }

  private unfollow(): void {
    this.stopListening?.();
    this.stopWatching?.();
    this.stopListening = this.stopWatching = undefined;
    this.me?.close();
    this.me = undefined;
    this.lastFrame = undefined;
    this.machine = undefined;
    this.delta.reset();
  }

  private watch(): void {
    const session = this.session;
    if (!session || this.disposed || !this.ready) return;
    this.stopWatching?.();
    this.stopWatching = session.watchScreen({ fps: this.opts.fps ?? 30, realtime: !this.warp }, (f) => this.onFrame(f));
  }

  private onFrame(frame: ScreenFrame, again = false): void {
    if (!again) this.fed++;
    this.lastFrame = frame;
    if (this.spriteOutlines && performance.now() - this.outlinedAt >= OUTLINE_MS) void this.outlineSprites();
    if (this.posting >= FRAMES_IN_FLIGHT) {
      this.pendingFrame = frame;
      return;
    }
    this.posting++;
    void Promise.resolve(this.post(this.rawMessage(frame)))
      .catch(() => undefined)
      .finally(() => {
        this.posting--;
        const next = this.pendingFrame;
        this.pendingFrame = undefined;
        if (next) this.onFrame(next, true);
      });
  }

  private rawMessage(f: ScreenFrame): HostMessage {
    const palette = f.palette?.flatMap((c) => [c[0], c[1], c[2]]);
    const indexed = !!(f.pixels && palette);
    const data = indexed ? f.pixels! : f.rgba;
    const part = data && this.delta.next(data, f.height, frameKey(f.width, f.height, indexed ? palette : undefined));
    return {
      type: 'raw',
      sessionId: this.session?.id ?? '',
      state: f.maybeStale ? 'stopped' : 'running',
      width: f.width,
      height: f.height,
      frame: f.frame,
      pixels: indexed ? part?.data : undefined,
      palette: indexed ? palette : undefined,
      rgba: indexed ? undefined : part?.data,
      rows: part?.rows,
      inner: f.inner,
      maybeStale: f.maybeStale,
      source: f.source,
      takenAt: Date.now(),
      fed: this.fed,
      cost: this.session?.frameSource().cost ?? '',
    };
  }

  private post(message: HostMessage): unknown {
    return this.ready && !this.disposed ? this.opts.post(message) : undefined;
  }

  /** Read-only waits only: a timeout here changes nothing in the emulator. */
  private bounded<T>(work: Promise<T>): Promise<T> {
    const ms = this.opts.timeoutMs ?? 15_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(timedOut(`Gave up after ${ms} ms reading the session; nothing was changed.`)),
        ms,
      );
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }
}
