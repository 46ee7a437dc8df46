/**
 * The screen panel's logic without VS Code: follows the manager's current
 * session, takes a screenshot when the program stops, when the panel opens and
 * when the person asks, and posts frames or status sentences to the webview.
 * Screenshots are single-flight: requests arriving during one coalesce into
 * one more, so a burst of stops never queues work.
 */
import { asRetroError, RetroError } from '../core/errors.js';
import type { SessionApi, SessionManagerApi } from '../session/types.js';
import { pngDataUrl } from './png-data-url.js';
import { parseWebviewMessage, type HostMessage } from './screen-messages.js';

export interface ScreenControllerOptions {
  sessions: Pick<SessionManagerApi, 'get' | 'onSessionsChanged'>;
  /** delivers a message to the webview */
  post: (message: HostMessage) => unknown;
  /** bound on one screenshot; default 15 s */
  timeoutMs?: number;
}

export const NO_SESSION_MESSAGE =
  'No Retro Debug session is running. Start one with F5 (debug type "retro") or from an agent over MCP.';

export class ScreenController {
  private session?: SessionApi;
  private stopListening?: () => void;
  private readonly stopFollowingManager: () => void;
  private ready = false;
  private disposed = false;
  private inFlight?: Promise<void>;
  private again = false;
  private readonly timeoutMs: number;

  constructor(private readonly opts: ScreenControllerOptions) {
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.stopFollowingManager = opts.sessions.onSessionsChanged(() => this.follow());
    this.follow();
  }

  /** The session currently shown, if any. */
  get currentSessionId(): string | undefined {
    return this.session?.id;
  }

  /** Handles a message from the webview; unknown messages are ignored. */
  handleMessage(raw: unknown): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message) return Promise.resolve();
    if (message.type === 'ready') this.ready = true;
    return this.refresh();
  }

  /** Takes a fresh screenshot (or reports why there is none). Resolves when the webview has it. */
  refresh(): Promise<void> {
    if (this.disposed || !this.ready) return Promise.resolve();
    if (this.inFlight) {
      this.again = true;
      return this.inFlight;
    }
    this.inFlight = (async () => {
      do {
        this.again = false;
        await this.renderOnce();
      } while (this.again && !this.disposed);
    })().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  dispose(): void {
    this.disposed = true;
    this.stopFollowingManager();
    this.stopListening?.();
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
    this.stopListening?.();
    this.stopListening = undefined;
    this.session = current;
    if (current) {
      this.stopListening = current.onEvent(({ event }) => {
        if (event.type === 'stopped') void this.refresh();
        else if (event.type === 'running')
          this.post({ type: 'status', sessionId: current.id, state: 'running', message: 'Running…' });
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

  private async renderOnce(): Promise<void> {
    const session = this.session;
    if (!session) {
      this.post({ type: 'status', message: NO_SESSION_MESSAGE });
      return;
    }
    let state: string | undefined;
    try {
      const status = await this.bounded(session.status(), 'reading the session status');
      state = status.state;
      if (status.phase !== 'ready') {
        const latest = status.error?.message ?? status.progress.at(-1) ?? status.phase;
        this.post({ type: 'status', sessionId: session.id, state, message: `Session is ${status.phase}: ${latest}` });
        return;
      }
      const shot = await this.bounded(session.screenshot(), 'taking a screenshot');
      this.post({
        type: 'frame',
        dataUrl: pngDataUrl(shot),
        width: shot.width,
        height: shot.height,
        sessionId: session.id,
        state,
        frame: shot.frame,
        maybeStale: shot.maybeStale,
        takenAt: Date.now(),
      });
    } catch (err) {
      this.post({ type: 'status', sessionId: session.id, state, message: asRetroError(err).message });
    }
  }

  private post(message: HostMessage): void {
    if (this.ready && !this.disposed) this.opts.post(message);
  }

  /** Read-only waits only: a timeout here changes nothing in the emulator. */
  private bounded<T>(work: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new RetroError('timeout', `Gave up ${what} after ${this.timeoutMs} ms; nothing was changed.`)),
        this.timeoutMs,
      );
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }
}
