/**
 * The address a C64 program's BASIC stub SYSes to (`10 SYS 2061`), as RUN would start it: a PRG loaded at $0801
 * whose first line holds the SYS token ($9E) followed by a decimal address (spaces and a '(' allowed before it).
 * In core because the C64 launchers and the assembly-listing reader both need it, and debug info imports only core.
 */
export const BASIC_START = 0x0801;
const SYS_TOKEN = 0x9e;

/** `data`: the program's bytes from its load address on (no 2-byte header); undefined without such a line. */
export function basicSysAddress(data: Uint8Array, load: number): number | undefined {
  if (load !== BASIC_START) return undefined;
  const line = data.subarray(4, Math.min(data.length, 80)); // past the link and line number
  const sys = line.indexOf(SYS_TOKEN);
  if (sys < 0) return undefined;
  const m = /^[\s(]*(\d+)/.exec(String.fromCharCode(...line.subarray(sys + 1)));
  const value = m ? Number(m[1]) : NaN;
  return Number.isInteger(value) && value <= 0xffff ? value : undefined;
}
