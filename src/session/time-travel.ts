/**
 * Reverse debugging over a target's TIME_TRAVEL_FEATURE: where a step back
 * (a C line or an instruction), a reverse continue or "who last wrote this"
 * lands, found by walking the recorded instructions backwards, then one move
 * there through the guarded control path (the target publishes the stop,
 * flagged `inPast`); a reverse continue looks at conditional breakpoints'
 * moments quietly on the way. The walk reads C lines from the debug info, so front
 * ends (DAP stepBack, MCP last_write/go_to) only say where to go.
 */
import { RetroError, badRequest, notFound, unsupported } from '../core/errors.js';
import { TIME_TRAVEL_FEATURE, type HistorySpan, type TimeTravel, type WriteRecord } from '../core/time-travel.js';
import { parseHitCondition } from './bp-logic.js';
import type { ClientSession, MutationOptions, SessionApi, SourceLocation } from './types.js';

interface Moment {
  cycle: number;
  pc: number;
  sp: number;
}

/**
 * The recorded instructions before `now`, latest first, one recorded interval at a time; `skipCalls` for walks that
 * pass over deeper frames (a call made inside an interval may be left out, see TimeTravel.trace).
 */
async function* backwards(t: TimeTravel, now: number, skipCalls = false): AsyncGenerator<Moment> {
  let before = now;
  for (;;) {
    const trace = await t.trace(before, { skipCalls });
    if (!trace) return;
    for (let i = trace.cycles.length - 1; i >= 0; i--)
      yield { cycle: trace.cycles[i], pc: trace.pcs[i], sp: trace.sps[i] };
    if (trace.start >= before) return;
    before = trace.start;
  }
}

/** The session's time travel, or `unsupported` naming where it exists (VICE and DOS have none yet). */
export function timeTravel(session: SessionApi): TimeTravel {
  try {
    return session.feature(TIME_TRAVEL_FEATURE);
  } catch (err) {
    if (!(err instanceof RetroError) || err.code !== 'unsupported') throw err;
    throw unsupported(
      `Time travel (step back, reverse continue, last_write, go_to) records the machine's past on the built-in C64 (emulator "builtin") and on MAME's Z80 machines (spectrum, sprinter); this session's emulator or machine has no recorded history (docs/time-travel.md).`,
      { feature: TIME_TRAVEL_FEATURE.name },
    );
  }
}

/** The sentence every time-travel reply carries: what a move in this machine's past is exact to and how it is made. */
export function granularityNote(session: SessionApi): string {
  return `Time travel granularity here: ${timeTravel(session).granularity}.`;
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

/** The cycle a frame picked on a timeline starts at inside the span; the present's frame (or later) is the present. */
export function frameCycle(span: HistorySpan, frame: number | 'present'): number {
  if (frame === 'present' || frame >= Math.floor(span.endCycle / span.cyclesPerFrame)) return span.endCycle;
  return Math.max(span.startCycle, frame * span.cyclesPerFrame);
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

/**
 * Where a step back goes: the instruction before, or the start of the C line run before this one in this frame. A
 * function's frame set-up counts as part of its call (Step Into skips it), so from a first body line it goes to the
 * start of the calling line, the caller's frame on top.
 */
export async function stepBackTarget(session: SessionApi, granularity: 'instruction' | 'line'): Promise<number> {
  const t = timeTravel(session);
  const span = t.span();
  const walk = backwards(t, span.nowCycle, granularity === 'line');
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
    if (key === undefined || session.inPrologue(m.pc)) continue; // helpers, the KERNAL, interrupts, frame set-up
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

/**
 * Where a step back out goes: the call into the current function, at its caller's line (the latest earlier moment
 * with a C line and a higher stack pointer: the JSR/CALL itself; helpers and interrupts ran lower).
 */
export async function stepBackOutTarget(session: SessionApi): Promise<number> {
  const t = timeTravel(session);
  const span = t.span();
  const status = await session.status();
  const here = status.pc === undefined ? undefined : session.locationAt(status.pc);
  const sp = await currentSp(session);
  for await (const m of backwards(t, span.nowCycle, true)) {
    if (m.sp <= sp) continue;
    if (session.locationAt(m.pc)) return m.cycle;
    throw badRequest(
      `${here?.function ?? 'This code'} was called from code with no C line (at PC $${m.pc.toString(16).padStart(4, '0')}: the startup code or the system); there is no C caller to step back out to. It stays where it is.`,
      { pc: m.pc },
    );
  }
  throw badRequest(
    `The call into ${here?.function ?? 'this code'} is before the recorded history (cycle ${span.startCycle}); there is no caller to step back out to. It stays where it is.`,
    { startCycle: span.startCycle },
  );
}

/** What a breakpoint asks of a moment in the past: its condition, and its hit condition counted from now backwards. */
interface ReverseStop {
  condition?: string;
  hit?: (count: number) => boolean;
  count: number;
}

function reverseStops(session: SessionApi): Map<number, ReverseStop[]> {
  const stops = new Map<number, ReverseStop[]>();
  for (const bp of session.listBreakpoints()) {
    if (!bp.verified || bp.log_message || bp.address?.space !== 'cpu') continue;
    const hit = bp.hit_condition ? parseHitCondition(bp.hit_condition) : undefined;
    const list = stops.get(bp.address.offset) ?? [];
    list.push({ condition: bp.condition, hit, count: 0 });
    stops.set(bp.address.offset, list);
  }
  return stops;
}

/** Whether a C condition held at the moment the machine shows (one that cannot be evaluated stops, as forward). */
async function conditionHolds(session: SessionApi, condition: string): Promise<boolean> {
  try {
    return (await session.readVariable(condition, 0)).numeric !== 0;
  } catch {
    return true;
  }
}

/**
 * Reverse Continue: back to the latest earlier moment at a (non-log) breakpoint whose C condition held there (the
 * machine is taken to each candidate quietly to evaluate it) and whose hit condition the hits counted from now
 * backwards meet; else to the start of the history. `hit`: a breakpoint was reached.
 */
export async function reverseContinue(me: ClientSession, opts: MutationOptions = {}): Promise<{ hit: boolean }> {
  const { session } = me;
  const t = timeTravel(session);
  const span = t.span();
  if (span.nowCycle <= span.startCycle) throw atStart(span);
  const stops = reverseStops(session);
  const look = (cycle: number) =>
    me.control(TIME_TRAVEL_FEATURE, { ...opts, needs: 'stopped' }, (f) => f.goTo(cycle, true));
  let found: number | undefined;
  let shown = span.nowCycle;
  try {
    for await (const m of backwards(t, span.nowCycle)) {
      const here = stops.get(m.pc);
      if (!here) continue;
      let stop = false;
      for (const s of here) {
        if (s.condition) {
          if (shown !== m.cycle) await look((shown = m.cycle));
          if (!(await conditionHolds(session, s.condition))) continue;
        }
        s.count++;
        if (!s.hit || s.hit(s.count)) stop = true;
      }
      if (stop) {
        found = m.cycle;
        break;
      }
    }
  } catch (err) {
    await travelTo(me, span.nowCycle, opts); // a look elsewhere: back where it was, with a stop
    throw err;
  }
  await travelTo(me, found ?? span.startCycle, opts);
  return { hit: found !== undefined };
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
