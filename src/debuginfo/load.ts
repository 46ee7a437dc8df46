/** Loads a debug-info file, choosing the parser by its extension. */
import { extname } from 'node:path';
import { RetroError, unsupported } from '../core/errors.js';
import { readRegularFileSync } from '../core/files.js';
import type { DebugInfo } from './model.js';
import { parseCdbWithWarnings } from './sdcc-cdb.js';
import { parseCc65Dbg } from './cc65-dbg.js';
import { labelsBeside, type NamedAddress } from './cc65-labels.js';
import { sourceLocator } from './source-near.js';
import { isAcmeReport, parseAcmeReport } from './acme-report.js';
import { isTassListing, parseTassListing } from './tass-list.js';
import { readSourceBeside } from './asm-sources.js';

/** Debug-info files larger than this are refused rather than read into memory. */
export const MAX_DEBUG_INFO_BYTES = 64 * 1024 * 1024;

/** Beside a program, in the order a session looks for them. */
export const DEBUG_INFO_EXTENSIONS = ['.cdb', '.dbg', '.rep', '.lst'];

/** `workspace`: a folder where the sources a .dbg names may also be found. */
export async function loadDebugInfo(path: string, opts: { workspace?: string } = {}): Promise<DebugInfo> {
  const ext = extname(path).toLowerCase();
  if (!DEBUG_INFO_EXTENSIONS.includes(ext)) {
    throw unsupported(
      `${path}: unknown debug-info format "${ext || '(no extension)'}"; expected an SDCC .cdb, a cc65 .dbg, ` +
        'an ACME report (.rep) or a 64tass listing (.lst).',
      { path },
    );
  }
  let text: string;
  try {
    // read in one go: the parse that follows holds the thread far longer, and four thread-pool round trips
    // (open, stat, read, close) cost more CPU than a small program's whole parse
    text = readRegularFileSync(path, { maxBytes: MAX_DEBUG_INFO_BYTES, what: 'debug-info file' }).toString('latin1');
  } catch (e) {
    const err = e as RetroError;
    throw new RetroError(err.code === 'too_large' ? 'too_large' : 'bad_debug_info', err.message, err.details);
  }
  if (ext === '.rep' || ext === '.lst') return parseAssemblerListing(path, text, opts.workspace);
  if (ext === '.dbg')
    return withRuntimeLabels(
      parseCc65Dbg(text, { fileName: path, locateSource: sourceLocator(path, opts.workspace) }),
      labelsBeside(path),
    );
  const { info, warnings } = parseCdbWithWarnings(text, { fileName: path });
  return warnings.length ? { ...info, warnings } : info;
}

/** The runtime's labels beside a cc65 program's own: an address or name the .dbg already has keeps its name. */
function withRuntimeLabels(info: DebugInfo, labels: NamedAddress[]): DebugInfo {
  const names = new Set(info.symbols.map((s) => s.name));
  const addresses = new Set([...info.symbols.map((s) => s.address), ...info.functions.map((f) => f.start)]);
  for (const l of labels)
    if (!names.has(l.name) && !addresses.has(l.address)) {
      info.symbols.push(l);
      names.add(l.name);
      addresses.add(l.address);
    }
  return info;
}

/** An assembler's listing, told apart by its content (a .lst may come from ca65 or sdas too). */
function parseAssemblerListing(path: string, text: string, workspace?: string): DebugInfo {
  if (isAcmeReport(text)) return parseAcmeReport(text, { fileName: path });
  if (isTassListing(text))
    return parseTassListing(text, { fileName: path, readSource: readSourceBeside(path, workspace) });
  throw unsupported(
    `${path} is neither an ACME report (acme -r) nor a 64tass listing (64tass --list); other listings carry no ` +
      "debug info this debugger reads: give the toolchain's debug-info file (cc65 .dbg, SDCC .cdb).",
    { path },
  );
}
