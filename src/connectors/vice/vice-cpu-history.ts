/**
 * VICE's CPU history (CPUHISTORY_GET 0x86, VICE ≥ 3.10) as the CPU_HISTORY_FEATURE: the last instructions the
 * main CPU ran, read from VICE's ring (MonitorChisLines, 8192 by default, at least 50 700 entries shared with the
 * drives). The built-in C64 answers the same request from its recorded history. Errors say which peer lacks it.
 */
import { incompatibleTarget, unsupported, badRequest } from '../../core/errors.js';
import type { CpuHistory, ExecutedInstruction } from '../../core/cpu-history.js';
import { MonitorErrorReply, type MonitorClient } from './monitor-client.js';
import { Cmd, decodeCpuHistory } from './protocol.js';
import { peerName } from './vice-feature.js';
import { u32 } from './vice-requests.js';

/** VICE reads the requested count into 16 bits: 65 536 would become 0 (refused) */
export const MAX_CPU_HISTORY = 0xffff;

/** One CPUHISTORY_GET of the main CPU (memspace 0); the caller has the machine stopped (VICE stops for it anyway). */
export async function readCpuHistory(
  client: MonitorClient,
  connector: string,
  version: string,
  count: number,
): Promise<ExecutedInstruction[]> {
  if (!Number.isInteger(count) || count < 1 || count > MAX_CPU_HISTORY)
    throw badRequest(`count must be 1-${MAX_CPU_HISTORY} (VICE reads it as 16 bits), not ${count}.`, { count });
  let body: Buffer;
  try {
    body = await client.request(Cmd.CPUHISTORY_GET, Buffer.concat([Buffer.of(0), u32(count)]));
  } catch (err) {
    if (!(err instanceof MonitorErrorReply)) throw err;
    if (err.errorCode === 0x83)
      throw unsupported(
        `VICE ${version} has no CPU history command: CPUHISTORY_GET (0x86) came with VICE 3.10 (svn r45561). Use VICE 3.10 or later, or the built-in C64 (emulator "builtin").`,
        { vice_error: err.errorCode, version },
      );
    if (err.errorCode === 0x8f)
      throw unsupported(
        connector === 'builtin'
          ? 'The built-in C64 keeps no history in this session (history.seconds or history.maxMegabytes is 0 in the launch options), so it has no recent instructions to show.'
          : `This VICE ${version} was built without the CPU history (configure --disable-cpuhistory): it answers CPUHISTORY_GET with "command failed". Use a build with it (the default).`,
        { vice_error: err.errorCode, version },
      );
    throw err;
  }
  try {
    return decodeCpuHistory(body);
  } catch (err) {
    throw incompatibleTarget(
      `${peerName(connector)}'s CPU history reply does not have VICE 3.10's layout: ${(err as Error).message}.`,
    );
  }
}

/** The feature over one connection: each read stops a running machine unseen, as other reads do. */
export class ViceCpuHistory implements CpuHistory {
  constructor(
    private readonly read: (count: number) => Promise<ExecutedInstruction[]>,
    connector: string,
  ) {
    this.source =
      connector === 'builtin'
        ? "the built-in C64's recorded history (back to its oldest snapshot), served as VICE's CPU history"
        : "VICE's CPU history (its MonitorChisLines ring; VICE 3.10 or later)";
  }

  readonly source: string;

  recent(count: number): Promise<ExecutedInstruction[]> {
    return this.read(count);
  }
}
