/** vice_capture_screen: VICE's composited frame as an indexed PNG through VICE's own palette. */
import * as z from 'zod/v4';
import { encodeIndexedPng } from '../../../core/indexed-png.js';
import { writeOutputToolFile } from '../../../mcp/tool-files.js';
import { sessionIdInput } from '../../../mcp/schemas.js';
import { defineTool, type ToolDef } from '../../../mcp/tool-kit.js';
import { boundVice } from './mcp-binding.js';
import { cropIndexed } from '../../../core/frames.js';
import { drawnGeometry } from '../vice-capture.js';

export const viceCaptureScreen: ToolDef = defineTool({
  name: 'vice_capture_screen',
  title: 'VICE: capture the screen',
  description:
    'The composited frame (border and blanking included) as an indexed PNG mapped through the palette VICE reports. ' +
    'crop=true (default) keeps the inner screen rectangle (found from the border in the buffer: VICE reports it one row low); ' +
    'crop=false the whole debug buffer. maybe_stale is always true: the frame is what the VIC-II drew so far, so text written after ' +
    'the raster passed its line shows one frame later. Needs a stopped machine ' +
    '(vice_execute interrupt, capture, resume). VICE builds before r46020 (3.10 release included) overrun their buffer answering ' +
    'this and are refused. output_path is written atomically and never replaces a file unless overwrite=true.',
  input: {
    session_id: sessionIdInput,
    crop: z.boolean().default(true),
    output_path: z.string().min(1).max(500).optional().describe('where to save the PNG, relative to the output folder'),
    overwrite: z.boolean().default(false),
  },
  output: {
    width: z.number().int(),
    height: z.number().int(),
    cropped: z.boolean(),
    inner: z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int(), height: z.number().int() }),
    reported_inner_y: z.number().int().describe("VICE's own Y offset (one row below the picture on r46200)"),
    geometry_from: z.enum(['buffer', 'report']),
    maybe_stale: z.boolean(),
    palette_size: z.number().int(),
    used_indices: z.array(z.number().int()),
    distinct_index_count: z.number().int(),
    output_path: z.string().nullable(),
  },
  // reads the machine; a file it writes never overwrites without overwrite:true
  annotations: { readOnly: true, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const { session, vice } = boundVice(ctx, args.session_id);
    const frame = await vice.capture();
    const geometry = drawnGeometry(frame);
    const inner = geometry.inner;
    const width = args.crop ? inner.width : frame.width;
    const height = args.crop ? inner.height : frame.height;
    const pixels = args.crop ? cropIndexed(frame.pixels, frame.width, inner) : frame.pixels;
    const png = encodeIndexedPng({ width, height, pixels }, frame.palette);
    const outputPath = args.output_path
      ? await writeOutputToolFile(ctx, args.output_path, png.png, args.overwrite)
      : null;
    return {
      session,
      state: 'stopped',
      data: {
        width,
        height,
        cropped: args.crop,
        inner,
        reported_inner_y: frame.innerY,
        geometry_from: geometry.from,
        maybe_stale: true,
        palette_size: frame.palette.length,
        used_indices: png.used_indices,
        distinct_index_count: png.used_indices.length,
        output_path: outputPath,
      },
      image: { data: png.png.toString('base64'), mimeType: 'image/png' },
      summary: `${width}x${height} ${args.crop ? 'inner screen' : 'debug frame'}, ${png.used_indices.length} colours${outputPath ? `, saved to ${outputPath}` : ''}`,
    };
  },
});
