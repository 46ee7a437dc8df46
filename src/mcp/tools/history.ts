/**
 * The `history` group: time travel on machines that record their past (the
 * built-in C64). history {} shows the span; go_to moves to a frame, a cycle
 * or back to the present; last_write answers "who last wrote this" and moves
 * there. Stops in the past carry `in_past: true`; every reply says the machine's time-travel granularity.
 */
import * as z from 'zod/v4';
import { badRequest } from '../../core/errors.js';
import { hex } from '../../core/hex.js';
import { findLastWrite, granularityNote, timeTravel, travelTo } from '../../session/time-travel.js';
import { describeLocation, formatStop } from '../format.js';
import { runThenWait, waitTimeoutInput } from '../run-control.js';
import { generationInput, locationSchema, sessionIdInput } from '../schemas.js';
import { MUTATES, READ_ONLY, defineTool } from '../tool-kit.js';
import { runOutput } from './c.js';
import type { HistorySpan } from '../../core/time-travel.js';

function spanData(span: HistorySpan) {
  const frame = (c: number) => Math.floor(c / span.cyclesPerFrame);
  return {
    start: { cycle: span.startCycle, frame: frame(span.startCycle) },
    end: { cycle: span.endCycle, frame: frame(span.endCycle) },
    now: { cycle: span.nowCycle, frame: frame(span.nowCycle) },
    seconds: (span.endCycle - span.startCycle) / span.cyclesPerSecond,
    in_past: span.inPast,
    snapshots: span.snapshots,
    bytes: span.bytes,
    budget: { seconds: span.seconds, max_bytes: span.maxBytes },
  };
}

const momentSchema = z.object({ cycle: z.number(), frame: z.number().int() });
const granularitySchema = z.string(); // the sentence is in the summary: no description to pay for in tools/list

export const historyTool = defineTool({
  name: 'history',
  title: 'Recorded history',
  description:
    'The span of the machine past that can be returned to (cycles, frames, seconds), where it is now, memory.',
  input: { session_id: sessionIdInput },
  output: {
    start: momentSchema,
    end: momentSchema.describe('the present'),
    now: momentSchema,
    seconds: z.number(),
    in_past: z.boolean(),
    snapshots: z.number().int(),
    bytes: z.number().int(),
    budget: z.object({ seconds: z.number(), max_bytes: z.number() }),
    stops: z
      .array(z.object({ cycle: z.number(), frame: z.number().int(), reason: z.string(), pc: z.number().int() }))
      .describe('breakpoint hits, steps and pauses in the span (go_to {cycle} returns to one)'),
    granularity: granularitySchema,
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    const t = timeTravel(session);
    const span = t.span();
    const stops = t.stops().map((s) => ({ ...s, frame: Math.floor(s.cycle / span.cyclesPerFrame) }));
    const data = { ...spanData(span), stops, granularity: t.granularity };
    return {
      session,
      data,
      summary: `History: frames ${data.start.frame}-${data.end.frame} (${data.seconds.toFixed(1)} s); now at frame ${data.now.frame}${data.in_past ? ' (in the past)' : ''}. ${granularityNote(session)}`,
    };
  },
});

export const goToTool = defineTool({
  name: 'go_to',
  title: 'Go to a moment',
  description: 'Move the stopped machine to a recorded frame or cycle, or back to the present (needs the lease).',
  input: {
    session_id: sessionIdInput,
    generation: generationInput,
    frame: z.number().int().min(0).optional(),
    cycle: z.number().int().min(0).optional(),
    present: z.boolean().optional().describe('back to the present'),
    timeout_ms: waitTimeoutInput,
  },
  output: { ...runOutput, in_past: z.boolean(), granularity: granularitySchema },
  annotations: MUTATES,
  async run(args, ctx) {
    const me = ctx.connection.use(args.session_id);
    const t = timeTravel(me.session);
    const span = t.span();
    const given = [args.frame, args.cycle, args.present || undefined].filter((v) => v !== undefined).length;
    if (given !== 1) throw badRequest('Give one of frame, cycle or present: true.');
    const cycle = args.present ? span.endCycle : (args.cycle ?? args.frame! * span.cyclesPerFrame);
    const { status, timed_out } = await runThenWait(
      me,
      () => travelTo(me, cycle, { generation: args.generation }),
      args.timeout_ms,
      ctx.call,
    );
    const stop = formatStop(status);
    return {
      session: me.session,
      state: status.state,
      data: { timed_out, stop, location: status.location, in_past: !!stop?.in_past, granularity: t.granularity },
      summary: `${stop?.in_past ? 'In the past' : 'In the present'} at ${describeLocation(status.location)}. ${granularityNote(me.session)}`,
    };
  },
});

export const lastWriteTool = defineTool({
  name: 'last_write',
  title: 'Who last wrote this',
  description:
    'The last write to a C lvalue or address before now: C line, function, PC, cycle, old -> new; moves the session there (go_to {present} returns).',
  input: {
    session_id: sessionIdInput,
    generation: generationInput,
    expression: z.string().optional().describe('C lvalue: global, local, s.field, a[i]'),
    address: z.number().int().min(0).max(0xffff).optional(),
    length: z.number().int().min(1).max(256).optional().describe('bytes (default: the lvalue size, or 1)'),
    timeout_ms: waitTimeoutInput,
  },
  output: {
    ...runOutput,
    address: z.number().int(),
    pc: z.number().int(),
    cycle: z.number().describe('the writing instruction start'),
    frame: z.number().int(),
    old: z.number().int(),
    value: z.number().int(),
    writer: locationSchema.optional().describe('C line of the write'),
    in_past: z.boolean(),
    granularity: granularitySchema,
  },
  annotations: MUTATES,
  async run(args, ctx) {
    const me = ctx.connection.use(args.session_id);
    const { session } = me;
    if ((args.expression === undefined) === (args.address === undefined))
      throw badRequest('Give expression (a C lvalue) or address, not both.');
    const place =
      args.expression !== undefined
        ? await session.locateLvalue(args.expression)
        : { address: args.address!, length: args.length ?? 1 };
    const write = await findLastWrite(session, place.address, args.length ?? place.length);
    const t = timeTravel(session);
    const span = t.span();
    const { status, timed_out } = await runThenWait(
      me,
      () => travelTo(me, write.cycle, { generation: args.generation }),
      args.timeout_ms,
      ctx.call,
    );
    const stop = formatStop(status);
    const what = args.expression ?? hex(place.address);
    return {
      session,
      state: status.state,
      data: {
        timed_out,
        stop,
        location: status.location,
        address: write.address,
        pc: write.pc,
        cycle: write.at,
        frame: Math.floor(write.at / span.cyclesPerFrame),
        old: write.old,
        value: write.value,
        writer: write.location,
        in_past: !!stop?.in_past,
        granularity: t.granularity,
      },
      summary: `${what} was last written ${write.old} -> ${write.value} at ${hex(write.pc)} (${describeLocation(write.location)}), cycle ${write.at}; the session is there now (in the past). ${granularityNote(session)}`,
    };
  },
});

export const historyTools = [historyTool, goToTool, lastWriteTool];
