/** Tool group `dos`, part 1: launching/attaching, host capabilities, guest discovery, profiles. */
import * as z from 'zod/v4';
import { resolve } from 'node:path';
import { agentLaunchConfig } from '../../../session/launch-policy.js';
import { RetroError, timedOut, badRequest } from '../../../core/errors.js';
import { accessReport, recorderReport } from '../capabilities.js';
import { wasmAvailable } from '../wasm-launcher.js';
import { farHex } from '../../../machines/dos/bda.js';
import { loadProfileFile, validateProfile } from '../../../machines/dos/profile.js';
import { READ_ONLY, MUTATES, defineTool, type ToolContext, type ToolDef } from '../../../mcp/tool-kit.js';
import { sessionIdInput } from '../../../mcp/schemas.js';
import { useDos } from './mcp-common.js';
import { hex } from '../../../core/hex.js';
import { allowedRoots } from '../../../mcp/tool-files.js';
import { launchPathsInRoots } from '../../../mcp/launch-check.js';
import type { ClientSession } from '../../../session/client-session.js';

const READY_WAIT_MS = 45_000;

const programSchema = z.object({
  name: z.string(),
  psp: z.string(),
  load_segment: z.string(),
  bytes: z.number().int(),
  path: z.string().optional(),
});

/** A DOS guest is ready once it runs; the wait is bounded, the session keeps starting after it. */
async function waitReady(client: ClientSession): Promise<void> {
  try {
    await client.whenReady(READY_WAIT_MS);
  } catch (err) {
    if (!(err instanceof RetroError) || err.code !== 'timeout') throw err;
    const st = await client.session.status();
    throw timedOut(
      `The DOS guest was not ready within ${READY_WAIT_MS} ms (${st.progress.at(-1)}); the session keeps starting: check session_status.`,
    );
  }
}

async function guestData(ctx: ToolContext, sessionId: string) {
  const { session, machine } = useDos(ctx, sessionId);
  const s = await machine.summary();
  const where = await machine.tryLocateScreen();
  return {
    session,
    data: {
      backend: machine.backend.backend,
      emulator: machine.backend.description,
      pid: machine.backend.pid,
      guest_base: '0x' + machine.guest.base.toString(16),
      conventional_kb: s.bda.conventionalKb,
      int21: farHex(s.bda.int21),
      int21_live: s.int21Live,
      video_mode: '0x' + s.bda.videoMode.toString(16).padStart(2, '0'),
      first_mcb: hex(s.firstMcb, 4, ''),
      programs: s.programs.map((p) => ({
        name: p.name,
        psp: hex(p.psp, 4, ''),
        load_segment: hex(p.psp, 4, ''),
        bytes: p.bytes,
        path: p.path,
      })),
      vga: where ? { how: where.how, stride: where.stride } : undefined,
      profile: machine.profileMatch
        ? {
            name: machine.profile!.name,
            ds: hex(machine.profileMatch.ds, 4, ''),
            program: machine.profileMatch.program,
          }
        : undefined,
    },
    summary:
      `${s.bda.conventionalKb} KiB, INT 21h ${s.int21Live ? 'live' : 'not live'} at ${farHex(s.bda.int21)}; programs:\n` +
      s.programs
        .map(
          (p) =>
            `  ${p.name.padEnd(8)} load segment ${hex(p.psp, 4, '')} ${String(p.bytes).padStart(7)} B  ${p.path ?? ''}`,
        )
        .join('\n'),
  };
}

const guestOutput = {
  backend: z.enum(['native', 'wasm']),
  emulator: z.string(),
  pid: z.number().int().optional(),
  guest_base: z.string().describe('host address of guest physical 0'),
  conventional_kb: z.number().int(),
  int21: z.string(),
  int21_live: z.boolean(),
  video_mode: z.string(),
  first_mcb: z.string(),
  programs: z.array(programSchema),
  vga: z.object({ how: z.string(), stride: z.number().int() }).optional(),
  profile: z.object({ name: z.string(), ds: z.string(), program: z.string() }).optional(),
};

