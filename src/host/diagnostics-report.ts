/**
 * "Retro Debug: Diagnostics": one text for a bug report — the versions of every emulator
 * and toolchain found on this machine, each session's boot log and error, and the last
 * warnings and errors the extension logged. Plain Node; the command copies and shows it.
 */
import { execFile } from 'node:child_process';
import type { Connector } from '../core/connector.js';
import type { SessionManagerApi } from '../session/types.js';

interface Tool {
  label: string;
  commands: string[];
  args: string[];
}

const TOOLS: Tool[] = [
  { label: 'MAME', commands: ['mame', '/usr/games/mame'], args: ['-version'] },
  { label: 'VICE x64sc', commands: ['x64sc'], args: ['--version'] },
  { label: 'DOSBox', commands: ['dosbox'], args: ['--version'] },
  { label: 'DOSBox-X', commands: ['dosbox-x'], args: ['--version'] },
  { label: 'cc65 (cl65)', commands: ['cl65'], args: ['--version'] },
  { label: 'ca65', commands: ['ca65'], args: ['--version'] },
  { label: 'SDCC', commands: ['sdcc'], args: ['--version'] },
  { label: 'sdasz80', commands: ['sdasz80'], args: [] },
  { label: 'NASM', commands: ['nasm'], args: ['-v'] },
];
const VERSION_TIMEOUT_MS = 10_000;

/** The first line that says something, of a tool's version output; undefined when it is not installed. */
async function versionOf(tool: Tool): Promise<string | undefined> {
  for (const command of tool.commands) {
    const out = await new Promise<string | undefined>((done) =>
      execFile(command, tool.args, { timeout: VERSION_TIMEOUT_MS }, (err, stdout, stderr) =>
        done((err as NodeJS.ErrnoException | null)?.code === 'ENOENT' ? undefined : `${stdout}\n${stderr}`),
      ),
    );
    const line = out
      ?.split('\n')
      .map((l) => l.trim())
      .find((l) => /\d+\.\d+/.test(l));
    if (out !== undefined) return `${line ?? '(no version printed)'} — ${command}`;
  }
  return undefined;
}

/** The last lines the extension logged at warning or error level, bounded. */
export class RecentProblems {
  private readonly lines: string[] = [];
  constructor(private readonly max = 50) {}
  add(level: 'warning' | 'error', message: string): void {
    this.lines.push(`${new Date().toISOString()} ${level}: ${message}`);
    if (this.lines.length > this.max) this.lines.shift();
  }
  list(): string[] {
    return [...this.lines];
  }
}

export async function diagnosticsReport(opts: {
  extensionVersion: string;
  vscodeVersion?: string;
  manager: SessionManagerApi;
  problems: RecentProblems;
  /** each one's own findings (MAME: which binary runs which driver) */
  connectors?: readonly Pick<Connector, 'kind' | 'diagnose'>[];
}): Promise<string> {
  const out = ['# Retro Debug diagnostics', ''];
  out.push(
    `- Retro Debug ${opts.extensionVersion}` + (opts.vscodeVersion ? `, VS Code ${opts.vscodeVersion}` : ''),
    `- Node ${process.version}, ${process.platform} ${process.arch}`,
    '',
    '## Emulators and toolchains',
    '',
  );
  const versions = await Promise.all(TOOLS.map(versionOf));
  TOOLS.forEach((t, i) => out.push(`- ${t.label}: ${versions[i] ?? 'not found on PATH'}`));
  for (const c of opts.connectors ?? []) {
    if (!c.diagnose) continue;
    const lines = await c.diagnose().catch((err: Error) => [`could not look: ${err.message}`]);
    out.push('', `## ${c.kind}`, '', ...lines.map((l) => `- ${l}`));
  }
  out.push('', '## Sessions', '');
  const sessions = opts.manager.list();
  if (!sessions.length) out.push('(none)');
  for (const s of sessions) {
    const st = await s.status().catch((err: Error) => ({ error: { code: 'status_failed', message: err.message } }));
    if (!('machine' in st)) {
      out.push(`### ${s.id}`, '', `status failed: ${st.error.message}`, '');
      continue;
    }
    out.push(`### ${st.session_id}: ${st.machine} in ${st.emulator}, ${st.phase}, ${st.state}`, '');
    if (st.program) out.push(`program: ${st.program}`);
    if (st.error) out.push(`error (${st.error.code}): ${st.error.message}`);
    out.push('', 'log:', ...st.progress.map((p) => `    ${p}`), '');
  }
  out.push('', '## Last warnings and errors', '');
  const problems = opts.problems.list();
  out.push(...(problems.length ? problems.map((p) => `- ${p}`) : ['(none)']), '');
  return out.join('\n');
}
