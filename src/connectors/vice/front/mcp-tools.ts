/**
 * Tool group `vice`: the live VICE debugger tools of the c64-mcp seed, over
 * our own binary-monitor connector (real x64sc or the built-in C64). The tools
 * use the connection's default session; vice_connect binds another one (or
 * attaches to a running VICE), vice_disconnect drops only that binding.
 * Reads are free; anything that changes the
 * machine needs the control lease, like every other mutating tool.
 */
import * as z from 'zod/v4';
import { RetroError, badAddress, tooLarge, targetLost, badRequest } from '../../../core/errors.js';
import type { CheckpointInfo } from '../protocol.js';
import { bytesToHex, parseHex } from '../../../mcp/format.js';
import { generationInput, sessionIdInput } from '../../../mcp/schemas.js';
import { MUTATES, READ_ONLY, WRITES, defineTool, type ToolDef } from '../../../mcp/tool-kit.js';
import { bindVice, boundVice, unbindVice } from './mcp-binding.js';
import { VICE_FEATURE } from '../vice-target.js';
import { viceJoystick } from './mcp-joystick.js';
import { viceCaptureScreen } from './mcp-capture.js';
import { viceRegisters, viceSetRegisters } from './mcp-registers.js';
import { MAX_WAIT_MS } from '../../../mcp/run-control.js';
import { hex } from '../../../core/hex.js';
import { asciiToPetscii } from '../petscii-keys.js';

/** What a caller may ask to wait: the same bound as every MCP wait (below the SDK's 60 s request timeout). */
const TIMEOUT_MS = z.number().int().min(1).max(MAX_WAIT_MS);
const MAX_READ = 0x10000;
const MAX_WRITE = 4096;
/** A reset: loses the machine's state. Other vice_* tools share the generic tools' classes (annotations test). */
const RESETS = { readOnly: false, destructive: true, idempotent: false, openWorld: false } as const;

const checkpointSchema = z.object({
  number: z.number().int(),
  start: z.number().int(),
  end: z.number().int(),
  start_hex: z.string(),
  stop: z.boolean(),
  enabled: z.boolean(),
  operations: z.array(z.enum(['load', 'store', 'exec'])),
  temporary: z.boolean(),
  hit_count: z.number().int(),
  has_condition: z.boolean(),
  memspace: z.number().int(),
});

function formatCheckpoint(c: CheckpointInfo): z.infer<typeof checkpointSchema> {
  const operations = (['load', 'store', 'exec'] as const).filter((_, i) => c.op & (1 << i));
  return {
    number: c.number,
    start: c.start,
    end: c.end,
    start_hex: hex(c.start),
    stop: c.stop,
    enabled: c.enabled,
    operations,
    temporary: c.temporary,
    hit_count: c.hitCount,
    has_condition: c.hasCondition,
    memspace: c.memspace,
  };
}

const viceConnect = defineTool({
  name: 'vice_connect',
  title: 'Connect to VICE',
  description:
    'Not needed for the current C64 session (the vice_* tools use it). Bind this connection to another session ' +
    '(session_id), or to a running VICE ' +
    'whose binary monitor listens at `monitor` ("127.0.0.1:6502"), which starts a session attached to it. The handshake checks ' +
    'version, banks and registers and refuses an incompatible VICE naming what is missing.',
  input: {
    session_id: sessionIdInput,
    monitor: z
      .string()
      .regex(/^[\w.-]+:\d+$/)
      .optional(),
    timeout_ms: TIMEOUT_MS.default(20_000),
  },
  output: {
    connector: z.string(),
    version: z.string(),
    svn_revision: z.number().int(),
    banks: z.array(z.object({ name: z.string(), id: z.number().int() })),
    registers: z.array(z.string()),
    display_capture: z.object({ supported: z.union([z.boolean(), z.literal('probe')]), reason: z.string() }),
  },
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  async run(args, ctx) {
    let sessionId = args.session_id;
    if (args.monitor) {
      const started = ctx.manager.start(
        { machine: 'c64', emulator: 'vice', viceMonitor: args.monitor },
        { ...ctx.connection.starter, kind: 'mcp', label: 'vice_connect' },
      );
      ctx.connection.adopt(started);
      const status = await started.session.waitForStop(args.timeout_ms);
      if (status.error) throw new RetroError(status.error.code as never, status.error.message);
      sessionId = started.session.id;
    }
    const { session } = ctx.connection.use(sessionId);
    bindVice(ctx.connection, session.id);
    const { vice } = boundVice(ctx);
    const info = vice.info;
    return {
      session,
      data: {
        connector: vice.cachedStatus().connector,
        version: info.version,
        svn_revision: info.svnRevision,
        banks: info.banks,
        registers: info.registers.map((r) => r.name),
        display_capture: { supported: info.display.ok, reason: info.display.reason },
      },
      summary: `Bound to ${vice.cachedStatus().connector} VICE ${info.version} in session ${session.id}`,
    };
  },
});

