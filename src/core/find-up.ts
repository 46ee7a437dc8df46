/** Files shipped beside the bundle (dist/../X) or the sources (src/…/../X): the first folder above that holds them. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** `folder` (relative) in the nearest directory at or above `from` where it holds `marker`; undefined if none. */
export function findUp(from: string, folder: string, marker: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, folder, marker))) return join(dir, folder);
    if (dirname(dir) === dir) return undefined;
  }
}
