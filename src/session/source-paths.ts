import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

/** Finds the file on disk behind a debug-info path, trying each root in turn. */
export class SourcePaths {
  private readonly cache = new Map<string, string | undefined>();

  constructor(private readonly roots: string[]) {}

  resolve(file: string): string | undefined {
    if (this.cache.has(file)) return this.cache.get(file);
    const candidates = isAbsolute(file) ? [file] : this.roots.map((root) => resolve(root, file));
    const found = candidates.find((c) => existsSync(c));
    this.cache.set(file, found);
    return found;
  }
}
