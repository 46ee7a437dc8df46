/** Tool group `dos`, part 2: guest memory — read, write, search, dump a segment, watch values over time. */
import { searchBytes } from '../../../core/byte-search.js';
import { sleep } from '../../../core/async.js';
import * as z from 'zod/v4';
import { badRequest, tooLarge, notFound } from '../../../core/errors.js';
import { formatSymbol } from '../dos-machine.js';
import { DOS_FEATURE } from '../dosbox-target.js';
import { asciiPreview, parseHex } from '../../../mcp/format.js';
import { generationInput, sessionIdInput } from '../../../mcp/schemas.js';
import { READ_ONLY, WRITES, defineTool, type ToolDef } from '../../../mcp/tool-kit.js';
import {
  dosAddressInput,
  hexOf,
  outputPathInput,
  overwriteInput,
  resolvedOut,
  resolvedSchema,
  saveFile,
  useDos,
} from './mcp-common.js';
import { hex } from '../../../core/hex.js';

const MAX_READ = 65536;
const MAX_WRITE = 4096;
const MAX_SEARCH_HITS = 64;
const MAX_SAMPLES = 1000;
const MAX_WATCH_MS = 60_000;

const read = defineTool({
  name: 'dosbox_read',
  title: 'Read guest memory',
  description: `Read up to ${MAX_READ} bytes of guest memory. address: physical, "SSSS:OOOO", "ds:OOOO" or a profile symbol (length defaults to the symbol's size).`,
  input: {
    session_id: sessionIdInput,
    address: dosAddressInput,
    length: z.number().int().min(1).max(MAX_READ).optional(),
  },
  output: {
    address: resolvedSchema,
    length: z.number().int(),
    hex: z.string(),
    ascii: z.string(),
    value: z.string().optional(),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, machine } = useDos(ctx, args.session_id);
    const at = machine.resolve(args.address);
    const length = args.length ?? at.size ?? 16;
    const bytes = await machine.guest.read(at.physical, length);
    const sym = at.symbol && !args.length ? machine.profile!.symbols[at.symbol] : undefined;
    const value = sym ? formatSymbol(sym, bytes).value : undefined;
    return {
      session,
      data: { address: resolvedOut(at), length, hex: hexOf(bytes), ascii: asciiPreview(bytes), value },
      summary: `${length} bytes at ${at.label}${at.symbol ? ` (${at.symbol}${value ? ' = ' + value : ''})` : ''}`,
    };
  },
});

const write = defineTool({
  name: 'dosbox_write',
  title: 'Write guest memory',
  description: `Write up to ${MAX_WRITE} bytes (hex, or value for a numeric symbol) into the running guest (needs the control lease), then read back. Writes are not undone; the program may recompute the field right after.`,
  input: {
    session_id: sessionIdInput,
    address: dosAddressInput,
    hex: z.string().optional().describe('bytes as hex pairs'),
    value: z.number().int().optional().describe('little-endian value, sized by the symbol (or 1 byte)'),
    generation: generationInput,
  },
  output: {
    address: resolvedSchema,
    written: z.number().int(),
    before: z.string(),
    read_back: z.string(),
    verified: z.boolean(),
  },
  annotations: WRITES,
  async run(args, ctx) {
    const { session, client, machine } = useDos(ctx, args.session_id);
    const at = machine.resolve(args.address);
    let data: Uint8Array;
    if (args.hex !== undefined) data = parseHex(args.hex);
    else if (args.value !== undefined) {
      const size = at.size ?? 1;
      if (size > 4) throw badRequest(`value fits symbols of 1, 2 or 4 bytes; ${at.symbol} has ${size}: give hex.`);
      data = Uint8Array.from({ length: size }, (_, i) => (args.value! >>> (8 * i)) & 0xff);
    } else throw badRequest('Give hex or value.');
    if (data.length > MAX_WRITE) throw tooLarge(`At most ${MAX_WRITE} bytes per write.`);
    const written = data;
    const { before, back } = await client.control(DOS_FEATURE, { generation: args.generation }, async (m) => {
      const before = await m.guest.read(at.physical, written.length);
      await m.guest.write(at.physical, written);
      return { before, back: await m.guest.read(at.physical, written.length) };
    });
    const verified = Buffer.from(back).equals(Buffer.from(data));
    return {
      session,
      data: { address: resolvedOut(at), written: data.length, before: hexOf(before), read_back: hexOf(back), verified },
      summary: `Wrote ${data.length} bytes at ${at.label}; ${verified ? 'read back matches' : 'read back DIFFERS (the program rewrote it)'}.`,
    };
  },
});

