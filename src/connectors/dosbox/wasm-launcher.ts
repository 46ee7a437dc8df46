/**
 * The embedded DOSBox / DOSBox-X compiled to WebAssembly (npm "emulators",
 * js-dos, GPL-2.0). It is an OPTIONAL dependency: resolved lazily, only when
 * a session asks for the wasm backend, and loaded only inside the emulator's
 * own worker thread (wasm-worker.ts), so nothing GPL runs otherwise.
 * One worker per emulator: terminate() ends it completely, and the emulator
 * never competes with our servers for the main thread.
 */
import { sleep } from '../../core/async.js';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  RetroError,
  incompatibleTarget,
  badRequest,
  launchFailed,
  badAddress,
  targetLost,
  timedOut,
} from '../../core/errors.js';
import { MAX_PROGRAM_BYTES, readRegularFile } from '../../core/files.js';
import { CLEAR_SCREEN_COM, CLEAR_SCREEN_NAME, calibrationAutoexec } from './dosbox-conf.js';
import type { HostMemory, HostRegion } from './host-memory.js';
import type { WasmReply, WasmRequest, WasmWorkerData } from './wasm-worker.js';
import { compiledDosbox, type WasmFlavour } from './wasm-module.js';

export type { WasmFlavour };

/** The package name, in a variable so bundlers leave it to run time. */
const PACKAGE = 'emulators';
/** The version whose internals (transport.module.HEAPU8) we rely on. */
export const PINNED_VERSION = '8.4.2';
/** Booting the wasm emulator (compile + instantiate + DOS kernel) on a loaded 2-core machine. */
const BOOT_TIMEOUT_MS = 60_000;
const REQUEST_TIMEOUT_MS = 15_000;
/** Lines of the worker's console output kept for error messages. */
const LOG_LINES = 20;

export interface WasmEmulator {
  memory: HostMemory;
  flavour: WasmFlavour;
  /** true colours from the emulator's own renderer */
  screenshot(): Promise<{ width: number; height: number; rgba: Buffer }>;
  /** the emulator's sound stream for `ms` (mono float samples) */
  recordSound(ms: number): Promise<{ rate: number; samples: Float32Array }>;
  exit(): Promise<void>;
}

function packageEntry(): string | undefined {
  try {
    return createRequire(__filename).resolve(PACKAGE);
  } catch {
    return undefined;
  }
}

export function wasmAvailable(): boolean {
  return packageEntry() !== undefined;
}

/**
 * The worker script: bundled next to us (dist/dos-wasm-worker.js), or, when
 * running from source (tests, tsx), the TypeScript file behind tsx's require
 * hook (a worker does not inherit the parent's loader hooks).
 */