const viceDisconnect = defineTool({
  name: 'vice_disconnect',
  title: 'Disconnect from VICE',
  description: "Drop this connection's binding only: the session, the monitor connection and VICE keep running.",
  input: {},
  output: { unbound: z.string().nullable() },
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  async run(_args, ctx) {
    const was = unbindVice(ctx.connection);
    return { state: undefined, data: { unbound: was }, summary: was ? `Unbound from ${was}` : 'Nothing was bound' };
  },
});

const viceStatus = defineTool({
  name: 'vice_status',
  title: 'VICE status (cached)',
  description: 'What the last monitor events said: running or stopped, PC, last stop. Performs no I/O.',
  input: { session_id: sessionIdInput },
  output: {
    vice_state: z.string(),
    pc: z.number().int().optional(),
    pc_hex: z.string().optional(),
    last_stop_reason: z.string().optional(),
    connector: z.string(),
    version: z.string(),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, vice } = boundVice(ctx, args.session_id);
    const s = vice.cachedStatus();
    return {
      session,
      data: {
        vice_state: s.state,
        pc: s.pc,
        pc_hex: s.pc === undefined ? undefined : hex(s.pc),
        last_stop_reason: s.last_stop?.reason,
        connector: s.connector,
        version: s.version,
      },
      summary: `${s.state}${s.pc !== undefined ? ` at ${hex(s.pc)}` : ''}`,
    };
  },
});

const viceBanks = defineTool({
  name: 'vice_banks',
  title: 'VICE memory banks',
  description: 'The banks VICE offers for the main CPU (cpu, ram, rom, io, cart …) with their ids, for bank_id.',
  input: { session_id: sessionIdInput },
  output: { banks: z.array(z.object({ name: z.string(), id: z.number().int() })) },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, vice } = boundVice(ctx, args.session_id);
    return {
      session,
      data: { banks: vice.info.banks },
      summary: vice.info.banks.map((b) => `${b.name}=${b.id}`).join(' '),
    };
  },
});

const memoryRange = {
  start: z.number().int().min(0).max(0xffff),
  bank_id: z
    .number()
    .int()
    .min(0)
    .describe('mandatory: the same address holds different bytes in different banks (see vice_banks)'),
};

function checkSpan(start: number, length: number): void {
  if (start + length > 0x10000)
    throw badAddress(`${hex(start)}+${length} runs past $FFFF; VICE reads are not wrapped.`, {
      start,
      length,
    });
}

const viceReadMemory = defineTool({
  name: 'vice_read_memory',
  title: 'VICE: read memory',
  description: `Read 1-${MAX_READ} bytes of one bank without side effects. A range past $FFFF is refused, not wrapped. If VICE is running, the read stops it for a moment (as any monitor command does) and resumes it.`,
  input: { session_id: sessionIdInput, ...memoryRange, length: z.number().int().min(1).max(MAX_READ) },
  output: { start: z.number().int(), bank_id: z.number().int(), length: z.number().int(), hex: z.string() },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, vice } = boundVice(ctx, args.session_id);
    checkSpan(args.start, args.length);
    vice.bankId(args.bank_id);
    const bytes = await vice.readBank(args.bank_id, args.start, args.length);
    return {
      session,
      data: { start: args.start, bank_id: args.bank_id, length: bytes.length, hex: bytesToHex(bytes) },
      summary: `${bytes.length} bytes at ${hex(args.start)} (bank ${args.bank_id})`,
    };
  },
});

const viceWriteMemory = defineTool({
  name: 'vice_write_memory',
  title: 'VICE: write memory',
  description: `Write 1-${MAX_WRITE} bytes (hex) into one bank; needs the lease and a stopped machine. Writes to bank rom inside ROM are discarded by VICE.`,
  input: { session_id: sessionIdInput, ...memoryRange, hex: z.string().min(2), generation: generationInput },
  output: { start: z.number().int(), bank_id: z.number().int(), written: z.number().int() },
  annotations: WRITES,
  async run(args, ctx) {
    const { session, client, vice } = boundVice(ctx, args.session_id);
    const data = parseHex(args.hex);
    if (data.length > MAX_WRITE) throw tooLarge(`At most ${MAX_WRITE} bytes per write; ${data.length} were given.`);
    checkSpan(args.start, data.length);
    vice.bankId(args.bank_id);
    await client.control(VICE_FEATURE, { generation: args.generation, needs: 'stopped' }, (v) =>
      v.writeBank(args.bank_id, args.start, data),
    );
    return {
      session,
      data: { start: args.start, bank_id: args.bank_id, written: data.length },
      summary: `Wrote ${data.length} bytes at ${hex(args.start)}`,
    };
  },
});

