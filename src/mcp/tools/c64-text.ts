/**
 * C64 text tools: decode_c64_text and search_c64_text (group c64_static, any
 * byte source) and define_c64_text (group c64: labels a region of a live
 * session with its decoded text; dry run by default).
 */
import * as z from 'zod/v4';
import { badRequest } from '../../core/errors.js';
import { searchBytes, searchCodePoints } from '../../machines/c64/text-search.js';
import { parseAddress, parseHex } from '../format.js';
import { generationInput, sessionIdInput } from '../schemas.js';
import { READ_ONLY, defineTool, type ToolDef } from '../tool-kit.js';
import { MAX_SOURCE_BYTES, byteSourceInput, planSources, requireBytes } from './c64-source.js';
import { encodingInputs, readAndDecode, textData, textInputs, textOutput } from './c64-text-input.js';
import { applyLabels, conflictInputs, labelPlanOutput } from './c64-labels.js';
import { hex } from '../../core/hex.js';

const SEARCH_DEFAULT_BYTES = 64 * 1024;
const SEARCH_DEFAULT_RESULTS = 100;
const SEARCH_MAX_RESULTS = 1000;

const decodeC64Text = defineTool({
  name: 'decode_c64_text',
  title: 'Decode C64 text',
  description:
    'Decode PETSCII or screen codes from a byte source (inline hex, file, or session memory with its bank). ' +
    'Exactly one framing: length, terminator, or prefix_size. Returns display text, a lossless fragment string and per-byte records.',
  input: { source: byteSourceInput, ...textInputs, session_id: sessionIdInput },
  output: textOutput,
  annotations: READ_ONLY,
  async run(args, ctx) {
    const plan = await planSources(ctx, { source: args.source }, { sessionId: args.session_id });
    const { decoded, bytes } = await readAndDecode(plan.sources.source, args);
    return {
      session: plan.session,
      data: textData(decoded, bytes),
      summary: `${decoded.text_length} text bytes: ${JSON.stringify(decoded.text.slice(0, 200))}`,
    };
  },
});

const searchC64Text = defineTool({
  name: 'search_c64_text',
  title: 'Search C64 text',
  description:
    `Find exact raw bytes (bytes, hex) or exact decoded text (text, matched per code point; controls match nothing) in a byte source. ` +
    `Searches length bytes (default ${SEARCH_DEFAULT_BYTES} or to the source end, cap ${MAX_SOURCE_BYTES}); max_results default ${SEARCH_DEFAULT_RESULTS}, cap ${SEARCH_MAX_RESULTS}.`,
  input: {
    source: byteSourceInput,
    bytes: z.string().optional().describe('raw bytes to find, hex'),
    text: z.string().max(256).optional().describe('decoded text to find'),
    ...encodingInputs,
    high_bit: z.enum(['exact', 'strip']).default('exact'),
    length: z.number().int().min(1).max(MAX_SOURCE_BYTES).optional(),
    max_results: z.number().int().min(1).max(SEARCH_MAX_RESULTS).default(SEARCH_DEFAULT_RESULTS),
    session_id: sessionIdInput,
  },
  output: {
    matches: z.array(
      z.object({ offset: z.number().int(), address: z.number().int().optional(), address_hex: z.string().optional() }),
    ),
    more: z.boolean().describe('true when max_results stopped the search'),
    searched: z.number().int(),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    if ((args.bytes === undefined) === (args.text === undefined))
      throw badRequest('Give exactly one of bytes (hex) or text.');
    const needle = args.bytes !== undefined ? parseHex(args.bytes) : undefined;
    if (needle?.length === 0 || args.text === '') throw badRequest('The search pattern is empty.');
    const plan = await planSources(ctx, { source: args.source }, { sessionId: args.session_id });
    const source = plan.sources.source;
    const length = args.length ?? Math.min(SEARCH_DEFAULT_BYTES, source.available);
    requireBytes(source, length);
    const haystack = await source.read(length);
    const found = needle
      ? searchBytes(haystack, needle, args.max_results)
      : searchCodePoints(
          haystack,
          args.text!,
          { encoding: args.encoding, charset: args.charset, highBit: args.high_bit },
          args.max_results,
        );
    const base = args.source.kind === 'memory' ? parseAddress(args.source.address).offset : undefined;
    const matches = found.hits.map((offset) =>
      base === undefined ? { offset } : { offset, address: base + offset, address_hex: hex(base + offset) },
    );
    return {
      session: plan.session,
      data: { matches, more: found.more, searched: length },
      summary: `${matches.length}${found.more ? '+' : ''} matches in ${length} bytes${
        matches.length
          ? ': ' +
            matches
              .slice(0, 10)
              .map((m) => m.address_hex ?? m.offset)
              .join(', ')
          : ''
      }`,
    };
  },
});

const defineC64Text = defineTool({
  name: 'define_c64_text',
  title: 'Define C64 text',
  description:
    "Decode text in a session's memory, then label that region (name, size = consumed bytes, comment = the decoded text) in the session's labels. " +
    'dry_run (default true) only reports the plan; conflict_policy error (default), skip or replace.',
  input: {
    address: z.union([z.number().int(), z.string()]).describe('start of the text, 0-$FFFF'),
    bank: z.union([z.string().min(1).max(32), z.number().int()]).describe('memory bank to read (required)'),
    name: z.string().max(64).optional().describe('label name; default TEXT_<address>'),
    ...textInputs,
    ...conflictInputs,
    session_id: sessionIdInput,
    generation: generationInput,
  },
  output: { ...textOutput, ...labelPlanOutput },
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  async run(args, ctx) {
    if (args.generation !== undefined) ctx.connection.use(args.session_id).session.assertGeneration(args.generation);
    const plan = await planSources(
      ctx,
      { source: { kind: 'memory', bank: args.bank, address: args.address } },
      { sessionId: args.session_id },
    );
    const session = plan.session!;
    const { decoded, bytes } = await readAndDecode(plan.sources.source, args);
    const address = parseAddress(args.address).offset;
    const name = args.name ?? `TEXT_${address.toString(16).toUpperCase().padStart(4, '0')}`;
    const comment = `${args.encoding} ${args.charset} text: ${JSON.stringify(decoded.text.slice(0, 500))}`;
    const labelPlan = applyLabels(
      session,
      [{ name, address, size: decoded.consumed, comment, source: 'define_c64_text' }],
      args,
    );
    return {
      session,
      data: { ...textData(decoded, bytes), ...labelPlan.data },
      summary: `${labelPlan.summary}; ${name} = ${hex(address)} (${decoded.consumed} bytes): ${JSON.stringify(decoded.text.slice(0, 100))}`,
    };
  },
});

export const c64TextStaticTools: ToolDef[] = [decodeC64Text, searchC64Text];
export const c64TextLiveTools: ToolDef[] = [defineC64Text];