function spawnWorker(workerData: WasmWorkerData): Worker {
  const options = { workerData, execArgv: [] as string[], stdout: true, stderr: true };
  const bundled = join(__dirname, 'dos-wasm-worker.js');
  if (existsSync(bundled)) return new Worker(bundled, options);
  const source = join(__dirname, 'wasm-worker.ts');
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(source)});`, { ...options, eval: true });
}

export async function launchWasm(o: { flavour: WasmFlavour; program?: string; args?: string }): Promise<WasmEmulator> {
  const entry = packageEntry();
  if (!entry) {
    throw incompatibleTarget(
      'The embedded DOSBox needs the optional npm package "emulators" (js-dos, GPL-2.0): run npm install emulators, or use backend "native".',
    );
  }
  const init: unknown[] = [{ path: CLEAR_SCREEN_NAME, contents: CLEAR_SCREEN_COM }];
  const autoexec = ['mount c .', 'c:', ...calibrationAutoexec(CLEAR_SCREEN_NAME.replace(/\.COM$/, ''))];
  if (o.program) {
    const name = basename(o.program).toUpperCase();
    if (name === CLEAR_SCREEN_NAME)
      throw badRequest(
        `${CLEAR_SCREEN_NAME} is the name of our own screen-clearing helper in the embedded DOSBox; rename the program.`,
      );
    const contents = new Uint8Array(
      await readRegularFile(o.program, { maxBytes: MAX_PROGRAM_BYTES, what: 'DOS program' }).catch((err: Error) => {
        throw launchFailed(err.message);
      }),
    );
    init.push({ path: name, contents });
    autoexec.push(`${name}${o.args ? ' ' + o.args : ''}`);
  }
  init.push({ dosboxConf: `[autoexec]\n${autoexec.join('\n')}\n`, jsdosConf: { version: PINNED_VERSION } });
  const module = await compiledDosbox(entry, o.flavour);
  const em = new WorkerEmulator(spawnWorker({ flavour: o.flavour, init, entry, module }), o.flavour);
  await em.ready();
  return em;
}

class WorkerEmulator implements WasmEmulator {
  readonly memory: HostMemory;
  private readonly pending = new Map<
    number,
    { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }
  >();
  private readonly log: string[] = [];
  private nextId = 1;
  private heapSize = 0;
  private gone: string | undefined;
  private readonly started: Promise<void>;

  constructor(
    private readonly worker: Worker,
    readonly flavour: WasmFlavour,
  ) {
    const description = `embedded wasm ${flavour === 'dosbox-x' ? 'DOSBox-X' : 'DOSBox'} (worker thread ${worker.threadId})`;
    for (const s of [worker.stdout, worker.stderr]) s.setEncoding('utf8').on('data', (t: string) => this.keepLog(t));
    this.started = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(this.fail(`did not boot within ${BOOT_TIMEOUT_MS} ms`)), BOOT_TIMEOUT_MS);
      worker.on('message', (m: WasmReply) => {
        if ('type' in m) {
          if (m.type === 'ready') {
            clearTimeout(timer);
            this.heapSize = m.heapSize;
            resolve();
          } else if (m.type === 'failed') {
            clearTimeout(timer);
            reject(this.fail(m.message));
          } else this.end(`the emulator exited by itself${this.logTail()}`);
          return;
        }
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        clearTimeout(p.timer);
        if (m.ok) p.resolve(m.value);
        else p.reject(badAddress(`${this.memory.description}: ${m.message}.`));
      });
      worker.on('error', (err) => {
        clearTimeout(timer);
        reject(this.fail(`crashed (${err.message})`, true));
      });
      worker.on('exit', (code) => {
        clearTimeout(timer);
        reject(this.fail(`the worker exited (code ${code})`));
      });
    });
    this.memory = {
      description,
      backend: 'wasm',
      regions: async (): Promise<HostRegion[]> => {
        this.heapSize = await this.request<number>({ op: 'size' });
        return [{ start: 0, end: this.heapSize, label: 'wasm heap' }];
      },
      read: (address, length) => this.request<Uint8Array>({ op: 'read', address, length }),
      search: (start, end, pattern, limit) => this.request<number[]>({ op: 'search', start, end, pattern, limit }),
      write: async (address, data) => {
        await this.request({ op: 'write', address, data: data.slice() });
      },
      alive: () => this.gone === undefined,
      lostReason: () => this.gone,
      close: () => this.exit(),
    };
  }

  ready(): Promise<void> {
    return this.started.catch(async (err) => {
      await this.worker.terminate();
      throw err;
    });
  }

  async screenshot(): Promise<{ width: number; height: number; rgba: Buffer }> {
    const img = await this.request<{ width: number; height: number; rgba: Uint8Array }>({ op: 'screenshot' });
    return {
      width: img.width,
      height: img.height,
      rgba: Buffer.from(img.rgba.buffer, img.rgba.byteOffset, img.rgba.byteLength),
    };
  }

  async recordSound(ms: number): Promise<{ rate: number; samples: Float32Array }> {
    await this.request<number>({ op: 'sound-start' });
    await sleep(ms);
    return this.request<{ rate: number; samples: Float32Array }>({ op: 'sound-stop' });
  }

  async exit(): Promise<void> {
    this.end('it was shut down');
    await this.worker.terminate();
  }

  private request<T>(req: DistributiveOmit<WasmRequest, 'id'>): Promise<T> {
    if (this.gone !== undefined) return Promise.reject(targetLost(`${this.memory.description} is gone: ${this.gone}.`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          timedOut(`${this.memory.description} did not answer a ${req.op} request within ${REQUEST_TIMEOUT_MS} ms.`),
        );
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.worker.postMessage({ ...req, id });
    });
  }

  private end(reason: string): void {
    if (this.gone !== undefined) return;
    this.gone = reason;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(targetLost(`${this.memory.description} is gone: ${reason}.`));
      this.pending.delete(id);
    }
  }

  private fail(why: string, crashed = false): RetroError {
    this.end(why);
    return launchFailed(
      `The embedded ${this.flavour === 'dosbox-x' ? 'DOSBox-X' : 'DOSBox'} ${why}.${this.logTail()}`,
      { wasm_crashed: crashed },
    );
  }

  private logTail(): string {
    return this.log.length ? ` Emulator output: ${this.log.join(' | ')}` : '';
  }

  private keepLog(text: string): void {
    for (const line of text.split('\n')) if (line.trim()) this.log.push(line.trim().slice(0, 200));
    this.log.splice(0, Math.max(0, this.log.length - LOG_LINES));
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
