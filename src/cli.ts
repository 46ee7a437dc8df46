/**
 * retro-debug: the headless front door.
 *   mcp    MCP over stdio with its own SessionManager (agents start sessions themselves)
 *   serve  MCP over HTTP, plus the debug adapter over TCP, on one shared SessionManager
 *   demo   build and debug the bundled ZX Spectrum demo in MAME (or, --machine c64, the C64 demo
 *          on the built-in C64), no VS Code needed
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { asRetroError } from './core/errors.js';
import { SessionManager } from './session/manager.js';
import { launchPolicyFromEnv, type LaunchPolicy } from './session/launch-policy.js';
import { serveDap } from './dap/serve.js';
import { startHttpMcpServer } from './mcp/http.js';
import { DEFAULT_PROFILE, PROFILES, isProfile, type Profile } from './mcp/groups.js';
import { serveStdio } from './mcp/stdio.js';
import { chooseView, CONNECTORS, TEST_MACHINES, TOOL_GROUPS } from './connectors/registry.js';
import { MAX_PROGRAM_BYTES, readRegularFile, writeFileAtomic } from './core/files.js';
import { EXE_HEADER_SIZE, exeFromIntelHex } from './machines/sprinter/exe-header.js';
import { runDemo } from './cli/demo.js';
import { testCommand } from './cli/test-command.js';
import { DEFAULT_LIMITS } from './testing/runner.js';

const HELP = `Usage: retro-debug <command> [options]

Commands:
  mcp     Serve MCP over stdio (for Claude Code, Codex, …). Starts its own sessions;
          ends the emulators it started when stdin closes or on SIGINT/SIGTERM.
            --out DIR        folder for relative screenshot paths (default: current folder)
            --profile P      tool groups visible at start: ${Object.keys(PROFILES).join(', ')} (default ${DEFAULT_PROFILE})
  serve   Serve MCP over HTTP on 127.0.0.1 and the debug adapter (DAP) over TCP,
          sharing one set of sessions.
            --port N         MCP port (default: random)
            --dap-port N     DAP port (default: random); launch/attach must carry "dapToken": the token
            --token-file F   write the bearer token to F (default: a private temp file)
            --overwrite      replace an existing token file
            --out DIR        folder for relative screenshot paths
            --profile P      tool groups visible at start (default ${DEFAULT_PROFILE}); per connection: <url>?profile=P
            --max-mcp-sessions N  MCP sessions at once (default 32; past it an idle one is closed, else refused)
  Both mcp and serve: agents read, write and load files only inside the current folder, --out
  and the roots their client declares:
            --root DIR       one more folder agents may use (repeatable)
  Executables come from the user, never from an agent:
            --mame-path F    MAME executable for sessions agents start (env RETRO_DEBUG_MAME_PATH)
            --vice-path F    VICE x64sc executable (env RETRO_DEBUG_VICE_PATH)
            --dosbox-path F  native DOSBox executable (env RETRO_DEBUG_DOSBOX_PATH)
            --allow-agent-launch-options
                             let agents set mamePath, vicePath, media, extraArgs, dos.executable,
                             dos.conf (env RETRO_DEBUG_ALLOW_AGENT_LAUNCH_OPTIONS=1); off by default
  demo    Build the bundled C demo with SDCC and debug it headless in MAME.
            --machine M      target machine (default spectrum); sprinter: a DSS program
                             on the open Sprinter ROM, in MAME 0.276; c64: built with cc65, run on the
                             built-in C64 (no emulator needed), screen saved as c64-screen.png
            --out DIR        where the build and screen.png go (default ./retro-debug-demo)
            --overwrite      replace an earlier demo's files in DIR
  exe     Write a Sprinter DSS program from a linker's Intel HEX (SDCC's .ihx): retro-debug exe IN.ihx OUT.EXE
          (load = start = the lowest address written; stack 0xBFFF; --overwrite replaces OUT.EXE)
  test    Build a C test project (retro_test.h) and run its tests headless; exit code 1 on a failure.
          retro-debug test <project folder | program.prg | program.rom>
            --machine M      c64 (cc65 builds, the built-in C64: exact cycles) or spectrum (SDCC, MAME)
            --junit F        write the results as JUnit XML
            --lcov F         collect statement coverage and write it as an lcov tracefile
            --filter S       run only the tests whose name contains S
            --max-cycles N   a test that runs longer is a timeout (default 50000000)
            --max-seconds S  the same in wall-clock seconds (default 10)

  -h, --help                 show this help
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  port: { type: 'string' },
  'dap-port': { type: 'string' },
  'token-file': { type: 'string' },
  'max-mcp-sessions': { type: 'string' },
  out: { type: 'string' },
  profile: { type: 'string' },
  machine: { type: 'string' },
  overwrite: { type: 'boolean' },
  'mame-path': { type: 'string' },
  'vice-path': { type: 'string' },
  'dosbox-path': { type: 'string' },
  'allow-agent-launch-options': { type: 'boolean' },
  junit: { type: 'string' },
  lcov: { type: 'string' },
  filter: { type: 'string' },
  'max-cycles': { type: 'string' },
  'max-seconds': { type: 'string' },
  root: { type: 'string', multiple: true },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

class UsageError extends Error {}

/** A positive count, or undefined when not given (the default applies). */
function countOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 10_000)
    throw new UsageError(`--${name} must be a count (1-10000), not "${value}".`);
  return n;
}

