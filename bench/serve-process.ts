/**
 * A `retro-debug serve` child for benches that measure the server alone: its MCP URL and token, its RSS from
 * /proc (the bench's own client traffic stays out of the figure). Run `npm run build` first (dist/cli.js).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../test/support/c64-fixture.js';

export interface ServeProcess {
  url: string;
  token: string;
  pid: number;
  /** resident set size now, MB */
  rssMb(): number;
  close(): Promise<void>;
}

export async function startServe(cwd: string, extraArgs: string[] = []): Promise<ServeProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-serve-'));
  const tokenFile = join(dir, 'token');
  const child: ChildProcess = spawn(
    process.execPath,
    [join(REPO_ROOT, 'dist', 'cli.js'), 'serve', '--token-file', tokenFile, '--out', dir, ...extraArgs],
    { cwd, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${out}`)));
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /MCP \(Streamable HTTP\): (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
  });
  return {
    url,
    token: readFileSync(tokenFile, 'utf8').trim(),
    pid: child.pid!,
    rssMb: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024,
    close: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs a bench's main and exits (0, or 1 with the error): the SDK clients' sockets would keep the process up. */
export function runBench(main: () => Promise<unknown>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
