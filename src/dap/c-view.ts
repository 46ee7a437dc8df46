/**
 * The debugger UI of a stopped CPU running C (MAME, VICE, the built-in C64):
 * one CPU thread, the unwound stack with file:line, scopes Locals, Globals,
 * Registers (and Labels when the session has a symbol profile), and C
 * expressions evaluated in the selected frame, with session labels as a
 * fallback for names that are no C variable.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { ScopeName, VariableValue } from '../session/types.js';
import { hex } from '../core/hex.js';
import type { DebugView, DebugViewContext } from './debug-view.js';
import { evaluateLabel, labelScope } from './labels-view.js';
import { disassembleBody } from './disassembly-view.js';

export const CPU_THREAD_ID = 1;

export class CDebugView implements DebugView {
  readonly freeRunning = false;

  constructor(private readonly ctx: DebugViewContext) {}

  async threads(): Promise<DebugProtocol.Thread[]> {
    return [{ id: CPU_THREAD_ID, name: 'CPU' }];
  }

  async stackTrace(args: DebugProtocol.StackTraceArguments): Promise<DebugProtocol.StackTraceResponse['body']> {
    const frames = await this.ctx.session.backtrace();
    const start = Math.max(0, args?.startFrame ?? 0);
    const end = args?.levels ? start + args.levels : frames.length;
    const stackFrames: DebugProtocol.StackFrame[] = frames.slice(start, end).map((f) => {
      const frame: DebugProtocol.StackFrame = {
        id: f.index + 1,
        name: f.function || hex(f.pc),
        line: f.location?.line ?? 0,
        column: f.location ? 1 : 0,
        instructionPointerReference: hex(f.pc),
      };
      if (f.location) frame.source = this.ctx.sourceOf(f.location);
      else frame.presentationHint = 'subtle';
      return frame;
    });
    return { stackFrames, totalFrames: frames.length };
  }

  async scopes(frameIndex: number): Promise<DebugProtocol.Scope[]> {
    const { handles, session } = this.ctx;
    const scope = (name: string, scope: ScopeName, hint?: string): DebugProtocol.Scope => ({
      name,
      presentationHint: hint,
      expensive: false,
      variablesReference: handles.create({ kind: 'scope', scope, frameIndex }),
    });
    const scopes = [
      scope('Locals', 'locals', 'locals'),
      scope('Globals', 'globals'),
      scope('Registers', 'registers', 'registers'),
    ];
    const labels = labelScope(session);
    if (labels)
      scopes.push({
        name: 'Labels',
        expensive: false,
        variablesReference: handles.create({ kind: 'children', children: labels }),
      });
    return scopes;
  }

  disassemble(args: DebugProtocol.DisassembleArguments): Promise<DebugProtocol.DisassembleResponse['body']> {
    return disassembleBody(this.ctx, args);
  }

  async evaluate(expression: string, frameIndex: number): Promise<VariableValue> {
    const { session } = this.ctx;
    // a name that is no C variable may be a session label (symbol profile, text definition)
    return session.readVariable(expression, frameIndex).catch((err: unknown): VariableValue => {
      const label = evaluateLabel(session, expression);
      if (!label) throw err;
      return label;
    });
  }
}
