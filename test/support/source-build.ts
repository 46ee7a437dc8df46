/**
 * Fixtures built from sources at test time, once per content: the folder is named by a hash of the source files,
 * built in a private temp folder (the sources copied in) and renamed into place, so two test files building at
 * once never see a half-built fixture. `LINE:name` markers in the sources name lines for the tests.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';

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
  const hash = createHash('sha256');
  for (const name of names)
    hash
      .update(name)
      .update('\0')
      .update(await readFile(join(sourceDir, name)));
  const dir = join(outRoot, hash.digest('hex').slice(0, 16));
  if (existsSync(join(dir, product))) return dir;
  const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(tmp, { recursive: true });
  try {
    for (const name of names) await copyFile(join(sourceDir, name), join(tmp, basename(name)));
    await build(tmp);
    try {
      await rename(tmp, dir);
    } catch (err) {
      // another process finished the same build first: its result is identical
      if (!existsSync(join(dir, product))) throw err;
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return dir;
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