function portOption(value: string | undefined, name: string): number {
  if (value === undefined) return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new UsageError(`--${name} must be a port number (0-65535), not "${value}".`);
  return n;
}

function positiveOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(n > 0) || !Number.isFinite(n)) throw new UsageError(`--${name} must be a positive number, not "${value}".`);
  return n;
}

/** The folders agents may use: the current folder and each --root, resolved once at start. */
function rootsOption(values: Values): () => string[] {
  const roots = [process.cwd(), ...(values.root ?? []).map((r) => resolve(r))];
  return () => roots;
}

function profileOption(value: string | undefined): Profile {
  if (value === undefined) return DEFAULT_PROFILE;
  if (!isProfile(value)) throw new UsageError(`--profile must be one of ${Object.keys(PROFILES).join(', ')}.`);
  return value as Profile;
}

/** What agents may choose at launch: the environment, then the flags. */
function launchPolicyOption(values: Values): LaunchPolicy {
  const env = launchPolicyFromEnv();
  return {
    allowAgentLaunchOptions: values['allow-agent-launch-options'] ?? env.allowAgentLaunchOptions,
    mamePath: values['mame-path'] ?? env.mamePath,
    vicePath: values['vice-path'] ?? env.vicePath,
    dosExecutable: values['dosbox-path'] ?? env.dosExecutable,
  };
}

const logErr = (line: string) => process.stderr.write(line + '\n');

/** Runs `cleanup` once on SIGINT/SIGTERM (or when `until` settles), then exits. */
function exitAfter(cleanup: () => Promise<void>, until?: Promise<unknown>): void {
  let done = false;
  const finish = (code: number) => {
    if (done) return;
    done = true;
    const force = setTimeout(() => process.exit(code), 15_000); // MAME refusing to die must not hang us
    force.unref();
    cleanup()
      .catch((err) => logErr(`retro-debug: ${asRetroError(err).message}`))
      .finally(() => process.exit(code));
  };
  process.once('SIGINT', () => finish(130));
  process.once('SIGTERM', () => finish(143));
  void until?.then(() => finish(0));
}

async function commandMcp(values: Values): Promise<void> {
  // stdout is the protocol: anything else that prints goes to stderr.
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  const manager = new SessionManager({ connectors: CONNECTORS });
  const server = await serveStdio({
    manager,
    outputDir: resolve(values.out ?? '.'),
    roots: rootsOption(values),
    launchPolicy: launchPolicyOption(values),
    profile: profileOption(values.profile),
    groups: TOOL_GROUPS,
  });
  logErr('retro-debug: MCP server on stdio ready');
  exitAfter(async () => {
    await server.close();
    await manager.closeAll();
  }, server.closed);
}

