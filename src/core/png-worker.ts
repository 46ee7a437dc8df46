/**
 * The PNG encoder's worker thread (started by png-off-thread.ts): RGBA or
 * palette-indexed pictures in, PNG bytes out, so that deflating a screen never
 * runs on the thread the built-in emulator and the session servers share.
 */
import { parentPort } from 'node:worker_threads';
import { encodeIndexedPng, type Rgb } from './indexed-png.js';
import { encodePng } from './png.js';

export type PngJob =
  | { id: number; kind: 'rgba'; width: number; height: number; rgba: Uint8Array }
  | { id: number; kind: 'indexed'; width: number; height: number; pixels: Uint8Array; palette: Rgb[] };

export type PngReply = { id: number; ok: true; png: Uint8Array } | { id: number; ok: false; message: string };

const port = parentPort;
port?.on('message', (job: PngJob) => {
  try {
    const png =
      job.kind === 'rgba'
        ? encodePng({
            width: job.width,
            height: job.height,
            rgba: Buffer.from(job.rgba.buffer, job.rgba.byteOffset, job.rgba.byteLength),
            maybeStale: false,
          })
        : encodeIndexedPng({ width: job.width, height: job.height, pixels: job.pixels }, job.palette).png;
    port.postMessage({ id: job.id, ok: true, png } satisfies PngReply);
  } catch (err) {
    port.postMessage({ id: job.id, ok: false, message: (err as Error).message } satisfies PngReply);
  }
});
