/**
 * The Sprinter with a user's own BIOS and no DSS disk: the debugger loads the DSS .EXE itself (docs/sprinter.md).
 * The BIOS runs to a boot point (an address it reaches once ready, or a number of frames); there the code is written
 * to its load address and read back (it must be RAM at that point), the PSP built as DSS builds it, and SP, IX and
 * PC set from the header. Unless the user says DSS was booted, every DSS call (RST 10h) stops the program with an
 * 'exception' stop naming the call, instead of running whatever the BIOS holds at 0x0010.
 */
import { launchFailed, timedOut } from '../../core/errors.js';
import { hex } from '../../core/hex.js';
import type { BridgeLoadOptions } from '../../core/launch.js';
import type { Address, Register, StopInfo, TargetListener, TargetStatus } from '../../core/target.js';
import type { StagedExe } from '../../machines/sprinter/open-rom.js';

/** What the load needs of the MAME target (mame-target.ts). */
export interface LoadTarget {
  readMemory(address: Address, length: number): Promise<Uint8Array>;
  writeMemory(address: Address, data: Uint8Array): Promise<void>;
  writeRegister(name: string, value: number): Promise<void>;
  setBreakpoint(address: Address): Promise<number>;
  clearBreakpoint(id: number): Promise<void>;
  trap(address: number, why: (registers: Register[]) => string): Promise<void>;
  status(): Promise<TargetStatus>;
  resume(): Promise<void>;
  pause(): Promise<void>;
  onEvent(listener: TargetListener): () => void;
}

const BOOT_FRAMES = 50;
/** with a boot address: the most frames to wait for the BIOS to get there */
const BOOT_ADDRESS_FRAMES = 500;
const BOOT_TIMEOUT_MS = 60_000;
const POLL_MS = 10;
const RST_10H = 0x0010;
/** the PSP's first bytes (DSS keeps its own there): LD B,0; LD C,EXIT; RST 10h — a RET from the program ends it */
const PSP_EXIT = [0x06, 0x00, 0x0e, 0x41, 0xd7];

/** the DSS functions a C program's console uses (docs/sprinter.md): named in the stop */
const DSS_CALLS: Record<number, string> = {
  0x00: 'VERSION',
  0x30: 'WAITKEY',
  0x31: 'SCANKEY',
  0x41: 'EXIT',
  0x5b: 'PUTCHAR',
  0x5c: 'PCHARS',
};

/** Boots, loads `exe`, and leaves the CPU held at its start address. */
export async function bridgeLoad(target: LoadTarget, exe: StagedExe, options: BridgeLoadOptions): Promise<void> {
  const booted = await runToBootPoint(target, options);
  const wrong = await placeExe(target, exe);
  if (wrong)
    throw launchFailed(
      `The program could not be loaded: at the boot point (PC ${hex(booted.pc)}, pages ${pages(booted)}) ` +
        `${hex(exe.header.load + wrong.offset)} is not RAM (wrote ${hex(exe.code[wrong.offset], 2)}, read ${hex(wrong.read, 2)}). ` +
        'Choose a boot point where the BIOS maps RAM over the program (bridgeLoad.bootAddress), or use the open ROM.',
    );
  if (options.dss !== 'present') await target.trap(RST_10H, dssAbsent);
}

/**
 * Loads `exe` as DSS does into a running machine: the code at its load address (read back), the PSP with its exit
 * below it, and SP, IX and PC from the header, so the next resume starts it. Also how the unit-test runner starts a
 * Sprinter program afresh. Returns the first code byte that did not read back (not RAM), if any.
 */
export async function placeExe(
  target: Pick<LoadTarget, 'readMemory' | 'writeMemory' | 'writeRegister'>,
  exe: StagedExe,
): Promise<{ offset: number; read: number } | undefined> {
  const { load, start, stack } = exe.header;
  await target.writeMemory({ space: 'cpu', offset: load }, exe.code);
  const back = await target.readMemory({ space: 'cpu', offset: load }, exe.code.length);
  const wrong = exe.code.findIndex((b, i) => b !== back[i]);
  if (wrong >= 0) return { offset: wrong, read: back[wrong] };
  const psp = new Uint8Array(0x100);
  psp.set(PSP_EXIT);
  await target.writeMemory({ space: 'cpu', offset: load - 0x100 }, psp);
  // the return address: a RET from the program runs the PSP's EXIT
  const sp = (stack - 2) & 0xffff;
  await target.writeMemory({ space: 'cpu', offset: sp }, new Uint8Array([(load - 0x100) & 0xff, (load - 0x100) >> 8]));
  await target.writeRegister('SP', sp);
  await target.writeRegister('IX', load - 0x80);
  await target.writeRegister('PC', start);
  return undefined;
}

function pages(stop: StopInfo): string {
  const p = stop.pages ?? {};
  return Object.keys(p).length
    ? Object.entries(p)
        .map(([w, n]) => `${w}=${n}`)
        .join(' ')
    : 'unknown';
}

function dssAbsent(registers: Register[]): string {
  const reg = (name: string) => registers.find((r) => r.name === name)?.value;
  const c = reg('C') ?? (reg('BC') ?? 0) & 0xff;
  const name = DSS_CALLS[c] ? ` (${DSS_CALLS[c]})` : '';
  const exit = c === 0x41 ? ` The program ended with exit code ${(reg('B') ?? (reg('BC') ?? 0) >> 8) & 0xff}.` : '';
  return (
    `DSS call ${hex(c, 2)}${name} without DSS: the debugger loaded the program (bridgeLoad) and no DSS answers ` +
    `RST 10h.${exit} Resuming runs what your BIOS has at 0x0010; set bridgeLoad.dss to "present" when the boot ` +
    'point has DSS loaded, or use the open ROM (leave rompath out), which answers the console calls.'
  );
}

/** Runs the BIOS to the boot point and holds it there. */
async function runToBootPoint(target: LoadTarget, options: BridgeLoadOptions): Promise<StopInfo> {
  const at = options.bootAddress;
  const frames = options.bootFrames ?? (at === undefined ? BOOT_FRAMES : BOOT_ADDRESS_FRAMES);
  const stops: StopInfo[] = [];
  const off = target.onEvent((e) => {
    if (e.type === 'stopped') stops.push(e.stop);
  });
  try {
    const bp = at === undefined ? undefined : await target.setBreakpoint({ space: 'cpu', offset: at });
    const first = (await target.status()).frame ?? 0;
    await target.resume();
    const deadline = Date.now() + BOOT_TIMEOUT_MS;
    while (stops.length === 0) {
      if (Date.now() > deadline)
        throw timedOut(`The BIOS did not boot within ${BOOT_TIMEOUT_MS / 1000} s (bridgeLoad).`);
      if (((await target.status()).frame ?? 0) - first >= frames && stops.length === 0) {
        await target.pause();
        while (stops.length === 0) await sleep(POLL_MS);
        break;
      }
      await sleep(POLL_MS);
    }
    if (bp !== undefined) await target.clearBreakpoint(bp);
    const stop = stops[0];
    if (at !== undefined && stop.breakpointId !== bp)
      throw launchFailed(
        `The BIOS did not reach the boot point ${hex(at)} within ${frames} frames (bridgeLoad.bootAddress; it was at ` +
          `${hex(stop.pc)}): give the address of a loop your BIOS runs once it is ready, or more bootFrames.`,
      );
    return stop;
  } finally {
    off();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
