/**
 * The message formats of the toolchains' compilers and assemblers, read once:
 * the manifest turns them into VS Code problem matchers (Problems for build
 * tasks) and the language server parses the same lines into diagnostics.
 *   cc65/ca65:   demo.c(12): Error: Undefined symbol: 'x'
 *   sdcc/sdas:   demo.c:12: error 20: Undefined identifier 'x'   crt0.s:3: Error: <q> missing …
 *   nasm:        prog.asm:3: error: parser: instruction expected
 *   ACME:        Error - File hello.a, line 12 (Zone <untitled>): Value not defined (foo).
 *   64tass:      hello.asm:12:9: error: not defined symbol 'foo'
 */

export type Severity = 'error' | 'warning' | 'info';

export interface ToolchainFormat {
  /** problem matcher name (used as "$retro-cc65" in tasks) and diagnostic source */
  name: string;
  label: string;
  owner: string;
  /** groups: 1 file, 2 line, 3 severity, 4 message (unless `groups` orders them otherwise) */
  regexp: RegExp;
  /** the groups of file, line, severity and message, where they are not 1, 2, 3, 4 */
  groups?: { file: number; line: number; severity: number; message: number };
}

export const TOOLCHAIN_FORMATS: readonly ToolchainFormat[] = [
  {
    name: 'retro-cc65',
    label: 'cc65, ca65 (cl65)',
    owner: 'cc65',
    regexp: /^(.+?)\((\d+)\): (Error|Warning|Note): (.*)$/,
  },
  {
    name: 'retro-sdcc',
    label: 'sdcc, sdas/asz80',
    owner: 'sdcc',
    regexp: /^(.+?):(\d+): (error|warning|Error|Warning)(?: \d+)?: (.*)$/,
  },
  {
    name: 'retro-nasm',
    label: 'nasm',
    owner: 'nasm',
    regexp: /^(.+?):(\d+): (error|warning|fatal|panic|note): (.*)$/,
  },
  {
    name: 'retro-acme',
    label: 'ACME',
    owner: 'acme',
    regexp: /^(Error|Warning|Serious error) - File (.+?), line (\d+)(?: \([^)]*\))?: (.*)$/,
    groups: { severity: 1, file: 2, line: 3, message: 4 },
  },
  {
    name: 'retro-64tass',
    label: '64tass',
    owner: '64tass',
    regexp: /^(.+?):(\d+):\d+: (error|warning|note|fatal error): (.*)$/,
  },
];

const DEFAULT_GROUPS = { file: 1, line: 2, severity: 3, message: 4 };

export interface ToolchainMessage {
  source: string;
  file: string;
  /** 1-based, as the tools print it */
  line: number;
  severity: Severity;
  message: string;
}

function severityOf(word: string): Severity {
  const w = word.toLowerCase();
  if (w === 'warning') return 'warning';
  if (w === 'note') return 'info';
  return 'error';
}

/** Every recognised message in a tool's output (stdout and stderr together); `formats` narrows to the tool run. */
export function parseToolchainOutput(
  output: string,
  formats: readonly ToolchainFormat[] = TOOLCHAIN_FORMATS,
): ToolchainMessage[] {
  const messages: ToolchainMessage[] = [];
  for (const raw of output.split(/\r?\n/)) {
    const line = raw.trimEnd();
    for (const format of formats) {
      const m = format.regexp.exec(line);
      if (!m) continue;
      const g = format.groups ?? DEFAULT_GROUPS;
      messages.push({
        source: format.owner,
        file: m[g.file],
        line: Number(m[g.line]),
        severity: severityOf(m[g.severity]),
        message: m[g.message],
      });
      break;
    }
  }
  return messages;
}

/** package.json `contributes.problemMatchers`: the same expressions, file paths relative to the task's folder. */
export function problemMatcherContributions(): Record<string, unknown>[] {
  return TOOLCHAIN_FORMATS.map((f) => ({
    name: f.name,
    label: f.label,
    owner: f.owner,
    source: f.owner,
    fileLocation: ['autoDetect', '${cwd}'],
    pattern: { regexp: f.regexp.source, ...(f.groups ?? DEFAULT_GROUPS) },
  }));
}
