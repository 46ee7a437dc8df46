import { basename } from 'node:path';
import type { BreakpointInfo } from './types.js';

/** Where a breakpoint is, as people write it: `plot()`, `main.c:12`, `0x080D`, or `#id` when it has no place. */
export function breakpointPlace(b: BreakpointInfo): string {
  if (b.kind === 'function') return `${b.function}()`;
  if (b.file !== undefined && b.line !== undefined) return `${basename(b.file)}:${b.line}`;
  return b.address ? `0x${b.address.offset.toString(16).toUpperCase()}` : `#${b.id}`;
}
