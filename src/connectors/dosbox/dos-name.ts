/**
 * DOS sees a host program through two names: the folder DOSBox mounts as C:
 * (a quoted argument in its autoexec, so a `"` or a line break cannot be in
 * it) and the program's own name, which the shell runs and the MCB chain
 * reports as at most 8 upper-case characters. A path DOS cannot take as it is
 * gets a stand-in under the session's work folder — a link to the folder, or a
 * copy of the program under an 8.3 name — and the caller says so.
 */
import { copyFileSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

/** What an autoexec `mount c "…"` line can hold. */
function mountable(folder: string): boolean {
  return !/["\r\n]/.test(folder);
}

/** A name the DOS shell runs as typed and the MCB chain reports unchanged: 8.3 of DOS's own characters. */
export function isDosName(name: string): boolean {
  return /^[A-Za-z0-9_\-~!#$&@^]{1,8}(\.[A-Za-z0-9_\-~!#$&@^]{1,3})?$/.test(name);
}

/** An 8.3 stand-in for a host file name: its DOS characters, upper case, else PROGRAM; the extension kept. */
export function dosNameFor(name: string): string {
  const ext = extname(name)
    .slice(1)
    .toUpperCase()
    .replace(/[^A-Z0-9_]/g, '')
    .slice(0, 3);
  const stem =
    basename(name, extname(name))
      .toUpperCase()
      .replace(/[^A-Z0-9_]/g, '')
      .slice(0, 8) || 'PROGRAM';
  return ext ? `${stem}.${ext}` : stem;
}

export interface StagedProgram {
  /** the program as DOS is given it: the user's own path, or the stand-in */
  path: string;
  /** one sentence saying what was staged and why, when something was */
  note?: string;
}

/**
 * The user's program as DOSBox can take it. The stand-ins live in `workDir`
 * (the session's own folder); nothing beside the user's program is touched.
 */
export function stageDosProgram(program: string, workDir: string): StagedProgram {
  const folder = dirname(program);
  const name = basename(program);
  if (isDosName(name) && mountable(folder)) return { path: program };
  const drive = join(workDir, 'drive-c');
  rmSync(drive, { recursive: true, force: true });
  if (isDosName(name)) {
    // only the folder's name is in the way: C: is a link to it, so the files beside the program stay visible
    symlinkSync(folder, drive, 'dir');
    return {
      path: join(drive, name),
      note: `DOSBox cannot mount ${folder} by its name (it holds a quote or a line break); C: is ${drive}, a link to it.`,
    };
  }
  mkdirSync(drive, { recursive: true });
  const dosName = dosNameFor(name);
  copyFileSync(program, join(drive, dosName));
  return {
    path: join(drive, dosName),
    note: `DOS names are 8.3, so ${name} runs as C:\\${dosName}, a copy in ${drive}; files beside it are not on C:.`,
  };
}
