/** The bodies of variables, evaluate and setVariable: checked input, then the bound session's view. */
import type { DebugProtocol } from '@vscode/debugprotocol';
import { badRequest, tooLarge, unsupported } from '../core/errors.js';
import { frameIndexOf, MAX_EXPRESSION_CHARS } from './adapter-parts.js';
import type { DapBinding } from './binding.js';
import type { DapNotifier } from './dap-notifier.js';
import { toDapVariable, type VariableHandles } from './variables.js';

export async function variables(
  binding: DapBinding,
  handles: VariableHandles,
  args: DebugProtocol.VariablesArguments,
): Promise<DebugProtocol.VariablesResponse['body']> {
  const { session } = binding.bound();
  const container = handles.get(args?.variablesReference);
  // A reference from before the CPU last moved: nothing to show rather than an error popup.
  if (!container) return { variables: [] };
  const values =
    container.kind === 'scope' ? await session.variables(container.scope, container.frameIndex) : container.children;
  const start = Math.max(0, args.start ?? 0);
  const page = args.count ? values.slice(start, start + args.count) : values.slice(start);
  const parent = container.kind === 'children' ? container.parent : undefined;
  const registers = container.kind === 'scope' && container.scope === 'registers';
  return { variables: page.map((v) => toDapVariable(v, handles, registers ? '$' : parent)) };
}

export async function evaluate(
  binding: DapBinding,
  handles: VariableHandles,
  args: DebugProtocol.EvaluateArguments,
): Promise<DebugProtocol.EvaluateResponse['body']> {
  binding.bound();
  const expression = String(args?.expression ?? '').trim();
  if (!expression) throw badRequest('Nothing to evaluate: give a variable name.');
  if (expression.length > MAX_EXPRESSION_CHARS) {
    throw tooLarge(`Expressions are limited to ${MAX_EXPRESSION_CHARS} characters.`);
  }
  const value = await binding.currentView().evaluate(expression, frameIndexOf(args.frameId));
  const v = toDapVariable({ ...value, name: expression }, handles);
  return {
    result: v.value,
    type: v.type,
    variablesReference: v.variablesReference,
    memoryReference: v.memoryReference,
  };
}

export async function setVariable(
  binding: DapBinding,
  notify: DapNotifier,
  args: DebugProtocol.SetVariableArguments,
): Promise<DebugProtocol.SetVariableResponse['body']> {
  binding.bound();
  const view = binding.currentView();
  if (!view.setVariable) throw unsupported('Setting variables is not supported here; write memory in the memory view.');
  const set = await view.setVariable(() => binding.control(), String(args?.name ?? ''), String(args?.value ?? ''));
  if (set.written) notify.memoryChanged(set.written.reference, set.written.length);
  return { value: set.value, type: set.type };
}

/** Set Value by C type on an lvalue (the row's evaluateName or a watch's expression), under the lease. */
export async function setExpression(
  binding: DapBinding,
  notify: DapNotifier,
  handles: VariableHandles,
  args: DebugProtocol.SetExpressionArguments,
): Promise<DebugProtocol.SetExpressionResponse['body']> {
  binding.bound();
  const expression = String(args?.expression ?? '').trim();
  if (!expression || expression.length > MAX_EXPRESSION_CHARS)
    throw badRequest(`Give the C lvalue to set (at most ${MAX_EXPRESSION_CHARS} characters).`);
  const value = await binding
    .control()
    .setExpression(expression, String(args?.value ?? ''), frameIndexOf(args.frameId));
  const v = toDapVariable({ ...value, name: expression }, handles);
  if (v.memoryReference && value.bytes) notify.memoryChanged(v.memoryReference, value.bytes.split(' ').length);
  return { value: v.value, type: v.type, variablesReference: v.variablesReference, memoryReference: v.memoryReference };
}
