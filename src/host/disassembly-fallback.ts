/**
 * A stack frame without C source (ROM, a runtime routine, code without
 * debug info) opens VS Code's Disassembly view when it becomes the focused
 * frame, instead of the "Unknown Source" dead end: VS Code itself opens it
 * only after instruction breakpoints and instruction steps.
 */
import * as vscode from 'vscode';
import { FRAME_SOURCE_REQUEST, type FrameSourceReply } from '../dap/adapter-parts.js';

const OPEN_DISASSEMBLY = 'debug.action.openDisassemblyView';

export function registerDisassemblyFallback(debugType: string): vscode.Disposable {
  return vscode.debug.onDidChangeActiveStackItem(async (item) => {
    if (!(item instanceof vscode.DebugStackFrame) || item.session.type !== debugType) return;
    try {
      const reply = (await item.session.customRequest(FRAME_SOURCE_REQUEST, {
        frameId: item.frameId,
      })) as FrameSourceReply;
      if (!reply.hasSource && reply.instructionPointerReference) await vscode.commands.executeCommand(OPEN_DISASSEMBLY);
    } catch {
      // the session ended or moved on: nothing to open
    }
  });
}
