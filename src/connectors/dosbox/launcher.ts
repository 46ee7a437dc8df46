/**
 * The `dosbox` launcher the session manager registers: starts (or attaches
 * to) an emulator on the chosen backend, waits for exactly one live guest and
 * for DOS (and the program) to be up, locates the VGA buffer while our
 * calibration line is still on screen, and hands back a DosboxTarget.
 */
import { pictureAfter, RendererPalette } from './renderer-palette.js';
import { sleep } from '../../core/async.js';
import { existsSync, mkdirSync, openSync, readSync, closeSync } from 'node:fs';
import { resolve } from 'node:path';
import { asRetroError, badRequest, notFound, launchFailed, timedOut } from '../../core/errors.js';
import type { LaunchConfig } from '../../core/launch.js';
import { hex } from '../../core/hex.js';
import { DosGuest } from './guest.js';
import { DosMachine, type DosBackendInfo } from './dos-machine.js';
import { DosboxTarget } from './dosbox-target.js';
import { findGuestBase } from './discovery.js';
import { typeKeys } from './input.js';
import type { HostMemory } from './host-memory.js';
import { launchNative } from './native-launcher.js';
import { stageDosProgram } from './dos-name.js';
import { NativeRecorders, WasmRecorders } from './recorders.js';
import { PrivateDisplay } from './x-display.js';
import { ProcMemory } from './proc-memory.js';
import { launchWasm, wasmAvailable } from './wasm-launcher.js';
import { loadProfileFile } from '../../machines/dos/profile.js';
import { loadListingLabels } from './listing-profile.js';

export type DosBackend = 'native' | 'wasm-dosbox' | 'wasm-dosbox-x';

const GUEST_WAIT_MS = 20_000;
const POLL_MS = 50;
const ENTER = 0x1c0d;

/** Debian's DOSBox 0.74-3 amd64 build, whose live VGA DAC sits at a fixed offset from the executable. */
const DOSBOX074_BUILD_ID = '2695def57a0764269c9d8f5cfc6d7b68d6a14af0';
const DOSBOX074_DAC_OFFSET = 0x2a4f200;

export function defaultBackend(): DosBackend {
  return wasmAvailable() ? 'wasm-dosbox-x' : 'native';
}

type LaunchOpts = { workDir: string; onProgress?: (m: string) => void };

/**
 * The embedded DOSBox-X sometimes aborts on its own while booting ("RuntimeError:
 * unreachable" inside the wasm, about 1 boot in 8 on a loaded machine, with or
 * without other instances). Nothing of the user's exists yet at that point, so
 * a crashed wasm boot is retried once with a fresh emulator.
 */
const WASM_BOOT_ATTEMPTS = 2;

export async function launchDosboxTarget(config: LaunchConfig, opts: LaunchOpts): Promise<DosboxTarget> {
  const progress = opts.onProgress ?? (() => undefined);
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchOnce(config, opts);
    } catch (err) {
      const e = asRetroError(err);
      const crashedWasmBoot = e.code === 'launch_failed' && e.details?.wasm_crashed === true;
      if (!crashedWasmBoot || attempt >= WASM_BOOT_ATTEMPTS) throw e;
      progress(`${e.message} Starting a fresh embedded emulator (attempt ${attempt + 1} of ${WASM_BOOT_ATTEMPTS}).`);
    }
  }
}

/** The program as DOS can take it (see dos-name.ts); a missing file is left for the backend to report. */
function dosProgram(program: string, workDir: string, progress: (m: string) => void): string {
  if (!existsSync(program)) return program;
  mkdirSync(workDir, { recursive: true });
  const staged = stageDosProgram(program, workDir);
  if (staged.note) progress(staged.note);
  return staged.path;
}

