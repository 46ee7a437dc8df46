/**
 * The SDK checks a request's params against its schema before any handler runs and, when they do not fit (a
 * tools/call whose arguments are an array, a string, null …), answers -32603 "internal error" with zod's issues
 * as the text. That is the client's mistake, JSON-RPC's -32602: the reply is rewritten so, in one sentence.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const INTERNAL_ERROR = -32603;
const INVALID_PARAMS = -32602;

interface Issue {
  path?: unknown[];
  message?: string;
}

function paramIssues(text: string): Issue[] | undefined {
  if (!text.trimStart().startsWith('[')) return undefined;
  try {
    const issues = JSON.parse(text) as Issue[];
    return Array.isArray(issues) && issues.length && issues.every((i) => i.path?.[0] === 'params') ? issues : undefined;
  } catch {
    return undefined;
  }
}

export function asInvalidParams(message: JSONRPCMessage): JSONRPCMessage {
  const error = (message as { error?: { code: number; message: string } }).error;
  if (error?.code !== INTERNAL_ERROR) return message;
  const issues = paramIssues(error.message);
  if (!issues) return message;
  const said = issues.map((i) => `${i.path!.join('.')}: ${i.message ?? 'invalid'}`).join('; ');
  return { ...message, error: { code: INVALID_PARAMS, message: `Invalid params: ${said}.` } } as JSONRPCMessage;
}
