/**
 * The text options decode_c64_text and define_c64_text share: encoding,
 * character set, exactly one framing, high-bit and control policies, caller
 * tokens and the rendering cap, plus reading the framed bytes from a source.
 */
import * as z from 'zod/v4';
import { badRequest } from '../../core/errors.js';
import { TABLE_SOURCE } from '../../machines/c64/petscii.js';
import {
  checkTextOptions,
  decodeText,
  type DecodedText,
  type Framing,
  type TextOptions,
} from '../../machines/c64/text-decode.js';
import { MAX_TOKEN_DEPTH, parseTokenMap } from '../../machines/c64/text-tokens.js';
import { MAX_SOURCE_BYTES, requireBytes, type PlannedSource } from './c64-source.js';

export const MAX_RECORDS = 4096;

export const encodingInputs = {
  encoding: z.enum(['petscii', 'screen']).default('petscii').describe('PETSCII (CHR$ codes) or screen codes'),
  charset: z
    .enum(['upper_graphics', 'lower_upper'])
    .default('upper_graphics')
    .describe('character set 1 (upper/graphics) or 2 (lower/upper)'),
};

export const textInputs = {
  ...encodingInputs,
  length: z.number().int().min(1).max(MAX_SOURCE_BYTES).optional().describe('framing: fixed text length'),
  terminator: z.number().int().min(0).max(255).optional().describe('framing: end byte (consumed, not text)'),
  prefix_size: z
    .union([z.literal(1), z.literal(2)])
    .optional()
    .describe('framing: little-endian length prefix of 1 or 2 bytes (consumed, not text)'),
  prefix_includes_itself: z.boolean().default(false).describe('the prefix counts its own bytes too'),
  max_bytes: z
    .number()
    .int()
    .min(1)
    .max(MAX_SOURCE_BYTES)
    .default(4096)
    .describe('how far to look for a terminator or prefixed text'),
  high_bit: z
    .enum(['exact', 'strip', 'annotate_reverse'])
    .default('exact')
    .describe('annotate_reverse (screen codes only) marks reverse video as {REV x}'),
  controls: z.enum(['names', 'escaped', 'unicode']).default('names').describe('controls as {CLR}, \\x93, or U+0093'),
  tokens: z.record(z.string(), z.string()).optional().describe('byte → replacement; keys "129" or "0x81"'),
  token_mode: z
    .enum(['single', 'recursive'])
    .default('single')
    .describe('recursive expands {81} references inside tokens'),
  token_depth: z.number().int().min(1).max(MAX_TOKEN_DEPTH).default(8),
  max_rendered_chars: z
    .number()
    .int()
    .min(1)
    .max(MAX_SOURCE_BYTES)
    .default(65536)
    .describe('rendering cap; exceeding it fails, never truncates'),
};

type TextArgs = z.infer<z.ZodObject<typeof textInputs>>;

export function framingOf(
  args: Pick<TextArgs, 'length' | 'terminator' | 'prefix_size' | 'prefix_includes_itself'>,
): Framing {
  const given = (['length', 'terminator', 'prefix_size'] as const).filter((k) => args[k] !== undefined);
  if (given.length !== 1) {
    throw badRequest(
      `Give exactly one framing of length, terminator or prefix_size (${given.length ? 'got ' + given.join(' and ') : 'got none'}).`,
      { given },
    );
  }
  if (args.length !== undefined) return { kind: 'length', length: args.length };
  if (args.terminator !== undefined) return { kind: 'terminator', terminator: args.terminator };
  return { kind: 'prefix', size: args.prefix_size!, includesItself: args.prefix_includes_itself };
}

export function textOptionsOf(args: TextArgs): TextOptions {
  return {
    encoding: args.encoding,
    charset: args.charset,
    highBit: args.high_bit,
    controls: args.controls,
    tokens: args.tokens ? parseTokenMap(args.tokens) : undefined,
    tokenMode: args.token_mode,
    tokenDepth: args.token_depth,
    maxRenderedChars: args.max_rendered_chars,
  };
}

/** Reads just the bytes the framing needs (a bounded window for terminator/prefix) and decodes them. */
export async function readAndDecode(
  source: PlannedSource,
  args: TextArgs,
): Promise<{ decoded: DecodedText; bytes: Uint8Array }> {
  const framing = framingOf(args);
  const opts = textOptionsOf(args);
  checkTextOptions(opts);
  let window: number;
  if (framing.kind === 'length') {
    requireBytes(source, framing.length);
    window = framing.length;
  } else window = Math.min(args.max_bytes, source.available);
  const bytes = await source.read(window);
  return { decoded: decodeText(bytes, framing, opts, MAX_RECORDS), bytes };
}

export const textOutput = {
  text: z.string().describe('display text (controls and tokens rendered as asked)'),
  lossless: z.string().describe('every text byte as a fragment such as {A:$41}, {CLR:$93}, {REV A:$81}'),
  consumed: z.number().int().describe('framing + text bytes'),
  consumed_bytes: z.string().describe('hex of every consumed byte, framing included'),
  text_offset: z.number().int(),
  text_length: z.number().int(),
  records: z
    .array(
      z.object({
        offset: z.number().int(),
        byte: z.number().int(),
        role: z.enum(['prefix', 'text', 'terminator']),
        kind: z.enum(['char', 'control', 'undefined', 'framing']),
        char: z.string().optional(),
        name: z.string().optional(),
        reverse: z.boolean().optional(),
        fragment: z.string().optional(),
      }),
    )
    .describe(`per-byte records (omitted past ${MAX_RECORDS} bytes)`),
  table_source: z.string(),
};

export function textData(decoded: DecodedText, bytes: Uint8Array) {
  return {
    text: decoded.text,
    lossless: decoded.lossless,
    consumed: decoded.consumed,
    consumed_bytes: Buffer.from(bytes.subarray(0, decoded.consumed)).toString('hex').toUpperCase(),
    text_offset: decoded.text_offset,
    text_length: decoded.text_length,
    records: decoded.records,
    table_source: TABLE_SOURCE,
  };
}
