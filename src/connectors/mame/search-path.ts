/**
 * MAME splits its search-path options (-rompath, -pluginspath) on ';' and has no escape for it, so a folder whose
 * name holds a ';' (a user's "Games; old" folder) cannot be named there. Such a folder is given to MAME as a
 * symbolic link with a plain name inside the session's run folder, which never holds a ';' itself.
 */
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';

/** The folders as one MAME search path, each folder with a ';' in its path replaced by a link in `linkDir`. */
export async function mameSearchPath(dirs: string[], linkDir: string): Promise<string> {
  const safe: string[] = [];
  for (const dir of dirs) {
    if (!dir.includes(';')) {
      safe.push(dir);
      continue;
    }
    await mkdir(linkDir, { recursive: true });
    const link = join(linkDir, `path-${safe.length}`);
    await symlink(dir, link, 'dir');
    safe.push(link);
  }
  return safe.join(';');
}
