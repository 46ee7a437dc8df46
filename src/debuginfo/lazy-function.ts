/**
 * A FunctionInfo whose parameters and locals are built on first use: a big
 * program has thousands of functions and a session shows the frames of a
 * few, so the reader leaves each function's variables as a recipe (the
 * records are read and checked at load, their Variables made here).
 */
import type { CType, FunctionInfo, Variable } from './model.js';

export interface FunctionVariables {
  params: Variable[];
  locals: Variable[];
}

/** The fields a FunctionInfo has besides its variables, as the reader sets them. */
export type FunctionFields = Omit<FunctionInfo, 'params' | 'locals'>;

export class LazyFunction implements FunctionInfo {
  declare name: string;
  declare file?: string;
  declare start: number;
  declare end: number;
  declare bank?: number;
  declare returnType?: CType;
  declare hasFramePointer?: boolean;
  declare frameBytes?: number;
  declare paramBytes?: number;
  // a #private field is no own property: a spread or deepEqual of the function sees only the fields above
  #variables: FunctionVariables | (() => FunctionVariables);

  constructor(fields: FunctionFields, make: () => FunctionVariables) {
    Object.assign(this, fields);
    this.#variables = make;
  }

  get params(): Variable[] {
    return this.built().params;
  }

  set params(params: Variable[]) {
    this.#variables = { ...this.built(), params };
  }

  get locals(): Variable[] {
    return this.built().locals;
  }

  set locals(locals: Variable[]) {
    this.#variables = { ...this.built(), locals };
  }

  private built(): FunctionVariables {
    if (typeof this.#variables === 'function') this.#variables = this.#variables();
    return this.#variables;
  }
}
