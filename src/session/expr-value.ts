/** An expression's result as the displayable value every front end shows. */
import type { VariableValue } from './types.js';
import { decodeValue, sizeOf } from '../debuginfo/values.js';
import type { ExprResult } from '../debuginfo/expr/index.js';

export function resultValue(name: string, r: ExprResult): VariableValue {
  let type = r.type;
  let note = '';
  if (type.kind === 'array' && r.bytes.length < sizeOf(type)) {
    // bigger than what is read at once: show the elements that were read
    const length = Math.floor(r.bytes.length / Math.max(1, sizeOf(type.of)));
    note = ` (first ${length} of ${type.length} elements read)`;
    type = { ...type, length };
  }
  const address = r.address !== undefined ? { space: 'cpu' as const, offset: r.address } : undefined;
  const out = decodeValue(name, type, r.bytes, address);
  out.type = r.type.name || out.type;
  if (note) out.value += note;
  return out;
}
