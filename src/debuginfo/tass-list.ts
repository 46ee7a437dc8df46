/**
 * 64tass's listing (`64tass --list=NAME.lst`, best with `--line-numbers`) → the common model (asm-listing.ts).
 * Rows are tab-separated: line number, `.ADDR` (code) or `>ADDR` (data), the bytes, the disassembly (code rows),
 * then the source text. `:N ;****** Processing … file: NAME` and `Return to file: NAME` switch files.
 * 64tass 1.58 leaves the line number empty for the main file's rows, so a row without one is placed by its source
 * text: the next line of that file, from the last placed one on, whose text is the same.
 * Labels starting with '_' are local; anonymous '+'/'-' labels are not names.
 */
import { badDebugInfo, tooLarge } from '../core/errors.js';
import type { DebugInfo } from './model.js';
import { debugInfoFromListing, splitStatement, type ListingRow } from './asm-listing.js';

const FILE_MARK = /^:\d+\t;\*+\s+(?:Processing (?:input )?file|Return to file): (.+)$/;
const ROW = /^(\d*)\t([.>])([0-9a-fA-F]+)\t((?:[0-9a-fA-F]{2} ?)*)\t(.*)$/;
const MAX_ROWS = 1_000_000;

/** Whether `text` is a 64tass listing (its first line says so). */
export function isTassListing(text: string): boolean {
  return /^\s*; 64tass Turbo Assembler/.test(text.slice(0, 200));
}

export interface TassOptions {
  fileName?: string;
  /** a source file's text, by the name the listing gives it (for rows without a line number) */
  readSource?: (file: string) => string | undefined;
}

const normal = (s: string) => s.trim().replace(/\s+/g, ' ');

/**
 * A file's lines, and the rows without a line number placed by their text, never going back: a row ends with its
 * source text (the columns before it are padded with tabs in ways that vary), so its line is the next one of the file
 * that is neither blank nor a comment and whose text ends the row.
 */
class SourceLines {
  private readonly files = new Map<string, { raw: string[]; norm: string[]; next: number } | null>();
  constructor(private readonly read: TassOptions['readSource']) {}

  private file(name: string) {
    let f = this.files.get(name);
    if (f === undefined) {
      const text = this.read?.(name);
      const raw = text?.split('\n').map((l) => l.replace(/\r$/, ''));
      f = raw ? { raw, norm: raw.map(normal), next: 0 } : null;
      this.files.set(name, f);
    }
    return f;
  }

  find(name: string, row: string): number | undefined {
    const f = this.file(name);
    if (!f) return undefined;
    const want = normal(row);
    // a repeated expansion (a loop, a macro) lists the same line again: the last placed one stays a candidate
    for (let i = Math.max(0, f.next - 1); i < f.norm.length; i++) {
      const text = f.norm[i];
      if (!text || text.startsWith(';') || !want.endsWith(text)) continue;
      f.next = i + 1;
      return i + 1;
    }
    return undefined;
  }

  /** The text of line `line` (1-based), and the file's position moved there. */
  text(name: string, line: number): string | undefined {
    const f = this.file(name);
    if (!f) return undefined;
    f.next = line;
    return f.raw[line - 1];
  }
}

export function parseTassListing(text: string, opts: TassOptions = {}): DebugInfo {
  const where = opts.fileName ?? 'the 64tass listing';
  const sources = new SourceLines(opts.readSource);
  const rows: ListingRow[] = [];
  const unplaced: number[] = [];
  let file: string | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].replace(/\r$/, '');
    const mark = FILE_MARK.exec(raw);
    if (mark) {
      file = mark[1];
      continue;
    }
    const m = ROW.exec(raw);
    if (!m) continue; // comments, headers, blank lines, source lines that made no bytes
    if (!file) throw badDebugInfo(`${where}:${i + 1}: a listed line before any "Processing … file" line.`);
    const bytes = (m[4].match(/[0-9a-f]{2}/gi) ?? []).map((b) => parseInt(b, 16));
    const line = m[1] ? Number(m[1]) : sources.find(file, m[5]);
    if (line === undefined) {
      unplaced.push(i + 1);
      continue;
    }
    // the source line itself (its label at column 0); the row's own text when the source is not at hand
    const source = sources.text(file, line) ?? m[5].replace(/^\t+/, '');
    const { label, instruction } = splitStatement(source, '_.');
    const isCode = m[2] === '.' && bytes.length > 0 && instruction;
    rows.push({
      file,
      line,
      address: parseInt(m[3], 16),
      bytes,
      code: isCode,
      ...(label ? { label } : {}),
    });
    if (rows.length > MAX_ROWS) throw tooLarge(`${where} has more than ${MAX_ROWS} rows.`);
  }
  const info = debugInfoFromListing('64tass-list', rows);
  if (!unplaced.length) return info;
  const shown = unplaced.slice(0, 5).join(', ');
  return {
    ...info,
    warnings: [
      `${where}: ${unplaced.length} listed lines (at ${shown}${unplaced.length > 5 ? ', …' : ''}) have no line ` +
        'number and their source was not found: assemble with --line-numbers, with the sources beside the listing.',
    ],
  };
}
