/**
 * Typed C values from the session → DAP variables, with the memory
 * references of their addresses (core/memory-reference.ts reads them back).
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Address } from '../core/target.js';
import type { ScopeName, VariableValue } from '../session/types.js';
import { hex } from '../core/hex.js';
import { badRequest, notFound, unsupported } from '../core/errors.js';
import { frameIndexOf } from './adapter-parts.js';

/** What a variablesReference stands for; handles are dropped whenever the CPU moves. */
export type VariableContainer =
  | { kind: 'scope'; scope: ScopeName; frameIndex: number }
  /** `parent`: the C expression of the value these are the fields/elements of */
  | { kind: 'children'; children: VariableValue[]; parent?: string };

/** Hands out variablesReference numbers; `reset()` on every run/stop. */
export class VariableHandles {
  private next = 1;
  private readonly map = new Map<number, VariableContainer>();

  create(container: VariableContainer): number {
    const ref = this.next++;
    this.map.set(ref, container);
    return ref;
  }

  get(ref: number): VariableContainer | undefined {
    return this.map.get(ref);
  }

  reset(): void {
    this.map.clear();
    this.next = 1;
  }
}

/**
 * One row. `parent` is the C expression of the containing value (`$` for
 * registers), so every row carries an evaluateName for watches, Set Value
 * and Break on Value Change.
 */
export function toDapVariable(v: VariableValue, handles: VariableHandles, parent?: string): DebugProtocol.Variable {
  const children = v.children ?? [];
  const evaluateName = evaluateNameOf(v.name, parent, v.type);
  const out: DebugProtocol.Variable = {
    name: v.name,
    value: v.value,
    type: v.type,
    evaluateName,
    variablesReference: children.length ? handles.create({ kind: 'children', children, parent: evaluateName }) : 0,
  };
  const memoryReference = cpuMemoryReference(v.address) ?? pointerReference(v);
  if (memoryReference) out.memoryReference = memoryReference;
  if (children.length && v.type.includes('[')) out.indexedVariables = children.length;
  return out;
}

export function evaluateNameOf(name: string, parent?: string, type?: string): string {
  if (parent === undefined) return name;
  if (parent === '$') return `$${name}`;
  // a decoded flag under a flags register (`$FL`): its bit as C
  const flagBit = parent.startsWith('$') ? /^flag \(bit (\d)\)$/.exec(type ?? '') : null;
  if (flagBit) return `(${parent} >> ${flagBit[1]}) & 1`;
  const base = /^[\w$.[\]>-]+$/.test(parent) ? parent : `(${parent})`;
  return name.startsWith('[') ? `${base}${name}` : `${base}.${name}`;
}

/** A pointer's row opens the memory it points to. */
function pointerReference(v: VariableValue): string | undefined {
  return v.type.endsWith('*') && v.numeric !== undefined ? hex(v.numeric) : undefined;
}

/** A variable's memory reference: its CPU address in hex (core/memory-reference.ts names other spaces). */
export function cpuMemoryReference(address?: Address): string | undefined {
  return address && address.space === 'cpu' ? hex(address.offset) : undefined;
}

/** A Variables row (its name in a container) or a typed expression, in the frame it belongs to. */
export interface RowArguments {
  name?: string;
  variablesReference?: number;
  frameId?: number;
}

/** The C expression of a row (and the frame its scope belongs to), or the expression as typed. */
export function rowExpression(
  handles: VariableHandles,
  args: RowArguments,
): { expression: string; frameIndex: number } {
  const name = String(args?.name ?? '').trim();
  if (!name) throw badRequest('Name the variable or C lvalue.');
  const frameIndex = frameIndexOf(args.frameId);
  if (args.variablesReference === undefined) return { expression: name, frameIndex };
  const container = handles.get(args.variablesReference);
  if (!container) throw notFound('That Variables row is from before the CPU last moved; select it again.');
  if (container.kind === 'scope') {
    if (container.scope === 'registers') throw unsupported('Registers are not memory; pick a C variable.');
    return { expression: name, frameIndex: container.frameIndex };
  }
  if (container.parent?.startsWith('$')) throw unsupported('Registers are not memory; pick a C variable.');
  // fields and elements: their C expression; the frame is the one selected (VS Code sends it)
  return { expression: evaluateNameOf(name, container.parent), frameIndex };
}
