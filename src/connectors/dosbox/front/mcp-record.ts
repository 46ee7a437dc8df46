/** Tool group `dos`, part 5: the emulator's own recorders (screenshot, video, audio). */
import * as z from 'zod/v4';
import { unsupported } from '../../../core/errors.js';
import { sessionIdInput } from '../../../mcp/schemas.js';
import { defineTool, type ToolDef } from '../../../mcp/tool-kit.js';
import type { DosMachine } from '../dos-machine.js';
import type { Recorders } from '../recorders.js';
import type { MediaInfo } from '../media-info.js';
import { outputPathInput, overwriteInput, saveFile, useDos } from './mcp-common.js';

export function recordersOf(machine: DosMachine): Recorders {
  const r = machine.backend.recorders;
  if (r) return r;
  throw unsupported(
    machine.backend.backend === 'wasm'
      ? 'This embedded emulator has no recorders.'
      : machine.backend.launched
        ? 'The recorders of a native DOSBox are driven by its hotkeys on its private display: launch it with isolation "xvfb" (with our conf). Nothing is ever pressed on your desktop.'
        : 'An attached DOSBox has no private display of ours to press its recorder hotkeys on (its window may be on your desktop, which is never touched): launch it with isolation "xvfb".',
  );
}

const record = defineTool({
  name: 'dosbox_record',
  title: "Record with the emulator's own recorders",
  description:
    "Run one of the emulator's built-in recorders and collect its file: screenshot (PNG), video (native DOSBox: ZMBV AVI) or audio (WAV), for duration_ms. " +
    'Native DOSBox: its hotkeys pressed through XTEST into its window on its private Xvfb display (isolation "xvfb"), the file taken from the capture folder of our conf. ' +
    "Embedded DOSBox-X: the library's own calls. dosbox_capabilities lists which recorders each backend has. " +
    'The file is written atomically to path (relative: under the output folder; default the emulator\'s own name under "recordings/"), never over an existing file unless overwrite.',
  input: {
    session_id: sessionIdInput,
    recorder: z.enum(['screenshot', 'video', 'audio']),
    duration_ms: z.number().int().min(100).max(60_000).default(2000).describe('video/audio: how long to record'),
    path: outputPathInput.optional(),
    overwrite: overwriteInput,
  },
  output: {
    recorder: z.string(),
    path: z.string(),
    bytes: z.number().int(),
    format: z.string().optional(),
    playable: z.boolean(),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    frames: z.number().int().optional(),
    fps: z.number().optional(),
    sample_rate: z.number().int().optional(),
    channels: z.number().int().optional(),
    duration_ms: z.number().int().optional().describe('length of the recording per its header'),
    elapsed_ms: z.number().int().describe('wall time between start and stop'),
    how: z.string(),
  },
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const { session, machine } = useDos(ctx, args.session_id);
    const recorders = recordersOf(machine);
    if (!recorders.kinds.includes(args.recorder))
      throw unsupported(
        `${machine.backend.description} has no ${args.recorder} recorder (it has: ${recorders.kinds.join(', ')}).`,
      );
    const rec = await recorders.record(args.recorder, args.duration_ms);
    const path = await saveFile(ctx, args.path ?? `recordings/${rec.name}`, rec.data, args.overwrite);
    const { format, ...info }: Partial<MediaInfo> = rec.info ?? {};
    return {
      session,
      data: {
        recorder: args.recorder,
        path,
        bytes: rec.data.length,
        format,
        playable: rec.info !== undefined,
        ...info,
        elapsed_ms: rec.elapsed_ms,
        how: recorders.how,
      },
      summary: `${args.recorder}: ${rec.data.length} bytes${info.duration_ms !== undefined ? `, ${info.duration_ms} ms` : ''} saved to ${path}`,
    };
  },
});

export const dosRecordTools: ToolDef[] = [record];