const viceCheckpointSet = defineTool({
  name: 'vice_checkpoint_set',
  title: 'VICE: set a checkpoint',
  description:
    'A VICE checkpoint: exec (breakpoint), load and/or store (watchpoint) over start..end, optionally trace-only (stop=false), ' +
    'temporary (VICE resumes at once when one is set) and with a condition in VICE\'s monitor syntax ("A == $10"; plain numbers are hex). ' +
    "Checkpoints are VICE-global and survive reconnects; the session's C breakpoints are separate.",
  input: {
    session_id: sessionIdInput,
    start: z.number().int().min(0).max(0xffff),
    end: z.number().int().min(0).max(0xffff).optional(),
    operations: z
      .array(z.enum(['load', 'store', 'exec']))
      .min(1)
      .default(['exec']),
    stop: z.boolean().default(true),
    temporary: z.boolean().default(false),
    condition: z.string().max(255).optional(),
    generation: generationInput,
  },
  output: { checkpoint: checkpointSchema, condition: z.string().optional().describe('the condition VICE holds') },
  annotations: MUTATES,
  async run(args, ctx) {
    const { session, client } = boundVice(ctx, args.session_id);
    const op = args.operations.reduce((m, o) => m | ({ load: 1, store: 2, exec: 4 } as const)[o], 0);
    // a temporary checkpoint resumes VICE: a run the session follows
    const guard = { generation: args.generation, effect: args.temporary ? ('runs' as const) : undefined };
    const cp = await client.control(VICE_FEATURE, guard, (v) =>
      v.addCheckpoint({
        start: args.start,
        end: args.end ?? args.start,
        op,
        stop: args.stop,
        enabled: true,
        temporary: args.temporary,
        condition: args.condition,
      }),
    );
    return {
      session,
      data: { checkpoint: formatCheckpoint(cp), ...(cp.hasCondition ? { condition: args.condition } : {}) },
      summary: `Checkpoint ${cp.number} at ${hex(cp.start)}${cp.hasCondition ? ` if ${args.condition}` : ''}`,
    };
  },
});

const viceCheckpointList = defineTool({
  name: 'vice_checkpoint_list',
  title: 'VICE: list checkpoints',
  description:
    'Every checkpoint VICE holds (ordered by start address, as VICE lists them), including ones left by earlier clients.',
  input: { session_id: sessionIdInput },
  output: { checkpoints: z.array(checkpointSchema) },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, vice } = boundVice(ctx, args.session_id);
    const checkpoints = (await vice.listCheckpoints()).map(formatCheckpoint);
    return { session, data: { checkpoints }, summary: `${checkpoints.length} checkpoint(s)` };
  },
});

const viceCheckpointDelete = defineTool({
  name: 'vice_checkpoint_delete',
  title: 'VICE: delete or toggle a checkpoint',
  description: 'Delete checkpoint `number`, or with `enabled` switch it on or off instead.',
  input: {
    session_id: sessionIdInput,
    number: z.number().int().min(1),
    enabled: z.boolean().optional(),
    generation: generationInput,
  },
  output: { number: z.number().int(), action: z.enum(['deleted', 'enabled', 'disabled']) },
  annotations: MUTATES,
  async run(args, ctx) {
    const { session, client } = boundVice(ctx, args.session_id);
    await client.control(VICE_FEATURE, { generation: args.generation }, (v) =>
      args.enabled === undefined ? v.deleteCheckpoint(args.number) : v.toggleCheckpoint(args.number, args.enabled),
    );
    const action = (args.enabled === undefined ? 'deleted' : args.enabled ? 'enabled' : 'disabled') as
      'deleted' | 'enabled' | 'disabled';
    return { session, data: { number: args.number, action }, summary: `Checkpoint ${args.number} ${action}` };
  },
});

