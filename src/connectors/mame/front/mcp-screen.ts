/** Tool group `mame`, screen pixels and machine-instruction stepping with a count. */
import * as z from 'zod/v4';
import { badRequest, tooLarge } from '../../../core/errors.js';
import { formatStop } from '../../../mcp/format.js';
import { runThenWait } from '../../../mcp/run-control.js';
import { generationInput, sessionIdInput, stopSchema } from '../../../mcp/schemas.js';
import { MUTATES, READ_ONLY, defineTool, type ToolDef } from '../../../mcp/tool-kit.js';

/** 1 MiB of RGBA at most (1.4 MB as base64). */
export const MAX_PIXELS = 262_144;
export const MAX_STEP_COUNT = 64;

const readScreenPixels = defineTool({
  name: 'read_screen_pixels',
  title: 'Read screen pixels',
  description:
    `Raw RGBA pixels (4 bytes a pixel, row-major, base64) of the screen or of a rectangle, at most ${MAX_PIXELS} pixels, ` +
    'with the frame number and maybe_stale (true while the CPU is stopped: the frame may predate the current state).',
  input: {
    session_id: sessionIdInput,
    x: z.number().int().min(0).default(0),
    y: z.number().int().min(0).default(0),
    width: z.number().int().min(1).optional(),
    height: z.number().int().min(1).optional(),
  },
  output: {
    format: z.literal('rgba8'),
    screen_width: z.number().int(),
    screen_height: z.number().int(),
    x: z.number().int(),
    y: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
    frame: z.number().int().optional(),
    maybe_stale: z.boolean(),
    pixels: z.string().describe('base64 RGBA'),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    const image = await session.screenshot();
    const width = args.width ?? image.width - args.x;
    const height = args.height ?? image.height - args.y;
    if (args.x + width > image.width || args.y + height > image.height || width < 1 || height < 1) {
      throw badRequest(
        `The rectangle ${args.x},${args.y} ${width}x${height} is outside the ${image.width}x${image.height} screen.`,
      );
    }
    if (width * height > MAX_PIXELS)
      throw tooLarge(`${width * height} pixels exceed the limit of ${MAX_PIXELS}; ask for a smaller rectangle.`, {
        limit: MAX_PIXELS,
      });
    const out = Buffer.alloc(width * height * 4);
    for (let row = 0; row < height; row++) {
      const from = ((args.y + row) * image.width + args.x) * 4;
      image.rgba.copy(out, row * width * 4, from, from + width * 4);
    }
    return {
      session,
      data: {
        format: 'rgba8' as const,
        screen_width: image.width,
        screen_height: image.height,
        x: args.x,
        y: args.y,
        width,
        height,
        frame: image.frame,
        maybe_stale: image.maybeStale,
        pixels: out.toString('base64'),
      },
      summary: `${width}x${height} pixels of frame ${image.frame ?? '?'}${image.maybeStale ? ' (may be stale: CPU stopped)' : ''}`,
    };
  },
});

const stepInstruction = defineTool({
  name: 'step_instruction',
  title: 'Step machine instructions',
  description: `Step 1..${MAX_STEP_COUNT} machine instructions (into calls), stopping early at a breakpoint or watchpoint. Needs the lease and a stopped CPU.`,
  input: {
    session_id: sessionIdInput,
    generation: generationInput,
    count: z.number().int().min(1).max(MAX_STEP_COUNT).default(1),
    timeout_ms: z.number().int().min(100).max(60_000).default(10_000),
  },
  output: { steps: z.number().int(), stop: stopSchema.optional(), timed_out: z.boolean() },
  annotations: MUTATES,
  async run(args, ctx) {
    const client = ctx.connection.use(args.session_id);
    const { session } = client;
    let steps = 0;
    let outcome;
    do {
      outcome = await runThenWait(
        client,
        () => client.stepInto('instruction', { generation: args.generation }),
        args.timeout_ms,
      );
      steps++;
    } while (
      steps < args.count &&
      !outcome.timed_out &&
      outcome.status.state === 'stopped' &&
      outcome.status.last_stop?.reason === 'step'
    );
    return {
      session,
      state: outcome.status.state,
      data: { steps, stop: formatStop(outcome.status), timed_out: outcome.timed_out },
    };
  },
});

export const mameScreenTools: ToolDef[] = [readScreenPixels, stepInstruction];
