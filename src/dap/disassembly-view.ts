/**
 * DAP `disassemble` for a CPU target: the session's decoded window with
 * bytes, symbols and C lines (so VS Code's Disassembly view interleaves the
 * source), padded to the count asked for with invalid rows where the
 * address space ends.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import { badRequest } from '../core/errors.js';
import { hex, hexBytes } from '../core/hex.js';
import type { DebugViewContext } from './debug-view.js';
import { parseCpuReference } from '../core/memory-reference.js';

/** VS Code skips rows at this address (its "invalid instruction returned by the adapter"). */
const NO_ADDRESS = '-1';

export async function disassembleBody(
  ctx: DebugViewContext,
  args: DebugProtocol.DisassembleArguments,
): Promise<DebugProtocol.DisassembleResponse['body']> {
  const count = args?.instructionCount;
  if (!Number.isInteger(count) || count < 0) throw badRequest('instructionCount must be a whole number ≥ 0.');
  const instructionOffset = args.instructionOffset ?? 0;
  if (!Number.isInteger(instructionOffset)) throw badRequest('instructionOffset must be a whole number.');
  const address = parseCpuReference(args.memoryReference, args.offset ?? 0).offset;
  if (count === 0) return { instructions: [] };
  const { lines, missingBefore } = await ctx.session.disassemble(address, instructionOffset, count);
  const invalid = (): DebugProtocol.DisassembledInstruction => ({
    address: NO_ADDRESS,
    instruction: '',
    presentationHint: 'invalid',
  });
  const instructions: DebugProtocol.DisassembledInstruction[] = Array.from({ length: missingBefore }, invalid);
  for (const line of lines) {
    const row: DebugProtocol.DisassembledInstruction = {
      address: hex(line.address),
      instructionBytes: hexBytes(Uint8Array.from(line.bytes)),
      instruction: line.text,
    };
    if (line.illegal && line.text === '??') row.presentationHint = 'invalid';
    if (line.symbol && args.resolveSymbols !== false) row.symbol = line.symbol;
    if (line.location) {
      row.location = ctx.sourceOf(line.location);
      row.line = line.location.line;
    }
    instructions.push(row);
  }
  while (instructions.length < count) instructions.push(invalid());
  return { instructions };
}
