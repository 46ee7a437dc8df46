/** The custom request retro/frameSource: whether a frame of the current stop has C source (else the Disassembly view). */
import { badRequest } from '../core/errors.js';
import type { FrameSourceReply } from './adapter-parts.js';
import type { DebugView } from './debug-view.js';

export async function frameSourceReply(view: DebugView, args: unknown): Promise<FrameSourceReply> {
  const frameId = (args as { frameId?: unknown } | undefined)?.frameId;
  if (typeof frameId !== 'number') throw badRequest('retro/frameSource needs a frameId.');
  const { stackFrames } = await view.stackTrace({ threadId: 1 });
  const frame = stackFrames.find((f) => f.id === frameId);
  return { hasSource: !!frame?.source, instructionPointerReference: frame?.instructionPointerReference };
}
