/**
 * VS Code's side of opening memory (ui/open-memory.ts): the Hex Editor over the debug session's memory when it is
 * installed, else the built-in hex view; and the "Retro Debug: Open Memory" command, which asks for an address,
 * memory reference or C expression (an expression is followed by the built-in view, or evaluated for the editor).
 */
import * as vscode from 'vscode';
import { isMemoryReference } from '../core/memory-reference.js';
import { HexView } from './hex-view.js';
import { HEX_EDITOR_ID, openMemory, type MemoryViewHost } from './open-memory.js';

export const memoryViews: MemoryViewHost = {
  session: () => vscode.debug.activeDebugSession,
  hasHexEditor: () => vscode.extensions.getExtension(HEX_EDITOR_ID) !== undefined,
  openWith: (uri, viewType) => vscode.commands.executeCommand('vscode.openWith', vscode.Uri.from(uri), viewType),
  showInformation: (text) => void vscode.window.showInformationMessage(text),
  openBuiltIn: (reference) => {
    const session = vscode.debug.activeDebugSession;
    if (session) new HexView(session, reference);
  },
};

export function registerOpenMemoryCommand(command: string): vscode.Disposable {
  return vscode.commands.registerCommand(command, async () => {
    const editor = vscode.window.activeTextEditor;
    const word = editor && editor.document.getText(editor.document.getWordRangeAtPosition(editor.selection.active));
    const text = (
      await vscode.window.showInputBox({
        prompt: 'Address, memory reference or C expression to show in memory',
        placeHolder: '0xC000, vram:0x3718, cpu@ram:0xA000, counter',
        value: word || undefined,
      })
    )?.trim();
    if (!text) return;
    const session = vscode.debug.activeDebugSession;
    if (isMemoryReference(text) || session?.type !== 'retro') return void openMemory(memoryViews, text);
    if (!memoryViews.hasHexEditor()) return memoryViews.openBuiltIn(text);
    try {
      const result = await session.customRequest('evaluate', { expression: text, context: 'watch' });
      if (!result?.memoryReference) throw new Error(`${text} is not in memory (its value is ${result?.result}).`);
      await openMemory(memoryViews, String(result.memoryReference));
    } catch (err) {
      void vscode.window.showInformationMessage((err as Error).message);
    }
  });
}
