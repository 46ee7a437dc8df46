/** The type checker's output: every node carries its C type; conversions are explicit. */
import type { CField, CType, Variable } from '../model.js';
import type { BinaryOp } from './ast.js';

export type Typed = { type: CType; at: number; end: number; lvalue: boolean } & (
  | { k: 'const'; value: bigint | number }
  | { k: 'string'; bytes: Uint8Array }
  | { k: 'var'; variable: Variable }
  | { k: 'register'; name: string }
  /** the object a pointer value points to */
  | { k: 'deref'; pointer: Typed }
  /** the address of an lvalue (also arrays decaying to a pointer to their first element) */
  | { k: 'address'; of: Typed }
  | { k: 'member'; base: Typed; field: CField }
  | { k: 'convert'; of: Typed }
  | { k: 'unary'; op: '-' | '~' | '!'; operand: Typed }
  /** integer or float arithmetic, both operands already converted to `type` */
  | { k: 'arith'; op: BinaryOp; opAt: number; left: Typed; right: Typed }
  /** pointer ± integer, scaled by the pointee's size */
  | { k: 'pointer_add'; pointer: Typed; offset: Typed; negate: boolean; scale: number }
  /** pointer − pointer, in elements */
  | { k: 'pointer_diff'; left: Typed; right: Typed; scale: number }
  /** comparison of operands converted to one type; result int 0/1 */
  | { k: 'compare'; op: '<' | '>' | '<=' | '>=' | '==' | '!='; left: Typed; right: Typed }
  | { k: 'logical'; op: '&&' | '||'; left: Typed; right: Typed }
  | { k: 'cond'; test: Typed; then: Typed; else: Typed }
);
