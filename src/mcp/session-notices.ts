/**
 * What happens in a session that an agent did not cause but must know of:
 * what it lost (its lease taken or lapsed, the session dropping it with its
 * breakpoints: ClientSession's losses) and a stop another client caused (a
 * breakpoint of someone else's, or a stop while another holds the lease), and
 * the lines its own logpoints print (they never stop, so nothing else says so). Each
 * is sent at once as an MCP logging notification and kept for the next reply
 * (`events`; losses also in `lost`).
 */
import type { ClientSession } from '../session/client-session.js';
import type { QueuedEvent } from '../session/types.js';
import { describeLocation } from './format.js';

export type NoticeLevel = 'info' | 'warning';
export type Notify = (text: string, level: NoticeLevel) => void;

/** Watches one handle's session for notices; returns the unsubscribe. */
export function watchHandle(handle: ClientSession, notify: Notify): () => void {
  const offLoss = handle.onLoss((text) => notify(text, 'warning'));
  const offStop = handle.session.onEvent((q) => {
    const text = stopByOther(handle, q) ?? ownLogpoint(handle, q);
    if (text) notify(text, 'info');
  });
  return () => {
    offLoss();
    offStop();
  };
}

/** A sentence when this stop was not this client's doing, else undefined. */
export function stopByOther(handle: ClientSession, q: QueuedEvent): string | undefined {
  const e = q.event;
  if (e.type !== 'stopped' || handle.closed) return undefined;
  const where = `Session ${handle.session.id} stopped in ${describeLocation(e.location)} (${e.stop.reason}${e.stop.inPast ? ', in the past' : ''})`;
  if (e.breakpoint_ids.length) {
    const owners = handle.session
      .listBreakpoints()
      .filter((bp) => e.breakpoint_ids.includes(bp.id))
      .map((bp) => bp.owner);
    if (!owners.length || owners.some((o) => o.id === handle.id)) return undefined;
    return `${where} at breakpoint ${e.breakpoint_ids.join(', ')} of ${[...new Set(owners.map((o) => o.label))].join(', ')}.`;
  }
  // a pause or a step: its issuer held the lease, so not this client when it does not hold it
  if (handle.holdsControl || e.stop.reason === 'entry') return undefined;
  return `${where}, not by a call of this client.`;
}

/** The line one of this client's logpoints printed. */
export function ownLogpoint(handle: ClientSession, q: QueuedEvent): string | undefined {
  const e = q.event;
  if (e.type !== 'logpoint' || e.owner !== handle.id || handle.closed) return undefined;
  return `Logpoint ${e.breakpoint_id} in ${describeLocation(e.location)}: ${e.text}`;
}
