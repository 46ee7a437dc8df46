/**
 * Reverse debugging over a target's TIME_TRAVEL_FEATURE: where a step back
 * (a C line or an instruction), a reverse continue or "who last wrote this"
 * lands, found by walking the recorded instructions backwards, then one move
 * there through the guarded control path (the target publishes the stop,
 * flagged `inPast`). The walk reads C lines from the debug info, so front
 * ends (DAP stepBack, MCP last_write/go_to) only say where to go.
 */
import { RetroError, badRequest, notFound, unsupported } from '../core/errors.js';
import { TIME_TRAVEL_FEATURE, type HistorySpan, type TimeTravel, type WriteRecord } from '../core/time-travel.js';
import type { ClientSession, MutationOptions, SessionApi, SourceLocation } from './types.js';

interface Moment {
  cycle: number;
  pc: number;
  sp: number;
}

/** The recorded instructions before `now`, latest first, one recorded interval at a time. */
async function* backwards(t: TimeTravel, now: number): AsyncGenerator<Moment> {
  let before = now;
  for (;;) {
    const trace = await t.trace(before);
    if (!trace) return;
    for (let i = trace.cycles.length - 1; i >= 0; i--)
      yield { cycle: trace.cycles[i], pc: trace.pcs[i], sp: trace.sps[i] };
    if (trace.start >= before) return;
    before = trace.start;
  }
}

/** The session's time travel, or `unsupported` naming where it exists (MAME, VICE and DOS have none yet). */
export function timeTravel(session: SessionApi): TimeTravel {
  try {
    return session.feature(TIME_TRAVEL_FEATURE);
  } catch (err) {
    if (!(err instanceof RetroError) || err.code !== 'unsupported') throw err;
    throw unsupported(
      `Time travel (step back, reverse continue, last_write, go_to) records the machine's past on the built-in C64 (emulator "builtin") only; this session's emulator has no recorded history (MAME's -rewind is the planned route there).`,
      { feature: TIME_TRAVEL_FEATURE.name },
    );
  }
}

/** True when the session's target records a history it can go back in (a missing or switched-off one: false). */
export function hasTimeTravel(session: SessionApi): boolean {
  try {
    timeTravel(session).span();
    return true;
  } catch {
    return false;
  }
}

/** Moves the stopped machine to `cycle` (the present: span().endCycle); the stop follows as an event. */
export async function travelTo(me: ClientSession, cycle: number, opts: MutationOptions = {}): Promise<void> {
  await me.control(TIME_TRAVEL_FEATURE, { ...opts, needs: 'stopped', effect: 'runs' }, (t) => t.goTo(cycle));
}

function atStart(span: HistorySpan): Error {
  return badRequest(
    `The machine is at the start of its recorded history (cycle ${span.startCycle}); there is nothing earlier to go back to. It stays where it is.`,
    { startCycle: span.startCycle },
  );
}

async function currentSp(session: SessionApi): Promise<number> {
  return (await session.readRegisters()).find((r) => r.name.toUpperCase() === 'SP')?.value ?? 0;
}

const lineKey = (loc: SourceLocation | undefined) => (loc ? `${loc.file}:${loc.line}` : undefined);

/** Where a step back goes: the instruction before, or the start of the C line run before this one in this frame. */
export async function stepBackTarget(session: SessionApi, granularity: 'instruction' | 'line'): Promise<number> {
  const t = timeTravel(session);
  const span = t.span();
  const walk = backwards(t, span.nowCycle);
  if (granularity === 'instruction') {
    const prev = (await walk.next()).value as Moment | undefined;
    if (!prev) throw atStart(span);
    return prev.cycle;
  }
  const status = await session.status();
  const here = lineKey(status.pc === undefined ? undefined : session.locationAt(status.pc));
  const sp = await currentSp(session);
  let line: string | undefined;
  let frameSp = 0;
  let best: Moment | undefined;
  for await (const m of walk) {
    const key = lineKey(session.locationAt(m.pc));
    if (key === undefined) continue; // runtime helpers, the KERNAL, interrupts: no C line
    if (best === undefined) {
      // still on this line, or in a function it called: go on back
      if (m.sp < sp || key === here) continue;
      [line, frameSp, best] = [key, m.sp, m];
      continue;
    }
    if (m.sp < frameSp) continue;
    if (key !== line || m.sp > frameSp) break;
    best = m;
  }
  if (!best) throw atStart(span);
  return best.cycle;
}

/** Where a reverse continue goes: the latest earlier moment at a (non-log) breakpoint, else the start of the history. */
export async function reverseContinueTarget(session: SessionApi): Promise<{ cycle: number; hit: boolean }> {
  const t = timeTravel(session);
  const span = t.span();
  if (span.nowCycle <= span.startCycle) throw atStart(span);
  const stops = new Set<number>();
  for (const bp of session.listBreakpoints())
    if (bp.verified && !bp.log_message && bp.address?.space === 'cpu') stops.add(bp.address.offset);
  for await (const m of backwards(t, span.nowCycle)) if (stops.has(m.pc)) return { cycle: m.cycle, hit: true };
  return { cycle: span.startCycle, hit: false };
}

/** A write inside a runtime helper (cc65's stores through a pointer) belongs to the C line that ran before it. */
async function callingLine(session: SessionApi, t: TimeTravel, at: number): Promise<SourceLocation | undefined> {
  let seen = 0;
  for await (const m of backwards(t, at)) {
    const loc = session.locationAt(m.pc);
    if (loc || ++seen > 2000) return loc;
  }
  return undefined;
}

export interface LastWrite extends WriteRecord {
  location?: SourceLocation;
}

/** The last write to the bytes before now, or a `not_found` that says what was searched. */
export async function findLastWrite(session: SessionApi, address: number, length: number): Promise<LastWrite> {
  const t = timeTravel(session);
  const span = t.span();
  const found = await t.lastWrite(address, length, span.nowCycle);
  if (!found)
    throw notFound(
      `No write to $${address.toString(16).padStart(4, '0')}${length > 1 ? ` (${length} bytes)` : ''} in the recorded history (cycles ${span.startCycle}-${span.nowCycle}): it was last written before the history starts, or never.`,
      { startCycle: span.startCycle, nowCycle: span.nowCycle },
    );
  return { ...found, location: session.locationAt(found.pc) ?? (await callingLine(session, t, found.at)) };
}
