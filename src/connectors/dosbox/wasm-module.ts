/**
 * The embedded DOSBox's WebAssembly compiled once per process and handed to
 * every emulator's worker (a WebAssembly.Module crosses threads without a
 * copy: the workers share its machine code, and its optimised tier once made).
 * Measured by the session soak: compiled in each worker, every session paid
 * TurboFan's tier-up again, and the allocator kept that compiler memory in
 * per-thread arenas (RSS +170 MB over 20 sessions, flat with --liftoff-only).
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { launchFailed } from '../../core/errors.js';

export type WasmFlavour = 'dosbox' | 'dosbox-x';

const WASM_FILE: Record<WasmFlavour, string> = { dosbox: 'wdosbox.wasm', 'dosbox-x': 'wdosbox-x.wasm' };
const compiled = new Map<string, Promise<WebAssembly.Module>>();

/** The compiled module of the "emulators" package found at `entry`; a failed compile is tried again next time. */
export function compiledDosbox(entry: string, flavour: WasmFlavour): Promise<WebAssembly.Module> {
  const file = join(dirname(entry), WASM_FILE[flavour]);
  let module = compiled.get(file);
  if (!module) {
    module = readFile(file)
      .then((bytes) => WebAssembly.compile(bytes))
      .catch((err: Error) => {
        throw launchFailed(`The embedded DOSBox's ${file} could not be loaded: ${err.message}`);
      });
    compiled.set(file, module);
    module.catch(() => compiled.delete(file));
  }
  return module;
}
