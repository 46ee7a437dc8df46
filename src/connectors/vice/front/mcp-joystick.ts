/** vice_joystick: the C64's joystick lines on port 1 or 2 (VICE's joyport I/O simulation device; vice-joystick.ts). */
import * as z from 'zod/v4';
import { JOYSTICK_FEATURE } from '../../../core/input-devices.js';
import { generationInput, sessionIdInput } from '../../../mcp/schemas.js';
import { defineTool, type ToolDef } from '../../../mcp/tool-kit.js';
import { boundVice } from './mcp-binding.js';
import { joystickLines } from '../vice-joystick.js';

const held = z.boolean().default(false);

export const viceJoystick: ToolDef = defineTool({
  name: 'vice_joystick',
  title: 'VICE: joystick',
  description:
    'Hold (true) or release the directions and fire of the joystick in C64 control port 1 or 2 until the next call; ' +
    "the first call on a port attaches VICE's joyport I/O simulation device there. Needs the lease.",
  input: {
    session_id: sessionIdInput,
    port: z.number().int().min(1).max(2).default(2),
    up: held,
    down: held,
    left: held,
    right: held,
    fire: held,
    generation: generationInput,
  },
  output: { port: z.number().int(), lines_hex: z.string().describe('as CIA 1 reads them, active low') },
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  async run(args, ctx) {
    const { session, client } = boundVice(ctx, args.session_id);
    const state = { up: args.up, down: args.down, left: args.left, right: args.right, fire: args.fire };
    await client.control(JOYSTICK_FEATURE, { generation: args.generation }, (j) => j.set(args.port, state));
    const lines = joystickLines(state);
    return {
      session,
      data: { port: args.port, lines_hex: lines.toString(16).padStart(2, '0') },
      summary: `Joystick port ${args.port}: lines $${lines.toString(16).toUpperCase()}`,
    };
  },
});
