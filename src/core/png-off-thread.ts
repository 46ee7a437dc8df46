/**
 * PNG encoding off the calling thread (MCP images and files): one worker
 * thread, started on first use and not keeping the process alive, encodes
 * the RGBA or indexed picture; the panel never needs it (it gets raw frames).
 * Measured by the issue: encoding was 75-90 % of a captured frame's cost, and
 * on the built-in C64 that time was taken from the emulator's thread.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { internalError } from './errors.js';
import type { Rgb } from './indexed-png.js';
import type { PngJob, PngReply } from './png-worker.js';
import type { ScreenImage } from './target.js';

type Job = PngJob extends infer J ? (J extends PngJob ? Omit<J, 'id'> : never) : never;

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, { resolve: (png: Buffer) => void; reject: (err: Error) => void }>();

/** The worker script: bundled next to us (dist/png-worker.js), or from source behind tsx's require hook (tests). */
function start(): Worker {
  const bundled = join(__dirname, 'png-worker.js');
  const options = { execArgv: [] as string[] }; // not the parent's flags (a test runner's would make it a test)
  const w = existsSync(bundled)
    ? new Worker(bundled, options)
    : new Worker(`require('tsx/cjs'); require(${JSON.stringify(join(__dirname, 'png-worker.ts'))});`, {
        ...options,
        eval: true,
      });
  w.on('message', (reply: PngReply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if (!pending.size) w.unref();
    if (reply.ok) p.resolve(Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength));
    else p.reject(internalError(`PNG encoding failed: ${reply.message}`));
  });
  const fail = (why: string) => {
    if (worker === w) worker = undefined; // the next job starts a new one
    for (const [id, p] of pending) {
      pending.delete(id);
      p.reject(internalError(`The PNG encoder thread ${why}.`));
    }
  };
  w.on('error', (err) => fail(`failed: ${err.message}`));
  w.on('exit', (code) => fail(`exited (code ${code})`));
  w.unref(); // after the listeners (they ref it): an idle encoder never keeps the process alive
  return w;
}

function run(job: Job): Promise<Buffer> {
  worker ??= start();
  const id = nextId++;
  const w = worker;
  return new Promise((resolve, reject) => {
    if (!pending.size) w.ref(); // a job under way keeps the process alive until its PNG is back
    pending.set(id, { resolve, reject });
    w.postMessage({ ...job, id });
  });
}

/** An RGBA screen image as PNG, encoded on the worker thread. */
export function encodePngOffThread(image: ScreenImage): Promise<Buffer> {
  return run({ kind: 'rgba', width: image.width, height: image.height, rgba: image.rgba });
}

/** Palette indices as an indexed PNG, encoded on the worker thread. */
export function encodeIndexedPngOffThread(
  img: { width: number; height: number; pixels: Uint8Array },
  palette: readonly Rgb[],
): Promise<Buffer> {
  return run({ kind: 'indexed', width: img.width, height: img.height, pixels: img.pixels, palette: [...palette] });
}
