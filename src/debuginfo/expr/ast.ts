/** Syntax tree of a C expression as written; `at`/`end` are offsets into the text. */

export interface Span {
  at: number;
  end: number;
}

/** A type name as in a cast or sizeof: `unsigned char *`, `struct point`, a typedef name. */
export interface TypeName extends Span {
  /** `struct`, `union`, `enum` with their tag, a typedef name, or the scalar keywords in order */
  base:
    | { kind: 'scalar'; words: string[] }
    | { kind: 'tagged'; tag: 'struct' | 'union' | 'enum'; name: string }
    | {
        kind: 'typedef';
        name: string;
      };
  pointers: number;
}

export type UnaryOp = '-' | '+' | '~' | '!' | '*' | '&';
export type BinaryOp =
  '*' | '/' | '%' | '+' | '-' | '<<' | '>>' | '<' | '>' | '<=' | '>=' | '==' | '!=' | '&' | '^' | '|';

export type Expr = Span &
  (
    | { k: 'int'; value: bigint; radix: 8 | 10 | 16; unsigned: boolean; long: 0 | 1 | 2 }
    | { k: 'float'; value: number }
    | { k: 'char'; value: number }
    | { k: 'string'; value: Uint8Array }
    | { k: 'ident'; name: string }
    | { k: 'register'; name: string }
    | { k: 'unary'; op: UnaryOp; operand: Expr }
    | { k: 'sizeof'; operand: Expr | TypeName }
    | { k: 'cast'; to: TypeName; operand: Expr }
    | { k: 'binary'; op: BinaryOp; opAt: number; left: Expr; right: Expr }
    | { k: 'logical'; op: '&&' | '||'; left: Expr; right: Expr }
    | { k: 'cond'; test: Expr; then: Expr; else: Expr }
    | { k: 'index'; base: Expr; index: Expr }
    | { k: 'member'; base: Expr; name: string; nameAt: number; arrow: boolean }
  );

export function isTypeName(x: Expr | TypeName): x is TypeName {
  return 'base' in x && 'pointers' in x;
}
