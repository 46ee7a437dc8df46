/**
 * Type checker: resolves names against an ExprScope and applies C's rules
 * (promotions, usual arithmetic conversions, array decay, pointer
 * arithmetic scaled by the pointee). Reads no memory, so `sizeof`, the
 * condition compilers and the evaluator share its result.
 */
import type { CType } from '../model.js';
import { sizeOf, typeName } from '../values.js';
import { isTypeName, type Expr, type TypeName } from './ast.js';
import {
  intType,
  isArithmetic,
  isInteger,
  isScalar,
  pointerTo,
  promote,
  scalarFromWords,
  usualArithmetic,
} from './c-types.js';
import { exprError } from './errors.js';
import type { ExprScope } from './scope.js';
import type { Typed } from './typed.js';

export function checkExpression(text: string, e: Expr, scope: ExprScope): Typed {
  return new Checker(text, scope).check(e);
}

/** Resolves a cast's type name; exported for front ends that take a type (e.g. a watch's view). */
export function resolveTypeName(text: string, t: TypeName, scope: ExprScope): CType {
  return new Checker(text, scope).typeOf(t);
}

class Checker {
  private readonly int: CType;

  constructor(
    private readonly text: string,
    private readonly scope: ExprScope,
  ) {
    this.int = intType(scope.target.intSize, true, scope.target);
  }

  private fail(at: number, reason: string, code: 'bad_request' | 'not_found' = 'bad_request'): never {
    throw exprError(this.text, at, reason, code);
  }

  private src(e: { at: number; end: number }): string {
    return this.text.slice(e.at, e.end);
  }

  check(e: Expr): Typed {
    const span = { at: e.at, end: e.end };
    switch (e.k) {
      case 'int':
        return { ...span, k: 'const', value: e.value, type: this.literalType(e), lvalue: false };
      case 'char':
        // a character constant has type int in C
        return { ...span, k: 'const', value: BigInt(e.value), type: this.int, lvalue: false };
      case 'float':
        return { ...span, k: 'const', value: e.value, type: this.scopeDouble(), lvalue: false };
      case 'string': {
        const bytes = Uint8Array.from([...e.value, 0]);
        const of: CType = { kind: 'char', signed: this.scope.target.charSigned, name: 'char' };
        const type: CType = { kind: 'array', length: bytes.length, of, name: `char[${bytes.length}]` };
        return { ...span, k: 'string', bytes, type, lvalue: false };
      }
      case 'ident': {
        const v = this.scope.variable(e.name);
        if (!v) {
          const hint = this.scope.registerBits(e.name) !== undefined ? `; the register is \`$${e.name}\`` : '';
          this.fail(e.at, `no variable \`${e.name}\` is visible here${hint}`, 'not_found');
        }
        return { ...span, k: 'var', variable: v, type: v.type, lvalue: true };
      }
      case 'register': {
        const bits = this.scope.registerBits(e.name);
        if (bits === undefined) this.fail(e.at, `the target has no register \`${e.name}\``, 'not_found');
        const size = bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
        return { ...span, k: 'register', name: e.name, type: intType(size, false, this.scope.target), lvalue: false };
      }
      case 'unary':
        return this.unary(e);
      case 'sizeof': {
        const t = isTypeName(e.operand) ? this.typeOf(e.operand) : this.check(e.operand).type;
        if (t.kind === 'void' || t.kind === 'function' || (t.kind === 'struct' && !t.fields.length && !t.size))
          this.fail(e.at, `sizeof is not defined for ${typeName(t)}`);
        const sizeT = intType(this.scope.target.intSize, false, this.scope.target);
        return { ...span, k: 'const', value: BigInt(sizeOf(t)), type: sizeT, lvalue: false };
      }
      case 'cast': {
        const to = this.typeOf(e.to);
        const of = this.value(this.check(e.operand));
        if (to.kind === 'void') return { ...span, k: 'convert', of, type: to, lvalue: false };
        if (!isScalar(to)) {
          if (to.kind === of.type.kind && to.name === of.type.name) return { ...of, ...span };
          this.fail(e.to.at, `cannot cast to ${typeName(to)}: only scalar and pointer types are cast targets`);
        }
        if (!isScalar(of.type)) this.fail(e.operand.at, `cannot cast ${typeName(of.type)} to ${typeName(to)}`);
        if (to.kind === 'float' && of.type.kind === 'pointer') this.fail(e.at, 'a pointer cannot be cast to a float');
        if (to.kind === 'pointer' && of.type.kind === 'float') this.fail(e.at, 'a float cannot be cast to a pointer');
        return { ...span, k: 'convert', of, type: to, lvalue: false };
      }
      case 'binary':
        return this.binary(e);
      case 'logical': {
        const left = this.condition(e.left);
        const right = this.condition(e.right);
        return { ...span, k: 'logical', op: e.op, left, right, type: this.int, lvalue: false };
      }
      case 'cond':
        return this.conditional(e);
      case 'index': {
        const base = this.value(this.check(e.base));
        const index = this.value(this.check(e.index));
        // C allows i[p] as well as p[i]
        const [p, i] = base.type.kind === 'pointer' ? [base, index] : [index, base];
        if (p.type.kind !== 'pointer')
          this.fail(e.base.at, `\`${this.src(e.base)}\` is not an array or a pointer (it is ${typeName(base.type)})`);
        if (!isInteger(i.type)) this.fail(e.index.at, `an array index must be an integer, not ${typeName(i.type)}`);
        const sum = this.pointerAdd(e, p, i, false);
        return this.deref(e, sum);
      }
      case 'member':
        return this.member(e);
    }
  }

