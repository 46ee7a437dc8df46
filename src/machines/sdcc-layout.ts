/**
 * Where SDCC links a C program for each Z80 machine we debug, with a crt0.s of the project's kind: a ZX Spectrum ROM
 * (crt0 at 0, code from 0x100, data at 0x8000, padded to 16 KiB) or a Sprinter DSS program (crt0 at its load
 * address, code 0x20 after it, data at 0xA000). The build tasks, the demo and the unit-test builder all link so. Pure.
 */
import { MIN_LOAD } from './sprinter/open-rom.js';

export type SdccMachine = 'spectrum' | 'sprinter';

export const ZX_ROM_SIZE = 16384;
/** the Sprinter demo's and fixtures' load address */
export const DSS_LOAD = 0x8100;

/** Where crt0.s puts its absolute header (`.org`), 0 when it names none. */
export const crt0Origin = (text: string) => Number(/^\s*\.org\s+(0x[0-9a-f]+|\d+)\b/im.exec(text)?.[1] ?? 0);

/** A crt0 at 0 makes a ROM; one at a DSS load address (what the open ROM and DSS can load) a Sprinter program. */
export const sdccMachineFor = (origin: number): SdccMachine => (origin >= MIN_LOAD ? 'sprinter' : 'spectrum');

/** sdcc's link options for the machine's layout (`origin`: where crt0 sits, for a Sprinter program). */
export function sdccLinkLayout(machine: SdccMachine, origin = DSS_LOAD): string[] {
  return machine === 'sprinter'
    ? ['--code-loc', `0x${(origin + 0x20).toString(16)}`, '--data-loc', '0xA000']
    : ['--code-loc', '0x100', '--data-loc', '0x8000'];
}
