/**
 * "Who last wrote this?" for a DAP client (the Variables view's context command): the row's lvalue located in its
 * frame, the last write to its bytes found in the recorded history, and the session moved to just after it (the
 * stop that follows shows the writing line, in the past). The MCP tool last_write asks the same session functions.
 */
import { hex } from '../core/hex.js';
import { findLastWrite, granularityNote, timeTravel } from '../session/time-travel.js';
import type { ClientSession } from '../session/client-session.js';
import type { LastWriteReply } from './adapter-parts.js';

export async function lastWriteReply(
  me: ClientSession,
  row: { expression: string; frameIndex: number },
  /** the move to the write's moment (the adapter tells VS Code first) */
  travel: (cycle: number) => Promise<void>,
): Promise<LastWriteReply> {
  const { session } = me;
  const place = await session.locateLvalue(row.expression, row.frameIndex);
  const write = await findLastWrite(session, place.address, place.length);
  const frame = Math.floor(write.at / timeTravel(session).span().cyclesPerFrame);
  await travel(write.cycle);
  const w = write.location;
  const where = w ? `${w.function ? `${w.function}, ` : ''}${w.file}:${w.line}` : `PC ${hex(write.pc)}`;
  return {
    expression: row.expression,
    address: write.address,
    pc: write.pc,
    cycle: write.at,
    frame,
    old: write.old,
    value: write.value,
    writer: w && { file: w.file, path: w.path, line: w.line, function: w.function },
    message: `${row.expression} was last written ${write.old} → ${write.value} by ${where} (${hex(write.pc)}), frame ${frame}; the session is there now, in the past. ${granularityNote(session)}`,
  };
}
