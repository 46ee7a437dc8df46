/** Tool group `screen`: the emulated display as a PNG, and typing on the machine's keyboard. */
import * as z from 'zod/v4';
import { encodePng } from '../../core/png.js';
import { writeOutputFile } from '../../core/files.js';
import { parseKeyText } from '../../core/keys.js';
import { tooLarge } from '../../core/errors.js';
import { generationInput, sessionIdInput } from '../schemas.js';
import { defineTool, type ToolDef } from '../tool-kit.js';

const screenshot = defineTool({
  name: 'screenshot',
  title: 'Screenshot',
  description: 'The emulated screen as PNG (maybe_stale: the CPU is stopped). With output_path also saved to a file.',
  input: {
    session_id: sessionIdInput,
    output_path: z.string().min(1).max(500).optional().describe('PNG file, relative to the output folder'),
    overwrite: z.boolean().default(false).describe('replace an existing file'),
  },
  output: {
    width: z.number().int(),
    height: z.number().int(),
    frame: z.number().int().optional(),
    maybe_stale: z.boolean(),
    png_bytes: z.number().int(),
    path: z.string().optional().describe('absolute path of the saved PNG'),
  },
  // reads the machine; a file it writes never overwrites without overwrite:true
  annotations: { readOnly: true, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    const image = await session.screenshot();
    const png = encodePng(image);
    const path = args.output_path
      ? await writeOutputFile(ctx.outputDir, args.output_path, png, args.overwrite)
      : undefined;
    return {
      session,
      data: {
        width: image.width,
        height: image.height,
        frame: image.frame,
        maybe_stale: image.maybeStale,
        png_bytes: png.length,
        path,
      },
      image: { data: png.toString('base64'), mimeType: 'image/png' },
      summary: `${image.width}x${image.height} screen${path ? `, saved to ${path}` : ''}${image.maybeStale ? ' (may be stale: CPU stopped)' : ''}`,
    };
  },
});

/** Enough for a command line or a short answer; longer input is a program's job, not a keyboard's. */
export const MAX_KEYS = 255;

const typeKeys = defineTool({
  name: 'type_keys',
  title: 'Type keys',
  description:
    'Type on the keyboard (needs the lease): text, and keys in braces: "RUN{RETURN}", "{F1}", "{SHIFT+A}", "{UP}"; "{{" is "{".',
  input: {
    session_id: sessionIdInput,
    text: z
      .string()
      .min(1)
      .max(4 * MAX_KEYS)
      .describe('C64 letters are its plain keys'),
    generation: generationInput,
  },
  output: {
    typed: z.number().int(),
    pending: z.boolean().describe('queued until the machine runs'),
    note: z.string().optional(),
  },
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const me = ctx.connection.use(args.session_id);
    const strokes = parseKeyText(args.text);
    if (strokes.length > MAX_KEYS)
      throw tooLarge(`At most ${MAX_KEYS} keys per call; ${strokes.length} were given.`, { limit: MAX_KEYS });
    const r = await me.typeKeys(strokes, { generation: args.generation });
    return {
      session: me.session,
      data: r,
      summary: `Typed ${r.typed} key(s)${r.pending ? ' (queued until the machine runs)' : ''}.${r.note ? ' ' + r.note : ''}`,
    };
  },
});

export const screenTools: ToolDef[] = [screenshot, typeKeys];