async function commandServe(values: Values): Promise<void> {
  const manager = new SessionManager({ connectors: CONNECTORS });
  const port = portOption(values.port, 'port');
  const dapPort = portOption(values['dap-port'], 'dap-port');
  const tokenFile = resolve(
    values['token-file'] ?? join(tmpdir(), `retro-debug-mcp-${process.pid}-${randomBytes(4).toString('hex')}.token`),
  );
  const token = randomBytes(32).toString('base64url');
  await writeFileAtomic(tokenFile, token + '\n', { overwrite: values.overwrite ?? false, mode: 0o600 });
  const mcp = await startHttpMcpServer({
    manager,
    port,
    token,
    outputDir: resolve(values.out ?? '.'),
    roots: rootsOption(values),
    launchPolicy: launchPolicyOption(values),
    profile: profileOption(values.profile),
    groups: TOOL_GROUPS,
    maxSessions: countOption(values['max-mcp-sessions'], 'max-mcp-sessions'),
  });
  const dap = await serveDap(manager, dapPort, { token, chooseView });
  process.stdout.write(
    `MCP (Streamable HTTP): ${mcp.url}\nBearer token in: ${tokenFile}\nDAP (TCP): 127.0.0.1:${dap.port}\n` +
      `DAP clients put the same token in their launch/attach configuration as "dapToken".\n`,
  );
  exitAfter(async () => {
    await Promise.allSettled([mcp.close(), dap.close()]);
    await manager.closeAll();
    if (!values['token-file']) await unlink(tokenFile).catch(() => undefined);
  });
}

async function commandDemo(values: Values): Promise<void> {
  const manager = new SessionManager({ connectors: CONNECTORS });
  const log = (line: string) => process.stdout.write(line + '\n');
  try {
    await runDemo(manager, {
      machine: values.machine ?? 'spectrum',
      outDir: resolve(values.out ?? 'retro-debug-demo'),
      overwrite: values.overwrite ?? false,
      log,
    });
  } finally {
    await manager.closeAll();
  }
  process.exit(0); // nothing else should keep the process alive, but make sure
}

/** `exe IN.ihx OUT.EXE`: a linker's Intel HEX as a Sprinter DSS program (load = start = its lowest address). */
async function commandExe(values: Values, args: string[]): Promise<void> {
  if (args.length !== 2) throw new UsageError('exe takes an Intel HEX file and the .EXE to write.');
  const [from, to] = args.map((a) => resolve(a));
  const text = (await readRegularFile(from, { maxBytes: MAX_PROGRAM_BYTES, what: 'Intel HEX file' })).toString(
    'latin1',
  );
  const exe = exeFromIntelHex(text, args[0]);
  if (!values.overwrite && existsSync(to)) throw new UsageError(`${to} already exists; use --overwrite to replace it.`);
  await writeFileAtomic(to, exe, { overwrite: values.overwrite ?? false });
  process.stdout.write(
    `${to}: DSS program, ${exe.length - EXE_HEADER_SIZE} bytes at 0x${exe.readUInt16LE(0x10).toString(16)}\n`,
  );
}

async function commandTest(values: Values, args: string[]): Promise<void> {
  if (args.length !== 1) throw new UsageError('test takes one project folder or program.');
  const code = await testCommand(TEST_MACHINES, {
    target: args[0],
    machine: values.machine,
    junit: values.junit,
    lcov: values.lcov,
    filter: values.filter,
    limits: {
      maxCycles: positiveOption(values['max-cycles'], 'max-cycles') ?? DEFAULT_LIMITS.maxCycles,
      maxSeconds: positiveOption(values['max-seconds'], 'max-seconds') ?? DEFAULT_LIMITS.maxSeconds,
    },
    log: (line) => process.stdout.write(line + '\n'),
  });
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(HELP);
    return;
  }
  if (command === 'test') return commandTest(values, rest);
  if (command === 'exe') return commandExe(values, rest);
  if (rest.length) throw new UsageError(`Unexpected argument "${rest[0]}".`);
  switch (command) {
    case 'mcp':
      return commandMcp(values);
    case 'serve':
      return commandServe(values);
    case 'demo':
      return commandDemo(values);
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    logErr(`retro-debug: ${(err as Error).message}\nRun "retro-debug --help" for usage.`);
    process.exit(2);
  }
  const e = asRetroError(err);
  logErr(`retro-debug: ${e.message}${e.code === 'internal' ? '' : ` (${e.code})`}`);
  process.exit(1);
});
