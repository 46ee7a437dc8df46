/**
 * Builds the DOS test programs (test/fixtures/dos/*.asm with the real nasm, and
 * *.c with Debian's bcc -Md when bcc is installed) at test time into
 * .test-work/dos-fixture/<hash>/, with their label maps, and
 * gives tests a way to call the MCP tools in-process (same schemas as MCP).
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS, findTool } from '../../src/connectors/registry.js';
import { McpConnection } from '../../src/mcp/connection.js';
import { invokeTool, type ToolContext } from '../../src/mcp/tool-kit.js';

const run = promisify(execFile);
const REPO_ROOT = resolve(__dirname, '..', '..');
const SOURCE_DIR = join(REPO_ROOT, 'test', 'fixtures', 'dos');
const OUT_ROOT = join(REPO_ROOT, '.test-work', 'dos-fixture');

export interface DosProgramFixture {
  com: string;
  labels: Record<string, number>;
}

/** Writes a profile for KEYECHO at `path`: found by the marker the program carries, naming its `count`. */
export function writeKeyechoProfile(path: string, ke: DosProgramFixture): void {
  const profile = {
    name: 'keyecho',
    marker: { bytes: Buffer.from('KEYECHOVARS').toString('hex'), offset: ke.labels.marker },
    symbols: { count: { offset: ke.labels.count, type: 'u16' } },
  };
  writeFileSync(path, JSON.stringify(profile));
}

export interface DosFixtures {
  dir: string;
  programs: Record<string, DosProgramFixture>;
}

/** Is Debian's bcc (with bin86 and elks-libc's libdos) here to build the C fixtures? */
export function bccAvailable(): boolean {
  return (
    existsSync('/usr/lib/bcc/libdos.a') &&
    ['/usr/bin/bcc', '/usr/bin/as86', '/usr/bin/ld86'].every((f) => existsSync(f))
  );
}

export async function buildDosFixtures(): Promise<DosFixtures> {
  const names = (await readdir(SOURCE_DIR))
    .filter((n) => n.endsWith('.asm') || (n.endsWith('.c') && bccAvailable()))
    .sort();
  const includes = (await readdir(SOURCE_DIR)).filter((n) => n.endsWith('.inc')).sort();
  const hash = createHash('sha256');
  for (const n of [...names, ...includes]) hash.update(n).update(await readFile(join(SOURCE_DIR, n)));
  const dir = join(OUT_ROOT, hash.digest('hex').slice(0, 16));
  if (!existsSync(join(dir, 'done'))) {
    const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    await mkdir(tmp, { recursive: true });
    for (const n of names) {
      const stem = n.replace(/\.(asm|c)$/, '');
      const out = join(tmp, `${stem.toUpperCase()}.COM`);
      if (n.endsWith('.asm'))
        await run('nasm', ['-f', 'bin', '-i', `${SOURCE_DIR}/`, '-o', out, join(SOURCE_DIR, n)], {
          cwd: tmp,
          timeout: 30_000,
        });
      else {
        // -X-M: ld86's symbol map on stdout; the C globals' offsets are relative to the program's data segment
        const { stdout } = await run('bcc', ['-Md', '-X-M', '-o', out, join(SOURCE_DIR, n)], {
          cwd: tmp,
          timeout: 30_000,
        });
        await writeFile(join(tmp, `${stem}.map`), stdout);
      }
    }
    await writeFile(join(tmp, 'done'), '');
    try {
      await rename(tmp, dir);
    } catch {
      await rm(tmp, { recursive: true, force: true });
    }
  }
  const programs: Record<string, DosProgramFixture> = {};
  for (const n of names) {
    const stem = n.replace(/\.(asm|c)$/, '');
    const map = await readFile(join(dir, `${stem}.map`), 'utf8');
    programs[stem] = {
      com: join(dir, `${stem.toUpperCase()}.COM`),
      labels: n.endsWith('.c') ? parseLd86Map(map) : parseMap(map),
    };
  }
  return { dir, programs };
}

/** nasm "[map symbols]" output: "  Real  Virtual  Name" rows. */
function parseMap(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^\s*([0-9A-F]+)\s+([0-9A-F]+)\s+(\S+)\s*$/gm)) out[m[3]] = parseInt(m[1], 16);
  return out;
}

