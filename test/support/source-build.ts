/**
 * Fixtures built from sources at test time, once per content: the folder is named by a hash of the source files,
 * built in a private temp folder (the sources copied in) and renamed into place, so two test files building at
 * once never see a half-built fixture. `LINE:name` markers in the sources name lines for the tests.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

type Fixture = { dir: string; tmp?: string };

/** The fixture's folder, and a temp folder holding the sources to build in unless the product is there. */
function prepare(sourceDir: string, names: string[], outRoot: string, product: string): Fixture {
  const hash = createHash('sha256');
  for (const name of names)
    hash
      .update(name)
      .update('\0')
      .update(readFileSync(join(sourceDir, name)));
  const dir = join(outRoot, hash.digest('hex').slice(0, 16));
  if (existsSync(join(dir, product))) return { dir };
  const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  mkdirSync(tmp, { recursive: true });
  for (const name of names) copyFileSync(join(sourceDir, name), join(tmp, basename(name)));
  return { dir, tmp };
}

function settle({ dir, tmp }: Fixture, product: string): void {
  try {
    renameSync(tmp!, dir);
  } catch (err) {
    // another process finished the same build first: its result is identical
    if (!existsSync(join(dir, product))) throw err;
  }
}

/**
 * `outRoot`/<hash of `names` in `sourceDir`>, built by `build` (in a temp folder holding the sources, each by its base
 * name: a name may reach into a subfolder) unless `product` is there.
 */
export async function buildOnce(
  sourceDir: string,
  names: string[],
  outRoot: string,
  product: string,
  build: (tmp: string) => Promise<void>,
): Promise<string> {
  const fx = prepare(sourceDir, names, outRoot, product);
  if (!fx.tmp) return fx.dir;
  try {
    await build(fx.tmp);
    settle(fx, product);
  } finally {
    rmSync(fx.tmp, { recursive: true, force: true });
  }
  return fx.dir;
}

/** buildOnce for a synchronous `build`. */
export function buildOnceSync(
  sourceDir: string,
  names: string[],
  outRoot: string,
  product: string,
  build: (tmp: string) => void,
): string {
  const fx = prepare(sourceDir, names, outRoot, product);
  if (!fx.tmp) return fx.dir;
  try {
    build(fx.tmp);
    settle(fx, product);
  } finally {
    rmSync(fx.tmp, { recursive: true, force: true });
  }
  return fx.dir;
}

/** `/* LINE:name *\/` (C) or `; LINE:name` (assembly) markers in the sources, 1-based lines. */
export async function findMarkers(sources: string[]): Promise<Record<string, { file: string; line: number }>> {
  const markers: Record<string, { file: string; line: number }> = {};
  for (const file of sources)
    (await readFile(file, 'utf8')).split('\n').forEach((text, i) => {
      for (const m of text.matchAll(/(?:\/\*|;)\s*LINE:([\w-]+)/g)) markers[m[1]] = { file, line: i + 1 };
    });
  return markers;
}
