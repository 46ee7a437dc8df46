/**
 * Session labels (symbol profiles, text definitions) as DAP values: a
 * "Labels" scope in the Variables view, and evaluate/hover on a label name.
 */
import type { Label } from '../session/labels.js';
import type { SessionApi, VariableValue } from '../session/types.js';
import { hex } from '../core/hex.js';

/** Labels listed in the scope at most (the rest are reachable by evaluate). */
export const MAX_SCOPE_LABELS = 2000;

export function labelValue(l: Label): VariableValue {
  const range = l.size > 1 ? `-${hex(l.address + l.size - 1, 4, '$')}` : '';
  return {
    name: l.name,
    type: 'label',
    value: `${hex(l.address, 4, '$')}${range}${l.comment ? ` ${l.comment}` : ''}`,
    numeric: l.address,
    address: { space: 'cpu', offset: l.address },
  };
}

/** The Labels scope's contents, or undefined when the session has none. */
export function labelScope(session: SessionApi): VariableValue[] | undefined {
  const labels = session.labels?.list() ?? [];
  return labels.length ? labels.slice(0, MAX_SCOPE_LABELS).map(labelValue) : undefined;
}

export function evaluateLabel(session: SessionApi, expression: string): VariableValue | undefined {
  const label = session.labels?.get(expression);
  return label ? labelValue(label) : undefined;
}
