/**
 * The scratch folders of one SessionManager: one per session under a base
 * folder, removed when the session ends; the base folder (a fresh mkdtemp one
 * unless the caller gave its own) removed with the manager, and — should the
 * process end without closing it — on exit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Folders this process made and has not removed yet: what the exit hook removes. */
const pending = new Set<string>();
let hooked = false;

function removeOnExit(dir: string): void {
  pending.add(dir);
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const d of pending) rmSync(d, { recursive: true, force: true });
  });
}

async function remove(dir: string): Promise<void> {
  // an emulator that just exited may still be letting go of its files: a few retries
  await rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  pending.delete(dir);
}

export class WorkDirs {
  private base?: string;
  private readonly sessions = new Set<string>();

  /** `given`: the caller's folder (kept; only the session folders made in it go). */
  constructor(private readonly given?: string) {}

  /** Where a session's connector may put its files (created by the connector as it needs). */
  forSession(sessionId: string): string {
    const dir = join(this.baseDir(), sessionId);
    this.sessions.add(dir);
    removeOnExit(dir);
    return dir;
  }

  /** The session ended: its folder goes. */
  async release(sessionId: string): Promise<void> {
    if (!this.base) return;
    const dir = join(this.base, sessionId);
    if (!this.sessions.delete(dir)) return;
    await remove(dir);
  }

  /** Every folder of this manager goes (the base too, when it made it). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions].map((dir) => remove(dir)));
    this.sessions.clear();
    if (this.base && !this.given) {
      await remove(this.base);
      this.base = undefined;
    }
  }

  /** Made at the first session, so a manager that never starts one leaves nothing behind. */
  private baseDir(): string {
    if (this.given) return this.given;
    if (!this.base) {
      this.base = mkdtempSync(join(tmpdir(), 'retro-debug-'));
      removeOnExit(this.base);
    }
    return this.base;
  }
}
