/**
 * The emulator's own recorders. Native DOSBox: its hotkeys pressed into its
 * window on the private display (XTEST); the file it writes into the capture
 * folder our conf names is collected once its header is complete. The
 * embedded DOSBox-X: the library's own calls (see wasm-launcher.ts).
 */
import { sleep } from '../../core/async.js';
import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { badRequest, timedOut, unsupported } from '../../core/errors.js';
import { encodePng } from '../../core/png.js';
import { encodeWav, mediaInfo, type MediaInfo } from './media-info.js';
import type { WasmEmulator } from './wasm-launcher.js';
import type { PrivateDisplay } from './x-display.js';

export type RecorderKind = 'screenshot' | 'video' | 'audio';

export interface Recording {
  data: Uint8Array;
  /** the name the emulator gave it (or ours) */
  name: string;
  info?: MediaInfo;
  /** wall time from start to stop */
  elapsed_ms: number;
}

export interface Recorders {
  kinds: RecorderKind[];
  /** one sentence: how the recording is made */
  how: string;
  record(kind: RecorderKind, durationMs: number): Promise<Recording>;
}

/**
 * DOSBox 0.74's mapper bindings we launch with (SDL 1.2 key numbers; mod1 = Ctrl).
 * The default video binding, Ctrl+Alt+F5, never fires through XTEST on Xvfb
 * (measured: the Alt modifier does not reach the mapper), so video is Ctrl+F2.
 */
export const NATIVE_HOTKEYS: Record<RecorderKind, { xdotool: string; mapper: string; file: string }> = {
  screenshot: { xdotool: 'ctrl+F5', mapper: 'hand_scrshot "key 286 mod1"', file: '.png' },
  audio: { xdotool: 'ctrl+F6', mapper: 'hand_recwave "key 287 mod1"', file: '.wav' },
  video: { xdotool: 'ctrl+F2', mapper: 'hand_video "key 283 mod1"', file: '.avi' },
};

/** The mapper file: our recorder bindings and the Ctrl modifier. */
export function nativeMapperFile(): string {
  return [...Object.values(NATIVE_HOTKEYS).map((h) => h.mapper), 'mod_1 "key 306" "key 305"', ''].join('\n');
}

const FILE_WAIT_MS = 10_000;

export class NativeRecorders implements Recorders {
  readonly kinds: RecorderKind[] = ['screenshot', 'video', 'audio'];
  readonly how = "DOSBox's own recorders, their hotkeys pressed through XTEST into its window on its private display";
  private busy = false;

  constructor(
    private readonly display: PrivateDisplay,
    private readonly folder: string,
  ) {}

  async record(kind: RecorderKind, durationMs: number): Promise<Recording> {
    if (this.busy) throw badRequest('A recording of this emulator is already running; wait for it.');
    this.busy = true;
    try {
      const hot = NATIVE_HOTKEYS[kind];
      const before = new Set(await this.files());
      const t0 = performance.now();
      await this.display.key(hot.xdotool);
      if (kind !== 'screenshot') {
        await sleep(durationMs);
        await this.display.key(hot.xdotool);
      }
      const elapsed = performance.now() - t0;
      const name = await this.newFile(before, hot.file);
      const path = join(this.folder, name);
      const data = await readFile(path);
      await unlink(path);
      return { data, name, info: mediaInfo(data), elapsed_ms: Math.round(elapsed) };
    } finally {
      this.busy = false;
    }
  }

  private async files(): Promise<string[]> {
    return readdir(this.folder).catch(() => []);
  }

  /** The new file of that type, once the emulator has finished it (its header parses, its size holds still). */
  private async newFile(before: Set<string>, ext: string): Promise<string> {
    const deadline = Date.now() + FILE_WAIT_MS;
    let last = -1;
    for (;;) {
      const name = (await this.files()).find((f) => !before.has(f) && f.toLowerCase().endsWith(ext));
      if (name) {
        const size = (await stat(join(this.folder, name))).size;
        if (size === last && mediaInfo(await readFile(join(this.folder, name)))) return name;
        last = size;
      }
      if (Date.now() > deadline)
        throw timedOut(
          name
            ? `The emulator's ${ext} file ${name} was not complete within ${FILE_WAIT_MS} ms.`
            : `The emulator wrote no ${ext} file into ${this.folder} within ${FILE_WAIT_MS} ms of its hotkey.`,
        );
      await sleep(150);
    }
  }
}

/** The embedded DOSBox-X through the library's own calls; js-dos offers no video recorder. */
export class WasmRecorders implements Recorders {
  readonly kinds: RecorderKind[] = ['screenshot', 'audio'];
  readonly how =
    "the embedded emulator library's own calls: its screenshot() for PNG, its sound stream (events().onSoundPush) for WAV; it has no video recorder call";

  constructor(private readonly em: Pick<WasmEmulator, 'screenshot' | 'recordSound' | 'flavour'>) {}

  async record(kind: RecorderKind, durationMs: number): Promise<Recording> {
    const t0 = performance.now();
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
    if (kind === 'screenshot') {
      const img = await this.em.screenshot();
      const data = encodePng({ ...img, maybeStale: false });
      return { data, name: `${this.em.flavour}-${stamp}.png`, info: mediaInfo(data), elapsed_ms: 0 };
    }
    if (kind !== 'audio') throw unsupported(`The embedded emulator has no ${kind} recorder.`);
    const { rate, samples } = await this.em.recordSound(durationMs);
    const data = encodeWav(samples, rate, 1);
    return {
      data,
      name: `${this.em.flavour}-${stamp}.wav`,
      info: mediaInfo(data),
      elapsed_ms: Math.round(performance.now() - t0),
    };
  }
}