  private scopeDouble(): CType {
    const size = this.scope.target.doubleSize;
    return { kind: 'float', size, name: 'double' };
  }

  /** C11 6.4.4.1: the first of int, unsigned (not for plain decimals), long, unsigned long, … that holds the value. */
  private literalType(e: Extract<Expr, { k: 'int' }>): CType {
    const t = this.scope.target;
    const sizes = [...new Set([t.intSize, t.longSize, 8] as const)].slice(e.long);
    for (const size of sizes) {
      const bits = BigInt(size * 8);
      if (!e.unsigned && e.value < 1n << (bits - 1n)) return intType(size, true, t);
      if ((e.unsigned || e.radix !== 10 || size === 8) && e.value < 1n << bits) return intType(size, false, t);
    }
    this.fail(e.at, `${this.src(e)} is too large for any integer type of this target`);
  }

  /** Arrays decay to a pointer to their first element, functions to a function pointer. */
  private value(t: Typed): Typed {
    if (t.type.kind === 'array') {
      const of = t.type.of;
      if (!t.lvalue && t.k !== 'string') this.fail(t.at, 'this array has no address on the target');
      if (t.k === 'string')
        this.fail(t.at, 'a string literal has no address on the target; compare characters instead');
      return { at: t.at, end: t.end, k: 'address', of: t, type: pointerTo(of, this.scope.target), lvalue: false };
    }
    if (t.type.kind === 'function') {
      return { at: t.at, end: t.end, k: 'address', of: t, type: pointerTo(t.type, this.scope.target), lvalue: false };
    }
    return t;
  }

  private to(t: Typed, type: CType): Typed {
    if (t.type === type || (t.type.kind === type.kind && typeName(t.type) === typeName(type))) return t;
    return { at: t.at, end: t.end, k: 'convert', of: t, type, lvalue: false };
  }

  private condition(e: Expr): Typed {
    const t = this.value(this.check(e));
    if (!isScalar(t.type))
      this.fail(e.at, `\`${this.src(e)}\` is ${typeName(t.type)}, not a value that can be true or false`);
    return t;
  }