const viceExecution = defineTool({
  name: 'vice_execute',
  title: 'VICE: run control',
  description:
    'interrupt (stop now), resume, step (count instructions; over=true treats JSR as one), or return (run until the current subroutine returns). ' +
    'Returns once VICE accepted it; use vice_wait_for_stop for the stop.',
  input: {
    session_id: sessionIdInput,
    action: z.enum(['interrupt', 'resume', 'step', 'return']),
    count: z.number().int().min(1).max(0xffff).default(1),
    over: z.boolean().default(false),
    generation: generationInput,
  },
  output: { action: z.string() },
  annotations: MUTATES,
  async run(args, ctx) {
    const { session, client } = boundVice(ctx, args.session_id);
    const opts = { generation: args.generation };
    // interrupt and resume are the session's own run control; steps of N instructions and "return" run the machine
    // through the guarded path, so the session follows the run and the stop
    if (args.action === 'interrupt') await client.pause(opts);
    else if (args.action === 'resume') await client.resume(opts);
    else
      await client.control(VICE_FEATURE, { ...opts, needs: 'stopped', effect: 'runs' }, (v) =>
        args.action === 'step' ? v.advance(args.count, args.over) : v.stepOut(),
      );
    return { session, data: { action: args.action }, summary: `${args.action} accepted` };
  },
});

const viceWait = defineTool({
  name: 'vice_wait_for_stop',
  title: 'VICE: wait for a stop',
  description:
    'Wait until VICE stops (checkpoint, step end, interrupt, JAM) or timeout_ms passes (a timeout changes nothing).',
  input: { session_id: sessionIdInput, timeout_ms: TIMEOUT_MS.default(10_000) },
  output: { reason: z.string(), pc: z.number().int(), pc_hex: z.string(), checkpoint: z.number().int().optional() },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session } = boundVice(ctx, args.session_id);
    const status = await session.waitForStop(args.timeout_ms);
    const stop = status.last_stop;
    if (status.state !== 'stopped' || !stop)
      throw targetLost(`VICE is ${status.state}${status.error ? `: ${status.error.message}` : ''}.`);
    return {
      session,
      state: 'stopped',
      data: {
        reason: stop.reason,
        pc: stop.pc,
        pc_hex: hex(stop.pc),
        checkpoint: stop.breakpointId ?? stop.watchpointId,
      },
      summary: `Stopped (${stop.reason}) at ${hex(stop.pc)}`,
    };
  },
});

const viceReset = defineTool({
  name: 'vice_reset',
  title: 'VICE: reset',
  description:
    'Reset the machine (soft: CPU reset; hard: power cycle). VICE resumes afterwards; checkpoints survive; the session generation is bumped.',
  input: { session_id: sessionIdInput, kind: z.enum(['soft', 'hard']).default('soft'), generation: generationInput },
  output: { kind: z.string() },
  annotations: RESETS,
  async run(args, ctx) {
    const { session, client } = boundVice(ctx, args.session_id);
    await client.control(VICE_FEATURE, { generation: args.generation, effect: 'runs' }, (v) => v.reset(args.kind));
    return { session, data: { kind: args.kind }, summary: `${args.kind} reset` };
  },
});

const viceTypeKeys = defineTool({
  name: 'vice_type_keys',
  title: 'VICE: type keys',
  description:
    "Put text into the C64's keyboard buffer (VICE's keyboard feed), typed while it runs. a-z type the unshifted keys, " +
    'A-Z the shifted ones, "\\n" is RETURN; or give raw PETSCII bytes as petscii_hex. At most 255 keys; needs the lease.',
  input: {
    session_id: sessionIdInput,
    text: z.string().max(255).optional(),
    petscii_hex: z.string().optional(),
    generation: generationInput,
  },
  output: { typed: z.number().int(), petscii_hex: z.string() },
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const { session, client } = boundVice(ctx, args.session_id);
    const bytes = args.petscii_hex ? parseHex(args.petscii_hex) : asciiToPetscii(args.text ?? '');
    if (!bytes.length) throw badRequest('Give text or petscii_hex with at least one key.');
    if (bytes.includes(0)) throw badRequest("A NUL byte would end VICE's keyboard feed early.");
    await client.control(VICE_FEATURE, { generation: args.generation }, (v) => v.keyboardFeed(bytes));
    return {
      session,
      data: { typed: bytes.length, petscii_hex: bytesToHex(bytes) },
      summary: `Typed ${bytes.length} key(s)`,
    };
  },
});

export const viceTools: ToolDef[] = [
  viceConnect,
  viceDisconnect,
  viceStatus,
  viceRegisters,
  viceSetRegisters,
  viceBanks,
  viceReadMemory,
  viceWriteMemory,
  viceCheckpointSet,
  viceCheckpointList,
  viceCheckpointDelete,
  viceExecution,
  viceWait,
  viceReset,
  viceTypeKeys,
  viceJoystick,
  viceCaptureScreen,
];
