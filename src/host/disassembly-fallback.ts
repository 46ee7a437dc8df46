/**
 * A stack frame without C source (ROM, a runtime routine, code without
 * debug info) opens VS Code's Disassembly view instead of the "Unknown
 * Source" dead end: VS Code itself opens it only after instruction
 * breakpoints and instruction steps.
 *
 * After a stop VS Code focuses the first frame that has source (a Pause in
 * `cgetc` focuses its caller `main`), so the stop itself is judged by the
 * top frame; later focus changes (the user clicking a frame) by that frame.
 */
import * as vscode from 'vscode';
import { FRAME_SOURCE_REQUEST, type FrameSourceReply } from '../dap/adapter-parts.js';

const OPEN_DISASSEMBLY = 'debug.action.openDisassemblyView';
/** frameId 1 is the top frame (adapter-parts' frameIndexOf) */
const TOP_FRAME_ID = 1;

export function registerDisassemblyFallback(debugType: string): vscode.Disposable {
  const justStopped = new Set<string>();
  const tracker = vscode.debug.registerDebugAdapterTrackerFactory(debugType, {
    createDebugAdapterTracker: (session) => ({
      onDidSendMessage: (m: { type?: string; event?: string }) => {
        if (m.type === 'event' && m.event === 'stopped') justStopped.add(session.id);
      },
      onWillStopSession: () => void justStopped.delete(session.id),
    }),
  });
  const focus = vscode.debug.onDidChangeActiveStackItem(async (item) => {
    if (!(item instanceof vscode.DebugStackFrame) || item.session.type !== debugType) return;
    const frameId = justStopped.delete(item.session.id) ? TOP_FRAME_ID : item.frameId;
    try {
      const reply = (await item.session.customRequest(FRAME_SOURCE_REQUEST, { frameId })) as FrameSourceReply;
      if (!reply.hasSource && reply.instructionPointerReference) await vscode.commands.executeCommand(OPEN_DISASSEMBLY);
    } catch {
      // the session ended or moved on: nothing to open
    }
  });
  return vscode.Disposable.from(tracker, focus);
}
