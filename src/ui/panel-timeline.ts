/**
 * The screen panel's timeline: the recorded span in frames with the stops
 * recorded in it (marks), where the machine is, and whether that is the past;
 * a frame picked on the slider becomes a move through the same path as MCP
 * go_to (session/time-travel.ts travelTo): by the user's debug session when
 * there is one (so VS Code shows the stop), else by the panel's own client.
 * Moves are single-flight: while one runs, only the newest frame asked is kept.
 */
import type { HistorySpan } from '../core/time-travel.js';
import { frameCycle, hasTimeTravel, timeTravel, travelTo } from '../session/time-travel.js';
import type { ClientSession, SessionApi } from '../session/types.js';
import type { HostMessage } from './screen-messages.js';

type TimelineMessage = Extract<HostMessage, { type: 'timeline' }>;
/** marks drawn at most (the newest): the history keeps the last 200 stops */
const MAX_MARKS = 200;
/** a move replays at most 5 frames (about 0.1 s of machine time): a generous bound */
const MOVE_MS = 15_000;

const frameOf = (span: HistorySpan, cycle: number) => Math.floor(cycle / span.cyclesPerFrame);

/** What the panel shows under the picture; `available: false` (no slider) when the machine records no history. */
export async function timelineMessage(session: SessionApi): Promise<TimelineMessage> {
  if (!hasTimeTravel(session)) return { type: 'timeline', available: false };
  const t = timeTravel(session);
  const span = t.span();
  const stopped = (await session.status()).state === 'stopped';
  const marks = t
    .stops()
    .slice(-MAX_MARKS)
    .map((s) => ({ frame: frameOf(span, s.cycle), reason: s.reason }));
  return {
    type: 'timeline',
    available: true,
    startFrame: frameOf(span, span.startCycle),
    endFrame: frameOf(span, span.endCycle),
    nowFrame: frameOf(span, span.nowCycle),
    inPast: span.inPast,
    stopped,
    marks,
    noPicture: t.pictureMissing?.(),
  };
}

/** Moves the machine as the panel's own client would (no debug session here): the move, then its stop. */
export async function panelMove(me: ClientSession, frame: number | 'present'): Promise<void> {
  // armed before the move: its stop (the picture follows it) before the next move
  await me.nextStop(MOVE_MS, () => travelTo(me, frameCycle(timeTravel(me.session).span(), frame)));
}

export class PanelTimeline {
  private wanted?: number | 'present';
  private moving = false;

  /** Runs `move` for `frame`; while one runs, only the newest frame asked for is kept and moved to next. */
  async goTo(frame: number | 'present', move: (frame: number | 'present') => Promise<void>): Promise<void> {
    this.wanted = frame;
    if (this.moving) return;
    this.moving = true;
    try {
      while (this.wanted !== undefined) {
        const next = this.wanted;
        this.wanted = undefined;
        await move(next);
      }
    } finally {
      this.moving = false;
      this.wanted = undefined;
    }
  }
}
