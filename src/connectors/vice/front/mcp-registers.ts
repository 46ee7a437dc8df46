/** vice_registers (read-only) and vice_set_registers: the main CPU's registers as VICE names them. */
import * as z from 'zod/v4';
import { notFound } from '../../../core/errors.js';
import { hex } from '../../../core/hex.js';
import { generationInput, sessionIdInput } from '../../../mcp/schemas.js';
import { READ_ONLY, WRITES, defineTool, type ToolOutcome } from '../../../mcp/tool-kit.js';
import type { SessionApi } from '../../../session/types.js';
import type { ViceFeature } from '../vice-feature.js';
import { VICE_FEATURE } from '../vice-target.js';
import { boundVice } from './mcp-binding.js';

const registersOutput = {
  registers: z.array(z.object({ name: z.string(), value: z.number().int(), hex: z.string(), bits: z.number().int() })),
};

async function registersOutcome(session: SessionApi, vice: ViceFeature) {
  const registers = (await vice.readRegisters()).map((r) => ({ ...r, hex: hex(r.value, Math.ceil(r.bits / 4)) }));
  return {
    session,
    data: { registers },
    summary: registers.map((r) => `${r.name}=${r.hex}`).join(' '),
  } satisfies ToolOutcome<unknown>;
}

export const viceRegisters = defineTool({
  name: 'vice_registers',
  title: 'VICE registers',
  description: 'Main-CPU registers as VICE names them (PC A X Y SP 00 01 FL LIN CYC).',
  input: { session_id: sessionIdInput },
  output: registersOutput,
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, vice } = boundVice(ctx, args.session_id);
    return registersOutcome(session, vice);
  },
});

export const viceSetRegisters = defineTool({
  name: 'vice_set_registers',
  title: 'Set VICE registers',
  description:
    'Write registers ({"A": 16, "PC": 2061}) and report them all (needs the lease and a stopped machine; 00/01 are memory: use vice_write_memory).',
  input: {
    session_id: sessionIdInput,
    set: z.record(z.string(), z.number().int().min(0).max(0xffff)),
    generation: generationInput,
  },
  output: registersOutput,
  annotations: WRITES,
  async run(args, ctx) {
    const { session, client, vice } = boundVice(ctx, args.session_id);
    const items = Object.entries(args.set).map(([name, value]) => {
      const reg = vice.info.registers.find((r) => r.name.toUpperCase() === name.toUpperCase());
      if (!reg)
        throw notFound(`VICE has no register ${name}; it has ${vice.info.registers.map((r) => r.name).join(', ')}.`);
      return { id: reg.id, value };
    });
    await client.control(VICE_FEATURE, { generation: args.generation, needs: 'stopped' }, (v) => v.setRegisters(items));
    return registersOutcome(session, vice);
  },
});
