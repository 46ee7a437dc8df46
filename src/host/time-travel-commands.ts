/**
 * The VS Code side of time travel on a Retro Debug session: "Who last wrote this?" on a Variables row (or an
 * lvalue typed in) and Step Back Out. Both are custom requests to the session's adapter, which moves the machine;
 * the stop that follows takes the editor to the line, in the past (the stop's description says so).
 */
import * as vscode from 'vscode';
import { asRetroError } from '../core/errors.js';
import { LAST_WRITE_REQUEST, STEP_BACK_OUT_REQUEST, type LastWriteReply } from '../dap/adapter-parts.js';

/** What VS Code passes a `debug/variables/context` command: the row and the scope or value it sits in. */
interface VariablesRow {
  container?: { variablesReference?: number };
  variable?: { name?: string };
}

function retroSession(debugType: string): vscode.DebugSession | undefined {
  const session = vscode.debug.activeDebugSession;
  if (session?.type === debugType) return session;
  void vscode.window.showWarningMessage('This needs a stopped Retro Debug session (start one with F5).');
  return undefined;
}

/** The focused frame's id when it belongs to `session` (the row's frame for fields and elements). */
function focusedFrame(session: vscode.DebugSession): number | undefined {
  const item = vscode.debug.activeStackItem;
  return item instanceof vscode.DebugStackFrame && item.session.id === session.id ? item.frameId : undefined;
}

async function whoLastWrote(debugType: string, row?: VariablesRow): Promise<void> {
  const session = retroSession(debugType);
  if (!session) return;
  const name =
    row?.variable?.name ??
    (await vscode.window.showInputBox({ prompt: 'Who last wrote this? A C lvalue: a global, a local, s.field, a[i]' }));
  if (!name) return;
  try {
    const reply = (await session.customRequest(LAST_WRITE_REQUEST, {
      name,
      variablesReference: row?.container?.variablesReference,
      frameId: focusedFrame(session),
    })) as LastWriteReply;
    void vscode.window.showInformationMessage(reply.message);
  } catch (err) {
    void vscode.window.showErrorMessage(asRetroError(err).message);
  }
}

async function stepBackOut(debugType: string): Promise<void> {
  const session = retroSession(debugType);
  if (!session) return;
  try {
    await session.customRequest(STEP_BACK_OUT_REQUEST, { threadId: 1 });
  } catch (err) {
    void vscode.window.showErrorMessage(asRetroError(err).message);
  }
}

export function registerTimeTravelCommands(
  debugType: string,
  commands: { whoLastWrote: string; stepBackOut: string },
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(commands.whoLastWrote, (row?: VariablesRow) => whoLastWrote(debugType, row)),
    vscode.commands.registerCommand(commands.stepBackOut, () => stepBackOut(debugType)),
  ];
}
