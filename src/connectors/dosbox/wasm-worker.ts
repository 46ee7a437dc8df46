/**
 * Runs ONE embedded DOSBox / DOSBox-X (npm "emulators", GPL-2.0) inside a
 * worker thread and answers memory, screenshot and exit requests from the
 * parent (see wasm-launcher.ts), until the parent terminates the worker.
 *
 * Why a worker per emulator: js-dos drives its wasm main loop with its own
 * timers on the event loop it was started on. In the shared main thread an
 * emulator that exits can leave a wake-up behind that re-enters the dead
 * instance ("RuntimeError: unreachable"), and every live or dying instance
 * competes with the MCP/DAP servers and the next instance for the same thread.
 * A worker isolates each instance (own heap, own timers, own wasm memory) and
 * worker.terminate() ends all of it, whatever state js-dos is in; so the
 * parent never calls ci.exit() (nothing is persisted; DOSBox-X's exit alone
 * kept running for about a second). Requests are
 * handled between the emulator's time slices, so a read never sees a half
 * executed instruction.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { heapHits, type SearchPattern } from './host-search.js';

export interface WasmWorkerData {
  flavour: 'dosbox' | 'dosbox-x';
  /** entries for js-dos: files ({path, contents}) and the config ({dosboxConf, jsdosConf}) */
  init: unknown[];
  /** resolved entry of the "emulators" package (found by the parent) */
  entry: string;
  /** the package's wasm, compiled once by the parent (wasm-module.ts) */
  module: WebAssembly.Module;
}

export type WasmRequest =
  | { id: number; op: 'read'; address: number; length: number }
  | { id: number; op: 'write'; address: number; data: Uint8Array }
  | { id: number; op: 'size' }
  | { id: number; op: 'search'; start: number; end: number; pattern: SearchPattern; limit: number }
  | { id: number; op: 'screenshot' }
  | { id: number; op: 'sound-start' }
  | { id: number; op: 'sound-stop' };

export type WasmReply =
  | { type: 'ready'; heapSize: number }
  | { type: 'failed'; message: string }
  | { type: 'exited' }
  | { id: number; ok: true; value?: unknown }
  | { id: number; ok: false; message: string };

interface CommandInterface {
  transport: { module: { HEAPU8: Uint8Array } };
  screenshot(): Promise<{ data: Uint8ClampedArray; width: number; height: number }>;
  events(): { onExit(f: () => void): void; onSoundPush(f: (samples: Float32Array) => void): void };
  soundFrequency(): number;
  mute(): void;
  unmute(): void;
}

/** js-dos's loader of the Emscripten module (8.4.2): `emModule(Module)` instantiates it. */
interface EmLoader {
  emModule: (module: Record<string, unknown>) => Promise<unknown>;
}

interface Emulators {
  pathPrefix: string;
  wasmModules(): Promise<{ dosbox(): Promise<EmLoader>; dosboxx(): Promise<EmLoader> }>;
  dosboxNode(init: unknown[]): Promise<CommandInterface>;
  dosboxXNode(init: unknown[]): Promise<CommandInterface>;
}