  private unary(e: Extract<Expr, { k: 'unary' }>): Typed {
    const span = { at: e.at, end: e.end };
    if (e.op === '&') {
      const of = this.check(e.operand);
      if (!of.lvalue)
        this.fail(e.operand.at, `\`${this.src(e.operand)}\` has no address (it is not an object in memory)`);
      if (of.k === 'member' && of.field.bitWidth !== undefined)
        this.fail(e.operand.at, `\`${this.src(e.operand)}\` is a bit-field and has no address`);
      if (of.k === 'var' && of.variable.storage.kind === 'register')
        this.fail(
          e.operand.at,
          `\`${this.src(e.operand)}\` lives in registers ${of.variable.storage.registers.join(':')} and has no address`,
        );
      return { ...span, k: 'address', of, type: pointerTo(of.type, this.scope.target), lvalue: false };
    }
    const operand = this.value(this.check(e.operand));
    if (e.op === '*') {
      if (operand.type.kind !== 'pointer')
        this.fail(e.operand.at, `\`${this.src(e.operand)}\` is not a pointer (it is ${typeName(operand.type)})`);
      return this.deref(e, operand);
    }
    if (e.op === '!') {
      if (!isScalar(operand.type))
        this.fail(e.operand.at, `\`!\` needs a scalar operand, not ${typeName(operand.type)}`);
      return { ...span, k: 'unary', op: '!', operand, type: this.int, lvalue: false };
    }
    const ok = e.op === '~' ? isInteger(operand.type) : isArithmetic(operand.type);
    if (!ok)
      this.fail(
        e.operand.at,
        `\`${e.op}\` needs an ${e.op === '~' ? 'integer' : 'arithmetic'} operand, not ${typeName(operand.type)}`,
      );
    const type = promote(operand.type, this.scope.target);
    const promoted = this.to(operand, type);
    if (e.op === '+') return { ...promoted, ...span };
    return { ...span, k: 'unary', op: e.op, operand: promoted, type, lvalue: false };
  }

  private deref(e: Expr, pointer: Typed): Typed {
    const to = (pointer.type as Extract<CType, { kind: 'pointer' }>).to;
    if (to.kind === 'void')
      this.fail(e.at, `\`${this.src(e)}\` dereferences a void pointer; cast it first, as in *(unsigned char *)p`);
    return { at: e.at, end: e.end, k: 'deref', pointer, type: to, lvalue: to.kind !== 'function' };
  }

  private pointerAdd(e: Expr, pointer: Typed, offset: Typed, negate: boolean): Typed {
    const to = (pointer.type as Extract<CType, { kind: 'pointer' }>).to;
    const scale = sizeOf(to);
    if (to.kind === 'void' || to.kind === 'function' || scale === 0)
      this.fail(e.at, `pointer arithmetic needs a pointer to a sized object, not ${typeName(pointer.type)}`);
    const off = this.to(offset, promote(offset.type, this.scope.target));
    return {
      at: e.at,
      end: e.end,
      k: 'pointer_add',
      pointer,
      offset: off,
      negate,
      scale,
      type: pointer.type,
      lvalue: false,
    };
  }

  private member(e: Extract<Expr, { k: 'member' }>): Typed {
    let base = this.check(e.base);
    if (e.arrow) {
      base = this.value(base);
      if (base.type.kind !== 'pointer')
        this.fail(e.base.at, `\`${this.src(e.base)}\` is not a pointer (it is ${typeName(base.type)}); use \`.\``);
      base = this.deref(e.base, base);
    }
    const t = base.type;
    if (t.kind !== 'struct' && t.kind !== 'union') {
      const hint = t.kind === 'pointer' && (t.to.kind === 'struct' || t.to.kind === 'union') ? '; use `->`' : '';
      this.fail(e.base.at, `\`${this.src(e.base)}\` is not a struct or union (it is ${typeName(t)})${hint}`);
    }
    const field = t.fields.find((f) => f.name === e.name);
    if (!field) {
      const known = t.fields.length
        ? ` (members: ${t.fields.map((f) => f.name).join(', ')})`
        : ' (its members are not known)';
      this.fail(e.nameAt, `no member \`${e.name}\` in ${typeName(t)}${known}`, 'not_found');
    }
    return { at: e.at, end: e.end, k: 'member', base, field, type: field.type, lvalue: base.lvalue };
  }

