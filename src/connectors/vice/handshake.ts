/**
 * What a connected VICE offers, checked once on connect: version (VICE_INFO,
 * 3.6+), banks, main-CPU registers. An incompatible VICE is refused with one
 * error naming what is missing. Also decides whether display get is safe:
 * builds before r46020 (the 3.10 release included) overrun their buffer
 * while answering it, so they are refused by design; a 3.10 build that
 * reports SVN revision 0 is decided by the first display body's length.
 */
import { incompatibleTarget } from '../../core/errors.js';
import { MonitorErrorReply, type MonitorClient } from './monitor-client.js';
import { Cmd, decodeBanks, decodeRegisterNames, type RegisterName } from './protocol.js';

/** The revision that fixed display get's length and overrun. */
export const DISPLAY_FIX_REVISION = 46020;
const REQUIRED_REGISTERS = ['PC', 'A', 'X', 'Y', 'SP', 'FL'];
const REQUIRED_BANKS = ['cpu', 'ram'];

export type DisplaySupport =
  | { ok: true; reason: string }
  | { ok: false; reason: string }
  /** version 3.10 with SVN revision 0: decided by the first display body */
  | { ok: 'probe'; reason: string };

export interface ViceInfo {
  version: string;
  versionParts: number[];
  svnRevision: number;
  banks: { name: string; id: number }[];
  registers: RegisterName[];
  display: DisplaySupport;
}

export async function handshake(client: MonitorClient): Promise<ViceInfo> {
  await client.request(Cmd.PING);
  let infoBody: Buffer;
  try {
    infoBody = await client.request(Cmd.VICE_INFO);
  } catch (err) {
    if (err instanceof MonitorErrorReply && err.errorCode === 0x83) {
      throw incompatibleTarget(
        'This VICE does not know VICE_INFO (0x85), so it is older than 3.6; binary monitor API 2 of VICE 3.6 or later is needed.',
        { missing: 'VICE_INFO' },
      );
    }
    throw err;
  }
  if (infoBody.length < 10 || infoBody[0] < 4) {
    throw incompatibleTarget(`VICE_INFO answered ${infoBody.length} bytes, not the 10 of VICE 3.6+.`, {
      missing: 'VICE_INFO layout',
    });
  }
  const versionParts = [...infoBody.subarray(1, 5)];
  const svnRevision = infoBody.readUInt32LE(6);
  const banks = decodeBanks(await client.request(Cmd.BANKS_AVAILABLE));
  const registers = decodeRegisterNames(await client.request(Cmd.REGISTERS_AVAILABLE, Uint8Array.of(0)));
  const missingRegs = REQUIRED_REGISTERS.filter((n) => !registers.some((r) => r.name.toUpperCase() === n));
  const missingBanks = REQUIRED_BANKS.filter((n) => !banks.some((b) => b.name === n));
  if (missingRegs.length || missingBanks.length) {
    const what = [...missingRegs.map((r) => `register ${r}`), ...missingBanks.map((b) => `bank "${b}"`)].join(', ');
    throw incompatibleTarget(`This VICE's main CPU lacks ${what}; a C64 emulator (x64sc) is needed.`, {
      missing: [...missingRegs, ...missingBanks],
    });
  }
  const version = versionParts.slice(0, 3).join('.');
  return { version, versionParts, svnRevision, banks, registers, display: displaySupport(versionParts, svnRevision) };
}

export function displaySupport(v: number[], svn: number): DisplaySupport {
  const [major, minor] = v;
  const at = `VICE ${v.slice(0, 3).join('.')}${svn ? ` r${svn}` : ''}`;
  const newer = major > 3 || (major === 3 && minor > 10);
  if (newer) return { ok: true, reason: `${at} is newer than 3.10` };
  if (major === 3 && minor === 10) {
    if (svn >= DISPLAY_FIX_REVISION)
      return { ok: true, reason: `${at} includes the r${DISPLAY_FIX_REVISION} display-get fix` };
    if (svn > 0)
      return {
        ok: false,
        reason: `${at} predates r${DISPLAY_FIX_REVISION}: its display get overruns its buffer and drops 4 pixels`,
      };
    return { ok: 'probe', reason: `${at} reports no SVN revision; the display body length decides` };
  }
  return {
    ok: false,
    reason: `${at} predates r${DISPLAY_FIX_REVISION} (the 3.10 release included): its display get overruns its buffer and drops 4 pixels`,
  };
}