async function launchOnce(config: LaunchConfig, opts: LaunchOpts): Promise<DosboxTarget> {
  const dos = config.dos ?? {};
  const cwd = config.cwd ?? process.cwd();
  const backend = dos.pid ? 'native' : (dos.backend ?? defaultBackend());
  const progress = opts.onProgress ?? (() => undefined);
  const asked = config.program && resolve(cwd, config.program);
  const program = asked && !dos.pid && !dos.conf ? dosProgram(asked, opts.workDir, progress) : asked;
  let memory: HostMemory;
  let info: DosBackendInfo;
  let shutdown: () => Promise<void>;
  if (dos.pid) {
    const mem = new ProcMemory(dos.pid, 'DOSBox');
    memory = mem;
    info = { backend: 'native', description: mem.description, pid: dos.pid, launched: false, dac: nativeDac(mem) };
    shutdown = () => mem.close();
  } else if (backend === 'native') {
    const proc = await launchNative({
      executable: dos.executable,
      program,
      args: dos.args,
      conf: dos.conf && resolve(cwd, dos.conf),
      isolation: dos.isolation,
      workDir: opts.workDir,
      memsizeMb: dos.memsizeMb,
      onOutput: (l) => progress(`dosbox: ${l}`),
    });
    let mem: ProcMemory;
    try {
      mem = new ProcMemory(proc.pid, 'DOSBox');
    } catch (err) {
      await proc.kill();
      throw err;
    }
    memory = mem;
    info = {
      backend: 'native',
      description: mem.description,
      pid: proc.pid,
      launched: true,
      display: proc.display,
      dac: nativeDac(mem),
      recorders:
        proc.display && proc.captures
          ? new NativeRecorders(new PrivateDisplay(proc.display), proc.captures)
          : undefined,
    };
    shutdown = async () => {
      await mem.close();
      await proc.kill();
    };
  } else {
    const flavour = backend === 'wasm-dosbox' ? 'dosbox' : 'dosbox-x';
    if (dos.conf) throw badRequest('A .conf file is for native DOSBox; the wasm backend is configured by us.');
    const em = await launchWasm({ flavour, program, args: dos.args });
    memory = em.memory;
    info = {
      backend: 'wasm',
      description: em.memory.description,
      launched: true,
      emulatorScreenshot: () => em.screenshot(),
      recorders: new WasmRecorders(em),
    };
    shutdown = () => em.exit();
  }
  try {
    progress(`Looking for the DOS guest in ${memory.description}`);
    const base = await waitFor(() => findGuestBase(memory), memory, 'a DOS guest');
    const guest = new DosGuest(memory, base);
    const own = info.emulatorScreenshot;
    if (own) info.rendererPalette = new RendererPalette(pictureAfter(async () => (await guest.bda()).ticks, own));
    const machine = new DosMachine(guest, info);
    if (info.launched && !dos.conf) {
      // Our autoexec holds at PAUSE with the calibration line on screen: locate the VGA buffer, then release it.
      const where = await waitFor(() => machine.screen(), memory, 'the calibration line on screen');
      progress(`VGA buffer: ${where.where.how}`);
      await typeKeys(machine.guest, [ENTER], { timeoutMs: 2000, drainMs: 0 });
    }
    const wanted = program
      ?.split(/[\\/]/)
      .pop()
      ?.replace(/\.[^.]*$/, '');
    const started = await waitFor(
      async () => {
        const map = await machine.guest.programMap();
        const found = wanted && map.programs.find((p) => p.name.toUpperCase() === wanted.toUpperCase());
        if (wanted && info.launched && !found) throw notFound(`${wanted} has not started yet.`);
        return found || undefined;
      },
      memory,
      wanted && info.launched ? `DOS to start ${wanted}` : 'DOS to boot',
    );
    // where an agent finds the program's variables with read_memory (there is no debug info to name them)
    if (started) progress(loadedAt(started.name, started.psp));
    if (!info.launched || dos.conf) {
      const where = await machine.tryLocateScreen();
      progress(where ? `VGA buffer: ${where.how}` : 'VGA buffer not located yet (text screen needs calibration)');
    }
    if (dos.profile) await machine.loadProfile(loadProfileFile(resolve(cwd, dos.profile)), resolve(cwd, dos.profile));
    else if (started && asked && !dos.pid && !dos.conf)
      await loadListingLabels(
        machine,
        asked,
        config.debugInfo && resolve(cwd, config.debugInfo),
        started.name,
        progress,
      );
    return new DosboxTarget(machine, shutdown);
  } catch (err) {
    await shutdown().catch(() => undefined);
    throw err;
  }
}

/** Retries while the answer is "not yet" (not_found); anything else ends the wait. */
async function waitFor<T>(probe: () => Promise<T>, memory: HostMemory, what: string): Promise<T> {
  const deadline = Date.now() + GUEST_WAIT_MS;
  for (;;) {
    try {
      return await probe();
    } catch (err) {
      const e = asRetroError(err);
      if (!memory.alive()) {
        throw launchFailed(
          `${memory.description} exited while waiting for ${what}${memory.lostReason?.() ? `: ${memory.lostReason()}` : ''}.`,
          { wasm_crashed: memory.backend === 'wasm' },
        );
      }
      if (e.code !== 'not_found' || Date.now() > deadline) {
        throw e.code === 'not_found' ? timedOut(`Waited ${GUEST_WAIT_MS} ms for ${what}: ${e.message}`) : e;
      }
    }
    await sleep(POLL_MS);
  }
}

function nativeDac(mem: ProcMemory): () => Promise<Uint8Array | undefined> {
  let load: number | undefined | null = null;
  return async () => {
    if (load === null) load = buildIdMatches(mem.pid) ? mem.exeLoad('/dosbox') : undefined;
    return load === undefined ? undefined : mem.read(load + DOSBOX074_DAC_OFFSET, 768);
  };
}

function buildIdMatches(pid: number): boolean {
  const exe = `/proc/${pid}/exe`;
  if (!existsSync(exe)) return false;
  try {
    const fd = openSync(exe, 'r');
    const head = Buffer.alloc(65536);
    readSync(fd, head, 0, head.length, 0);
    closeSync(fd);
    return head.includes(Buffer.from(DOSBOX074_BUILD_ID, 'hex'));
  } catch {
    return false;
  }
}

/** "KEYECHO runs in segment 0B8D (its PSP) …": a .COM's labels are offsets in that segment. */
export function loadedAt(name: string, psp: number): string {
  const base = psp * 16;
  return (
    `${name} runs in segment ${hex(psp, 4, '')} (its PSP): a .COM's label at offset L is at linear ` +
    `${hex(base, 5)} + L (read_memory {address: ${base} + L})`
  );
}