  private binary(e: Extract<Expr, { k: 'binary' }>): Typed {
    const span = { at: e.at, end: e.end };
    const left = this.value(this.check(e.left));
    const right = this.value(this.check(e.right));
    const lt = left.type;
    const rt = right.type;
    const op = e.op;
    const bad = (need: string): never =>
      this.fail(e.opAt, `\`${op}\` needs ${need}, not ${typeName(lt)} and ${typeName(rt)}`);
    if (op === '+' || op === '-') {
      if (lt.kind === 'pointer' && isInteger(rt)) return this.pointerAdd(e, left, right, op === '-');
      if (op === '+' && rt.kind === 'pointer' && isInteger(lt)) return this.pointerAdd(e, right, left, false);
      if (op === '-' && lt.kind === 'pointer' && rt.kind === 'pointer') {
        if (typeName(lt.to) !== typeName(rt.to)) bad('pointers to the same type');
        const scale = sizeOf(lt.to);
        if (!scale) bad('pointers to sized objects');
        return { ...span, k: 'pointer_diff', left, right, scale, type: this.int, lvalue: false };
      }
    }
    if (['<', '>', '<=', '>=', '==', '!='].includes(op)) {
      const cmp = op as '<' | '>' | '<=' | '>=' | '==' | '!=';
      if (lt.kind === 'pointer' || rt.kind === 'pointer') {
        const ok = (lt.kind === 'pointer' || isInteger(lt)) && (rt.kind === 'pointer' || isInteger(rt));
        if (!ok) bad('pointers or integers');
        const ptr = lt.kind === 'pointer' ? lt : rt;
        return {
          ...span,
          k: 'compare',
          op: cmp,
          left: this.to(left, ptr),
          right: this.to(right, ptr),
          type: this.int,
          lvalue: false,
        };
      }
      if (!isArithmetic(lt) || !isArithmetic(rt)) bad('arithmetic operands');
      const common = usualArithmetic(lt, rt, this.scope.target);
      return {
        ...span,
        k: 'compare',
        op: cmp,
        left: this.to(left, common),
        right: this.to(right, common),
        type: this.int,
        lvalue: false,
      };
    }
    if (op === '<<' || op === '>>') {
      if (!isInteger(lt) || !isInteger(rt)) bad('integer operands');
      const type = promote(lt, this.scope.target);
      const count = this.to(right, promote(rt, this.scope.target));
      return { ...span, k: 'arith', op, opAt: e.opAt, left: this.to(left, type), right: count, type, lvalue: false };
    }
    const integerOnly = op === '%' || op === '&' || op === '|' || op === '^';
    if (integerOnly ? !isInteger(lt) || !isInteger(rt) : !isArithmetic(lt) || !isArithmetic(rt))
      bad(integerOnly ? 'integer operands' : 'arithmetic operands');
    const type = usualArithmetic(lt, rt, this.scope.target);
    return {
      ...span,
      k: 'arith',
      op,
      opAt: e.opAt,
      left: this.to(left, type),
      right: this.to(right, type),
      type,
      lvalue: false,
    };
  }

  private conditional(e: Extract<Expr, { k: 'cond' }>): Typed {
    const span = { at: e.at, end: e.end };
    const test = this.condition(e.test);
    const a = this.value(this.check(e.then));
    const b = this.value(this.check(e.else));
    let type: CType;
    if (isArithmetic(a.type) && isArithmetic(b.type)) type = usualArithmetic(a.type, b.type, this.scope.target);
    else if (a.type.kind === 'pointer' && (b.type.kind === 'pointer' || isInteger(b.type))) type = a.type;
    else if (b.type.kind === 'pointer' && isInteger(a.type)) type = b.type;
    else if (typeName(a.type) === typeName(b.type)) type = a.type;
    else
      this.fail(
        e.then.at,
        `the two results of \`?:\` have incompatible types ${typeName(a.type)} and ${typeName(b.type)}`,
      );
    return { ...span, k: 'cond', test, then: this.to(a, type), else: this.to(b, type), type, lvalue: false };
  }

  typeOf(t: TypeName): CType {
    let base: CType;
    if (t.base.kind === 'scalar') {
      const r = scalarFromWords(t.base.words, this.scope.target);
      if (typeof r === 'string') this.fail(t.at, `${r} is not a C type`);
      base = r;
    } else if (t.base.kind === 'tagged') {
      const found = this.scope.tagged(t.base.tag, t.base.name);
      if (!found) this.fail(t.at, `${t.base.tag} ${t.base.name} is not a type of this program`, 'not_found');
      base = found;
    } else {
      const found = this.scope.typedef(t.base.name);
      if (!found) this.fail(t.at, `${t.base.name} is not a type of this program`, 'not_found');
      base = found;
    }
    for (let i = 0; i < t.pointers; i++) base = pointerTo(base, this.scope.target);
    return base;
  }
}
