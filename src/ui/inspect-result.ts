import type { Address } from '../core/target.js';

/** What the inspector says under the pointer (ui/screen-inspect.ts and the per-machine inspectors). */
export interface InspectResult {
  lines: string[];
  /** what a click opens in the memory view */
  address?: Address;
}