const search = defineTool({
  name: 'dosbox_search_memory',
  title: 'Search guest memory',
  description:
    'Find text (case-sensitive, as bytes) or hex bytes in guest memory (default: all 1 MiB + HMA, or one segment). Hits name segment:offset relative to the loaded program that holds them.',
  input: {
    session_id: sessionIdInput,
    text: z.string().min(1).max(256).optional(),
    hex: z.string().optional(),
    segment: z.string().optional().describe('limit to 64 KB from this segment (hex)'),
  },
  output: {
    hits: z.array(z.object({ physical: z.number().int(), address: z.string(), program: z.string().optional() })),
    truncated: z.boolean(),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, machine } = useDos(ctx, args.session_id);
    if (!args.text === !args.hex) throw badRequest('Give either text or hex.');
    const needle = Buffer.from(args.text !== undefined ? Buffer.from(args.text, 'latin1') : parseHex(args.hex!));
    const start = args.segment ? parseInt(args.segment, 16) * 16 : 0;
    const length = args.segment ? 0x10000 : 0x10fff0;
    const hay = Buffer.from(await machine.guest.read(start, Math.min(length, 0x10fff0 - start)));
    const { programs } = await machine.guest
      .programMap()
      .catch(() => ({ programs: [] as { psp: number; bytes: number; name: string }[] }));
    const found = searchBytes(hay, needle, MAX_SEARCH_HITS);
    const hits = [];
    for (const i of found.hits) {
      const phys = start + i;
      const owner = programs.find((p) => phys >= p.psp * 16 && phys < p.psp * 16 + p.bytes);
      const seg = owner ? owner.psp : args.segment ? parseInt(args.segment, 16) : phys >> 4;
      hits.push({ physical: phys, address: `${hex(seg, 4, '')}:${hex(phys - seg * 16, 4, '')}`, program: owner?.name });
    }
    return {
      session,
      data: { hits, truncated: found.more },
      summary: hits.length
        ? hits.map((h) => `${h.address}${h.program ? ' (' + h.program + ')' : ''}`).join(', ')
        : 'not found',
    };
  },
});

const dump = defineTool({
  name: 'dosbox_dump_segment',
  title: 'Dump a segment to a file',
  description:
    'Write 64 KB (or length bytes) from a segment to a file (relative paths resolve under the output folder; atomic; no overwrite unless overwrite). A dump is where profile markers are cut from.',
  input: {
    session_id: sessionIdInput,
    segment: z.string().describe('hex segment, e.g. "2456", or "ds"'),
    length: z.number().int().min(1).max(0x10000).default(0x10000),
    path: outputPathInput,
    overwrite: overwriteInput,
  },
  output: { path: z.string(), segment: z.string(), bytes: z.number().int() },
  // reads the guest; the file it writes is new (no overwrite unless asked), as the capture tools' PNGs
  annotations: { readOnly: true, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const { session, machine } = useDos(ctx, args.session_id);
    const seg = machine.resolve(
      args.segment.toLowerCase() === 'ds' ? 'ds:0' : `${args.segment.replace(/^0x/i, '')}:0`,
    ).segment!;
    const bytes = await machine.guest.read(seg * 16, Math.min(args.length, 0x10fff0 - seg * 16));
    const path = await saveFile(ctx, args.path, bytes, args.overwrite);
    return {
      session,
      data: { path, segment: hex(seg, 4, ''), bytes: bytes.length },
      summary: `${bytes.length} bytes of segment ${hex(seg, 4, '')} written to ${path}`,
    };
  },
});

const watch = defineTool({
  name: 'dosbox_watch',
  title: 'Sample values over time',
  description:
    'Sample addresses (or a profile watch set) every interval_ms for duration_ms; returns the distinct values seen with the time of each change.',
  input: {
    session_id: sessionIdInput,
    addresses: z.array(dosAddressInput).max(32).optional(),
    watch_set: z.string().optional(),
    length: z.number().int().min(1).max(64).default(2).describe('bytes per plain address'),
    interval_ms: z.number().int().min(1).max(10_000).default(20),
    duration_ms: z.number().int().min(1).max(MAX_WATCH_MS).default(1000),
  },
  output: {
    series: z.array(
      z.object({
        name: z.string(),
        changes: z.array(z.object({ t_ms: z.number(), hex: z.string(), value: z.string().optional() })),
      }),
    ),
    samples: z.number().int(),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, machine } = useDos(ctx, args.session_id);
    const names = args.watch_set ? machine.profile?.watchSets[args.watch_set] : undefined;
    if (args.watch_set && !names) throw notFound(`No watch set "${args.watch_set}" in the loaded profile.`);
    const inputs = [...(names ?? []), ...(args.addresses ?? [])];
    if (!inputs.length) throw badRequest('Give addresses or watch_set.');
    const targets = inputs.map((a) => {
      const r = machine.resolve(a);
      return {
        r,
        name: r.symbol ?? r.label,
        length: r.size ?? args.length,
        sym: r.symbol ? machine.profile!.symbols[r.symbol] : undefined,
      };
    });
    const series = targets.map((t) => ({
      name: t.name,
      changes: [] as { t_ms: number; hex: string; value?: string }[],
    }));
    const t0 = Date.now();
    let samples = 0;
    while (samples < MAX_SAMPLES) {
      for (let i = 0; i < targets.length; i++) {
        const bytes = await machine.guest.read(targets[i].r.physical, targets[i].length);
        const h = hexOf(bytes);
        if (series[i].changes.at(-1)?.hex !== h)
          series[i].changes.push({
            t_ms: Date.now() - t0,
            hex: h,
            value: targets[i].sym ? formatSymbol(targets[i].sym!, bytes).value : undefined,
          });
      }
      samples++;
      if (Date.now() - t0 + args.interval_ms > args.duration_ms) break;
      await sleep(args.interval_ms);
    }
    return {
      session,
      data: { series, samples },
      summary: series.map((s) => `${s.name}: ${s.changes.map((c) => c.value ?? c.hex).join(' → ')}`).join('\n'),
    };
  },
});

export const dosMemoryTools: ToolDef[] = [read, write, search, dump, watch];