const launch = defineTool({
  name: 'dosbox_launch',
  title: 'Launch a DOS program',
  description:
    'Start a DOS program in an emulator isolated from the desktop (no window, focus, keys or pointer of yours are touched) and wait until DOS and the program are up. ' +
    'backend: "wasm-dosbox-x" / "wasm-dosbox" (embedded, needs the optional npm package "emulators") or "native" (DOSBox on PATH; isolation "dummy" = SDL dummy video, "xvfb" = a private X display). Returns the guest summary.',
  input: {
    program: z.string().optional().describe('the .COM/.EXE to run (its folder becomes C:), relative to cwd'),
    args: z.string().max(120).optional(),
    backend: z.enum(['native', 'wasm-dosbox', 'wasm-dosbox-x']).optional(),
    isolation: z.enum(['dummy', 'xvfb']).optional(),
    executable: z.string().optional().describe('native DOSBox executable'),
    conf: z.string().optional().describe('a DOSBox .conf to use instead of ours (native)'),
    profile: z.string().optional().describe('a program profile JSON to load once up'),
    cwd: z.string().optional(),
  },
  output: { ...guestOutput, your_client_id: z.string() },
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  async run(args, ctx) {
    const config = agentLaunchConfig(
      {
        machine: 'dos',
        emulator: 'dosbox',
        program: args.program,
        cwd: args.cwd && resolve(args.cwd),
        dos: {
          backend: args.backend,
          isolation: args.isolation,
          executable: args.executable,
          conf: args.conf,
          args: args.args,
          profile: args.profile,
        },
      },
      ctx.launchPolicy,
    );
    // a DOS launch names no connector host-path option (its drive is the program's folder)
    const client = ctx.manager.start(launchPathsInRoots({}, config, await allowedRoots(ctx)), ctx.connection.starter);
    const { session } = client;
    ctx.connection.adopt(client);
    await waitReady(client);
    const out = await guestData(ctx, session.id);
    return { ...out, data: { ...out.data, your_client_id: client.id } };
  },
});

const attach = defineTool({
  name: 'dosbox_attach',
  title: 'Attach to a running DOSBox',
  description:
    'Attach to a native DOSBox (DOSBox-X, Staging) that is already running, by process id, and find its guest. Needs ptrace rights: see dosbox_capabilities.',
  input: { pid: z.number().int().min(1), profile: z.string().optional(), cwd: z.string().optional() },
  output: { ...guestOutput, your_client_id: z.string() },
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  async run(args, ctx) {
    const client = ctx.manager.start(
      {
        machine: 'dos',
        emulator: 'dosbox',
        program: `pid:${args.pid}`,
        cwd: args.cwd,
        dos: { pid: args.pid, profile: args.profile },
      },
      ctx.connection.starter,
    );
    const { session } = client;
    ctx.connection.adopt(client);
    await waitReady(client);
    const out = await guestData(ctx, session.id);
    return { ...out, data: { ...out.data, your_client_id: client.id } };
  },
});

const recorderRow = z.object({
  backend: z.string(),
  screenshot: z.string(),
  video: z.string(),
  audio: z.string(),
  window_capture: z.string(),
});

const capabilities = defineTool({
  name: 'dosbox_capabilities',
  title: 'What this host allows',
  description:
    'Reports what this host allows for reaching emulator memory: platform, kernel.yama.ptrace_scope, uid, which backends work (native launch/attach, embedded wasm), ' +
    "and which of the emulator's own recorders (screenshot, video, audio) and window capture each backend really has. With session_id: that session's recorders.",
  input: { session_id: z.string().optional().describe("also report this DOS session's recorders") },
  output: {
    platform: z.string(),
    ptrace_scope: z.number().int().nullable(),
    uid: z.number().int().nullable(),
    root: z.boolean(),
    notes: z.array(z.string()),
    backends: z.object({ native_launch: z.boolean(), native_attach: z.string(), wasm: z.string() }),
    recorders: z.array(recorderRow),
    session_recorders: z.array(z.string()).optional(),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const r = accessReport(wasmAvailable());
    const recorders = recorderReport(wasmAvailable());
    const session_recorders = args.session_id
      ? (useDos(ctx, args.session_id).machine.backend.recorders?.kinds ?? [])
      : undefined;
    return {
      data: { ...r, recorders, session_recorders },
      summary: [
        ...r.notes,
        ...recorders.map((x) => `${x.backend}: screenshot ${x.screenshot}; video ${x.video}; audio ${x.audio}`),
      ].join('\n'),
    };
  },
});

