/**
 * Trims what tools/list sends without changing what it means: zod marks every
 * integer with the safe-integer bounds (±2^53-1), which JSON numbers can not
 * exceed usefully anyway, and each schema repeats its "$schema" dialect. The
 * server still validates with the full zod schemas; clients only see less.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    out[key] = compact(value);
  }
  return out;
}

/** A tools/list response with compacted schemas; any other message unchanged. */
export function compactToolList(message: JSONRPCMessage): JSONRPCMessage {
  const result = (message as { result?: { tools?: unknown } }).result;
  if (!result || !Array.isArray(result.tools)) return message;
  const tools = result.tools.map((tool: Record<string, unknown>) => ({
    ...tool,
    inputSchema: compact(tool.inputSchema),
    ...(tool.outputSchema ? { outputSchema: compact(tool.outputSchema) } : {}),
  }));
  return { ...message, result: { ...result, tools } } as JSONRPCMessage;
}
