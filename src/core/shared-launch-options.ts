/** Launch options more than one connector takes (MAME and VICE: extraArgs; VICE and the built-in C64: drive8), defined once. */
import * as z from 'zod/v4';

export const EXTRA_ARGS_OPTION = z
  .array(z.string())
  .max(32, { error: 'takes at most 32 arguments' })
  .optional()
  .describe("user-only: the emulator's own command-line arguments");

export const DRIVE8_OPTION = z.string().optional().describe('c64 device 8: folder or .d64');
