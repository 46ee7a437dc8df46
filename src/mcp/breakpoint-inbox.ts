/**
 * Other clients' breakpoint changes for one MCP connection until its next reply: the session's deltas (never
 * the whole list; list_breakpoints has it), the newest few kept, with a count of those left out.
 */
import type { ClientSession } from '../session/client-session.js';
import type { BreakpointChange, SessionEvent } from '../session/types.js';
import { breakpointPlace } from '../session/breakpoint-place.js';
import { formatBreakpoint } from './format.js';

/** The most changes one reply carries; a client that missed more is told to list them. */
export const MAX_BREAKPOINT_CHANGES = 64;
/** the most named in the reply's text (the rest are in its breakpoint_changes) */
const TEXT_CHANGES = 8;

type ChangeEvent = Extract<SessionEvent, { type: 'breakpoints_changed' }>;

export interface BreakpointChangeOut {
  session_id: string;
  generation: number;
  change: BreakpointChange['change'];
  id: number;
  owner: { id: string; kind: string; label: string };
  breakpoint?: ReturnType<typeof formatBreakpoint> & { where: string };
}

export interface BreakpointChangeFields {
  breakpoint_changes?: BreakpointChangeOut[];
  breakpoint_changes_missed?: number;
}

export class BreakpointInbox {
  private kept: BreakpointChangeOut[] = [];
  private missed = 0;

  /**
   * Keeps what `handle`'s client did not do itself (its own adds and clears are in its own replies; a change the
   * session made to its breakpoint is not); returns a sentence for the notification, or undefined.
   */
  add(handle: ClientSession, event: ChangeEvent): string | undefined {
    const news = event.changes.filter((c) => c.change === 'changed' || c.owner.id !== handle.id);
    if (!news.length) return undefined;
    for (const c of news)
      this.kept.push({
        session_id: handle.session.id,
        generation: event.generation,
        change: c.change,
        id: c.id,
        owner: { id: c.owner.id, kind: c.owner.kind, label: c.owner.label },
        ...(c.breakpoint
          ? { breakpoint: { ...formatBreakpoint(c.breakpoint, handle.id), where: breakpointPlace(c.breakpoint) } }
          : {}),
      });
    const over = this.kept.length - MAX_BREAKPOINT_CHANGES;
    if (over > 0) {
      this.kept.splice(0, over);
      this.missed += over;
    }
    return `Breakpoints changed in session ${handle.session.id}: ${news.map(describe).join('; ')}.`;
  }

  /** What the next reply carries (once): the structured fields, and a line for its text. */
  take(): { fields: BreakpointChangeFields; text?: string } {
    const kept = this.kept;
    const missed = this.missed;
    this.kept = [];
    this.missed = 0;
    if (!kept.length) return { fields: {} };
    const told = kept
      .slice(0, TEXT_CHANGES)
      .map((c) => `${c.id}${c.breakpoint ? ` (${c.breakpoint.where})` : ''} ${c.change} (${c.owner.label})`);
    const more = kept.length > TEXT_CHANGES ? `, and ${kept.length - TEXT_CHANGES} more in breakpoint_changes` : '';
    return {
      fields: { breakpoint_changes: kept, ...(missed ? { breakpoint_changes_missed: missed } : {}) },
      text:
        `Breakpoints of other clients since your last call: ${told.join(', ')}${more}` +
        `${missed ? `; ${missed} earlier ones: list_breakpoints` : ''}.`,
    };
  }
}

function describe(c: BreakpointChange): string {
  const place = c.breakpoint ? ` (${breakpointPlace(c.breakpoint)})` : '';
  return `${c.id}${place} ${c.change}, ${c.owner.label}'s`;
}