const findGuest = defineTool({
  name: 'dosbox_find_guest',
  title: 'Find the DOS guest',
  description:
    'The guest found by its BIOS keyboard ring and live INT 21h vector: memory size, loaded programs (name, load segment, size, path) from the MCB chain, ' +
    'the VGA buffer. screen_text/row/col: text on screen now, to calibrate the VGA buffer of an emulator build we do not know.',
  input: {
    session_id: sessionIdInput,
    screen_text: z.string().min(4).max(80).optional(),
    row: z.number().int().min(0).max(49).default(0),
    col: z.number().int().min(0).max(131).default(0),
  },
  output: guestOutput,
  annotations: READ_ONLY,
  async run(args, ctx) {
    if (args.screen_text)
      await useDos(ctx, args.session_id).machine.screen({ text: args.screen_text, row: args.row, col: args.col });
    return guestData(ctx, args.session_id ?? ctx.connection.use().session.id);
  },
});

const profileOut = {
  name: z.string(),
  ds: z.string(),
  program: z.string(),
  checks_passed: z.number().int(),
  symbols: z.array(z.string()),
  watch_sets: z.array(z.string()),
  path: z.string().optional(),
};

const loadProfile = defineTool({
  name: 'dosbox_load_profile',
  title: 'Load a program profile',
  description:
    'Load a profile (JSON file, or inline JSON) and match it: its marker must be found in a loaded program with every check passing. Then DS-relative tools take symbol names.',
  input: {
    session_id: sessionIdInput,
    path: z.string().optional(),
    profile: z.record(z.string(), z.unknown()).optional().describe('inline profile JSON'),
  },
  output: profileOut,
  annotations: MUTATES,
  async run(args, ctx) {
    const { session, machine } = useDos(ctx, args.session_id);
    if (!args.path === !args.profile) throw badRequest('Give either path or profile (inline JSON).');
    const roots = await allowedRoots(ctx);
    const full = args.path && resolve(ctx.outputDir, args.path);
    const profile = full ? loadProfileFile(full, roots) : validateProfile(args.profile, ctx.outputDir, roots);
    const match = await machine.loadProfile(profile, full);
    return {
      session,
      data: {
        name: profile.name,
        ds: hex(match.ds, 4, ''),
        program: match.program,
        checks_passed: match.checked,
        symbols: Object.keys(profile.symbols),
        watch_sets: Object.keys(profile.watchSets),
        path: full,
      },
      summary: `Profile ${profile.name} matched ${match.program} with DS=${hex(match.ds, 4, '')} (${match.checked} checks passed).`,
    };
  },
});

const validate = defineTool({
  name: 'dosbox_validate_profile',
  title: 'Validate a program profile',
  description:
    'Check a profile file against the schema rules without touching any guest; returns what it defines or the first problem.',
  input: { path: z.string() },
  output: {
    name: z.string(),
    marker_bytes: z.number().int(),
    checks: z.number().int(),
    symbols: z.array(z.string()),
    path: z.string(),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const full = resolve(ctx.outputDir, args.path);
    const p = loadProfileFile(full, await allowedRoots(ctx));
    return {
      data: {
        name: p.name,
        marker_bytes: p.marker.bytes.length,
        checks: p.checks.length,
        symbols: Object.keys(p.symbols),
        path: full,
      },
      summary: `${full}: valid profile ${p.name}.`,
    };
  },
});

export const dosSessionTools: ToolDef[] = [launch, attach, capabilities, findGuest, loadProfile, validate];
