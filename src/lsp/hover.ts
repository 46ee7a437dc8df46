/** The hardware hover: which token is under the cursor and what it means on the file's machine. */
import {
  hoverMarkdown,
  lookupFarAddress,
  lookupInterrupt,
  lookupName,
  lookupNumber,
  parseNumber,
  type HardwareInfo,
  type Machine,
} from './hardware-lookup.js';
import { cc65MemberAddress } from '../machines/c64/cc65-structs.js';
import type { ReadMemoryResult } from './protocol.js';
import { ahBefore, expandConstant, fileConstants, machineOf, soleNumber, tokenAt, wordAt } from './source-scan.js';

export interface HardwareHover {
  info: HardwareInfo;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

export function hardwareAt(
  languageId: string,
  text: string,
  line: number,
  character: number,
): HardwareHover | undefined {
  const lines = text.split('\n');
  const source = lines[line] ?? '';
  const machines = machineOf(languageId, text);
  const range = (start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });
  const token = tokenAt(source, character);
  if (token) {
    const before = source.slice(0, token.start);
    const value = parseNumber(token.text);
    if (value !== undefined && /\bint\s+$/i.test(before)) {
      const info = lookupInterrupt(value, ahBefore(lines, line));
      if (info) return { info, range: range(token.start, token.end) };
    }
    const far = lookupFarAddress(token.text);
    if (far) return { info: far, range: range(token.start, token.end) };
    const asPort = /\b(out|in)\b|__sfr|\bport\b/i.test(source);
    const byNumber = value === undefined ? undefined : first(machines, (m) => lookupNumber(m, value, asPort));
    if (byNumber) return { info: byNumber, range: range(token.start, token.end) };
    const byName = first(machines, (m) => lookupName(m, token.text));
    if (byName) return { info: byName, range: range(token.start, token.end) };
  }
  const word = wordAt(source, character);
  if (!word) return undefined;
  const expansion = expandConstant(word.text, fileConstants(text));
  if (expansion === undefined) return undefined;
  const member = cc65MemberAddress(expansion.replace(/^\(+|\)+$/g, ''));
  const number = member ?? parseNumber(soleNumber(expansion) ?? '');
  if (number === undefined) return undefined;
  const asPort = /__sfr/.test(lines.find((l) => new RegExp(`\\b${word.text}\\b`).test(l) && /__sfr/.test(l)) ?? '');
  const info = first(machines, (m) => lookupNumber(m, number, asPort));
  return (
    info && {
      info: { ...info, where: `${word.text} = ${expansion.trim()} → ${info.where}` },
      range: range(word.start, word.end),
    }
  );
}

function first<T>(machines: readonly Machine[], f: (m: Machine) => T | undefined): T | undefined {
  for (const m of machines) {
    const found = f(m);
    if (found) return found;
  }
  return undefined;
}

export function liveValueText(hover: HardwareHover, live: ReadMemoryResult): string {
  if (!live || !live.bytes.length) return hoverMarkdown(hover.info);
  const { bytes } = live;
  const value = bytes.length === 1 ? bytes[0] : bytes.reduce((acc, b, i) => acc + b * 2 ** (8 * i), 0);
  const shown =
    bytes.length <= 4
      ? `\`$${value
          .toString(16)
          .toUpperCase()
          .padStart(bytes.length * 2, '0')}\` = ${value}` +
        (bytes.length === 1 ? ` = %${value.toString(2).padStart(8, '0')}` : '')
      : bytes.map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
  return hoverMarkdown(hover.info, `Live value (session ${live.session}, ${live.state}): ${shown}`);
}
