/** Tool group `toy`: one tool that mutates through the toy's own feature, on the session's guarded path. */
import * as z from 'zod/v4';
import { MUTATES, defineTool, type ToolGroup } from '../../../../src/mcp/tool-kit.js';
import { sessionIdInput } from '../../../../src/mcp/schemas.js';
import { TOY_LAMP } from '../toy-target.js';

const toyLamp = defineTool({
  name: 'toy_lamp',
  title: 'Switch the toy lamp',
  description: 'Switch the toy machine lamp on or off (needs the control lease).',
  input: { session_id: sessionIdInput, on: z.boolean().describe('true: lamp on') },
  output: { lit: z.boolean() },
  annotations: MUTATES,
  async run({ session_id, on }, ctx) {
    const client = ctx.connection.use(session_id);
    const lit = await client.control(TOY_LAMP, {}, async (lamp) => {
      await lamp.set(on);
      return lamp.lit;
    });
    return { session: client.session, data: { lit }, summary: `The lamp is ${lit ? 'on' : 'off'}.` };
  },
});

export const toyToolGroup: ToolGroup = { name: 'toy', description: 'the toy machine lamp', tools: [toyLamp] };