async function start(port: NonNullable<typeof parentPort>, data: WasmWorkerData): Promise<void> {
  createRequire(data.entry)(data.entry); // defines globalThis.emulators
  const g = globalThis as unknown as { emulators?: Emulators; ImageData?: unknown };
  if (!g.emulators) throw new Error('the npm package "emulators" loaded but did not define globalThis.emulators');
  g.emulators.pathPrefix = dirname(data.entry) + '/';
  // ci.screenshot() builds an ImageData, which Node lacks.
  g.ImageData ??= class {
    constructor(
      readonly data: Uint8ClampedArray,
      readonly width: number,
      readonly height: number,
    ) {}
  };
  const usedParentModule = await instantiateFrom(g.emulators, data, (message) =>
    port.postMessage({ type: 'failed', message } satisfies WasmReply),
  );
  const ci = await (data.flavour === 'dosbox-x'
    ? g.emulators.dosboxXNode(data.init)
    : g.emulators.dosboxNode(data.init));
  // a js-dos that compiles by itself would bring back the per-session compiler memory: refuse, do not drift
  if (!usedParentModule())
    throw new Error(
      `did not take the compiled module (the npm package "emulators" in ${dirname(data.entry)} is not the pinned version)`,
    );
  const heap = () => ci.transport.module.HEAPU8; // fetched per access: the heap may grow and detach old views
  ci.events().onExit(() => port.postMessage({ type: 'exited' } satisfies WasmReply));
  const reply = (id: number, value: unknown) =>
    port.postMessage(
      { id, ok: true, value } satisfies WasmReply,
      value instanceof Uint8Array ? [value.buffer as ArrayBuffer] : [],
    );
  const refuse = (id: number, err: unknown) =>
    port.postMessage({ id, ok: false, message: err instanceof Error ? err.message : String(err) } satisfies WasmReply);
  // the library's sound stream, kept only while a recording runs (js-dos pushes it only when unmuted)
  let sound: Float32Array[] | undefined;
  ci.events().onSoundPush((samples) => sound?.push(samples.slice()));
  port.on('message', (m: WasmRequest) => {
    if (m.op === 'sound-start') {
      sound = [];
      ci.unmute();
      reply(m.id, ci.soundFrequency());
      return;
    }
    if (m.op === 'sound-stop') {
      ci.mute();
      const chunks = sound ?? [];
      sound = undefined;
      const all = new Float32Array(chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const c of chunks) {
        all.set(c, at);
        at += c.length;
      }
      port.postMessage({ id: m.id, ok: true, value: { rate: ci.soundFrequency(), samples: all } } satisfies WasmReply, [
        all.buffer,
      ]);
      return;
    }
    if (m.op === 'screenshot') {
      ci.screenshot().then(
        (img) =>
          reply(m.id, {
            width: img.width,
            height: img.height,
            rgba: new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength).slice(),
          }),
        (err) => refuse(m.id, err),
      );
      return;
    }
    try {
      reply(m.id, answer(heap, m));
    } catch (err) {
      refuse(m.id, err);
    }
  });
  port.postMessage({ type: 'ready', heapSize: heap().length } satisfies WasmReply);
}

/**
 * Emscripten's own hook (Module.instantiateWasm) given the parent's compiled
 * module, so this worker instantiates it instead of compiling the file again.
 */
async function instantiateFrom(
  emulators: Emulators,
  data: WasmWorkerData,
  fail: (message: string) => void,
): Promise<() => boolean> {
  let used = false;
  const modules = await emulators.wasmModules();
  const loader = await (data.flavour === 'dosbox-x' ? modules.dosboxx() : modules.dosbox());
  if (typeof loader.emModule !== 'function')
    throw new Error('found no Emscripten loader in the npm package "emulators" (not the pinned version)');
  const make = loader.emModule;
  loader.emModule = (em) => {
    em.instantiateWasm = (
      imports: WebAssembly.Imports,
      done: (i: WebAssembly.Instance, m: WebAssembly.Module) => void,
    ) => {
      used = true;
      WebAssembly.instantiate(data.module, imports).then(
        (instance) => done(instance, data.module),
        (err: Error) => fail(`could not instantiate the compiled module: ${err.message}`),
      );
      return {};
    };
    return make(em);
  };
  return () => used;
}

function answer(
  heap: () => Uint8Array,
  m: Extract<WasmRequest, { op: 'read' | 'write' | 'size' | 'search' }>,
): unknown {
  switch (m.op) {
    case 'read': {
      const h = heap();
      if (m.address < 0 || m.address + m.length > h.length) throw new Error(`outside the ${h.length}-byte wasm heap`);
      return h.slice(m.address, m.address + m.length);
    }
    case 'write': {
      const h = heap();
      if (m.address < 0 || m.address + m.data.length > h.length)
        throw new Error(`outside the ${h.length}-byte wasm heap`);
      h.set(m.data, m.address);
      return undefined;
    }
    case 'size':
      return heap().length;
    case 'search': // in place: copying the heap out to search it cost the parent megabytes a session
      return heapHits(heap(), m.start, m.end, m.pattern, m.limit);
  }
}

if (parentPort) {
  const port = parentPort;
  start(port, workerData as WasmWorkerData).catch((err: unknown) => {
    port.postMessage({ type: 'failed', message: err instanceof Error ? err.message : String(err) } satisfies WasmReply);
  });
}
