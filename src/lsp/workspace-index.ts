/**
 * The workspace as the language server sees it: its assembly and C files (open documents
 * win over the disk) and the debug info the toolchains wrote (.dbg, .cdb), re-read when
 * the file changes. The walk is bounded like the launch-configuration search.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { loadDebugInfo } from '../debuginfo/load.js';
import type { DebugInfo } from '../debuginfo/model.js';
import { walkWorkspace } from '../host/workspace-walk.js';
import { AMBIGUOUS_ASM_EXTENSIONS, ASM_LANGUAGES } from './asm-dialect.js';

const SOURCE_EXTENSIONS = new Set([
  ...AMBIGUOUS_ASM_EXTENSIONS,
  ...Object.values(ASM_LANGUAGES).flatMap((l) => l.extensions),
  '.c',
  '.h',
]);
const DEBUG_INFO_EXTENSIONS = new Set(['.dbg', '.cdb']);
const MAX_ENTRIES = 5000;
const MAX_DEPTH = 5;
const MAX_SOURCE_BYTES = 2_000_000;

export interface LoadedDebugInfo {
  path: string;
  info: DebugInfo;
  /** when the file was written: of two builds of the same sources, the newer one describes them */
  mtimeMs: number;
}

export class WorkspaceIndex {
  private sources: string[] = [];
  private debugFiles: string[] = [];
  private readonly diskText = new Map<string, { mtimeMs: number; text: string }>();
  private readonly debugInfo = new Map<string, { mtimeMs: number; loaded?: LoadedDebugInfo; error?: string }>();

  constructor(
    private readonly roots: string[],
    /** open documents by path: their text is newer than the disk's */
    private readonly openText: (path: string) => string | undefined,
  ) {}

  async rescan(): Promise<void> {
    const sources: string[] = [];
    const debugFiles: string[] = [];
    for (const root of this.roots)
      await walkWorkspace(
        root,
        (dir, files) => {
          for (const name of files) {
            const ext = extname(name).toLowerCase();
            if (SOURCE_EXTENSIONS.has(ext)) sources.push(join(dir, name));
            else if (DEBUG_INFO_EXTENSIONS.has(ext)) debugFiles.push(join(dir, name));
          }
        },
        { maxDepth: MAX_DEPTH, maxEntries: MAX_ENTRIES },
      );
    this.sources = sources;
    this.debugFiles = debugFiles;
  }

  /** The workspace folder that holds `path` (the first one when none does). */
  rootOf(path: string): string | undefined {
    return this.roots.find((r) => !relative(r, path).startsWith('..')) ?? this.roots[0];
  }

  sourceFiles(): string[] {
    return this.sources;
  }

  async text(path: string): Promise<string | undefined> {
    const open = this.openText(path);
    if (open !== undefined) return open;
    try {
      const st = await stat(path);
      if (st.size > MAX_SOURCE_BYTES) return undefined;
      const cached = this.diskText.get(path);
      if (cached?.mtimeMs === st.mtimeMs) return cached.text;
      const text = await readFile(path, 'utf8');
      this.diskText.set(path, { mtimeMs: st.mtimeMs, text });
      return text;
    } catch {
      return undefined;
    }
  }

  /** Every debug-info file that loads; the ones that do not are in `debugInfoErrors()`. */
  async debugInfos(): Promise<LoadedDebugInfo[]> {
    const out: LoadedDebugInfo[] = [];
    for (const path of this.debugFiles) {
      let mtimeMs: number;
      try {
        mtimeMs = (await stat(path)).mtimeMs;
      } catch {
        continue;
      }
      let entry = this.debugInfo.get(path);
      if (entry?.mtimeMs !== mtimeMs) {
        entry = { mtimeMs };
        try {
          entry.loaded = { path, info: await loadDebugInfo(path), mtimeMs };
        } catch (err) {
          entry.error = `${path}: ${(err as Error).message}`;
        }
        this.debugInfo.set(path, entry);
      }
      if (entry.loaded) out.push(entry.loaded);
    }
    return out;
  }

  debugInfoErrors(): string[] {
    return [...this.debugInfo.values()].flatMap((e) => (e.error ? [e.error] : []));
  }
}

/** Whether a debug-info file name (as the toolchain wrote it) is the source at `path`. */
export function sameSource(debugName: string, path: string): boolean {
  return basename(debugName.replace(/\\/g, '/')) === basename(path);
}