/** ld86 -M rows "module  symbol  segment  value  flags": C globals (`_name`, data segment 3) by plain name. */
function parseLd86Map(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^\s*\S+\s+_(\w+)\s+3\s+([0-9a-f]{8})\s+R/gm)) out[m[1]] = parseInt(m[2], 16);
  return out;
}

/** The X tools a private-display test needs; a skip reason when one is missing (Debian's xvfb, x11-apps, xdotool). */
const X_TOOLS = ['/usr/bin/Xvfb', '/usr/bin/xwd', '/usr/bin/xdotool'];
export function missingXTools(): string | false {
  return X_TOOLS.every(existsSync) ? false : `needs ${X_TOOLS.join(', ')} (xvfb, x11-apps, xdotool)`;
}

/** MODE13.COM's picture: pattern (x+2y)&255, the 40x40 box at (140,80) in `box`, rows 190.. in `strip` if given. */
export function expectedMode13(box: number, strip?: number): Uint8Array {
  const f = new Uint8Array(64000);
  for (let y = 0; y < 200; y++) for (let x = 0; x < 320; x++) f[y * 320 + x] = (x + 2 * y) & 255;
  for (let y = 80; y < 120; y++) for (let x = 140; x < 180; x++) f[y * 320 + x] = box;
  if (strip !== undefined) f.fill(strip, 190 * 320);
  return f;
}

/** The dosbox_load_profile profile naming MOUSE.COM's INT 33h handler words and its click counter. */
export function mouseProfile(mo: DosProgramFixture): Record<string, unknown> {
  return {
    name: 'mouse',
    marker: { bytes: Buffer.from('MOUSEVARS').toString('hex'), offset: mo.labels.marker },
    mouse: { buttons: mo.labels.buttons, x: mo.labels.mousex, y: mo.labels.mousey },
    symbols: { clicks: { offset: mo.labels.clicks, type: 'u16' } },
  };
}

/** Polls `probe` until it says yes; fails naming `what` after `ms`. */
export async function until(what: string, probe: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Calls MCP tools in-process through the same validation and result builder as the MCP server. */
export class ToolDriver {
  readonly manager: SessionManager;
  readonly connection: McpConnection;
  readonly outputDir: string;
  private readonly ctx: ToolContext;

  /** `outputDir`: the output folder to use (default: a fresh temp folder); it is removed by close() either way */
  constructor(outputDir?: string) {
    this.manager = new SessionManager({ connectors: CONNECTORS });
    this.connection = new McpConnection(this.manager, { label: () => 'dos test agent', kind: 'cli' });
    this.outputDir = outputDir ?? mkdtempSync(join(tmpdir(), 'dos-out-'));
    // the repository is the workspace: the built fixtures lie in it
    this.ctx = {
      manager: this.manager,
      connection: this.connection,
      outputDir: this.outputDir,
      groups: () => [],
      roots: async () => [REPO_ROOT],
    };
  }

  /** Structured result of a successful call; throws with the error text otherwise. */
  async call<T = Record<string, any>>(name: string, args: Record<string, unknown> = {}): Promise<T> {
    const r = await this.raw(name, args);
    if (r.isError) throw new Error(`${name} failed: ${(r.content[0] as { text: string }).text}`);
    return r.structuredContent as T;
  }

  /** The error (code, message) of a call expected to fail. */
  async fail(name: string, args: Record<string, unknown> = {}): Promise<{ code: string; message: string }> {
    const r = await this.raw(name, args);
    if (!r.isError)
      throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(r.structuredContent).slice(0, 300)}`);
    return (r.structuredContent as { error: { code: string; message: string } }).error;
  }

  raw(name: string, args: Record<string, unknown>) {
    const tool = findTool(name);
    if (!tool) throw new Error(`no tool ${name}`);
    return invokeTool(tool, args, this.ctx);
  }

  async close(): Promise<void> {
    this.connection.close();
    await this.manager.closeAll();
    rmSync(this.outputDir, { recursive: true, force: true });
  }
}
