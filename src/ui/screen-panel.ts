/** The "Retro Debug: Show Screen" webview panel: VS Code plumbing around ScreenController. */
import * as vscode from 'vscode';
import type { SessionManagerApi } from '../session/types.js';
import { ScreenController } from './screen-controller.js';
import { screenPanelHtml } from './screen-html.js';
import { parseWebviewMessage } from './screen-messages.js';

/**
 * Opens `address` in VS Code's memory view (the hex editor over the debug
 * session's memory, as "View Binary Data" on a variable does); without an
 * active Retro Debug session or the hex editor, says where to look instead.
 */
async function openMemory(address: number): Promise<void> {
  const session = vscode.debug.activeDebugSession;
  const reference = String(address);
  if (session?.type === 'retro') {
    const uri = vscode.Uri.from({
      scheme: 'vscode-debug-memory',
      authority: session.id,
      path: `/${encodeURIComponent(reference)}/memory.bin`,
      query: `range=0:256`,
    });
    try {
      await vscode.commands.executeCommand('vscode.openWith', uri, 'hexEditor.hexedit');
      return;
    } catch {
      /* no hex editor: say the address */
    }
  }
  void vscode.window.showInformationMessage(
    `Address $${address.toString(16).toUpperCase()}: open it in a memory view of a Retro Debug session (needs the Hex Editor extension).`,
  );
}

export class ScreenPanel {
  static readonly viewType = 'retro.screen';
  private static current?: ScreenPanel;

  /** Opens the panel, or brings the open one forward and refreshes it. */
  static show(extensionUri: vscode.Uri, sessions: SessionManagerApi): ScreenPanel {
    if (ScreenPanel.current) {
      ScreenPanel.current.panel.reveal(undefined, true);
      void ScreenPanel.current.controller.refresh();
      return ScreenPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(
      ScreenPanel.viewType,
      'Retro Screen',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [
          vscode.Uri.joinPath(extensionUri, 'dist', 'media'),
          vscode.Uri.joinPath(extensionUri, 'media'),
        ],
      },
    );
    ScreenPanel.current = new ScreenPanel(panel, extensionUri, sessions);
    return ScreenPanel.current;
  }

  static disposeCurrent(): void {
    ScreenPanel.current?.panel.dispose();
  }

  private readonly controller: ScreenController;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    sessions: SessionManagerApi,
  ) {
    const webview = panel.webview;
    webview.html = screenPanelHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'media', 'screen-panel.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'screen-panel.css')).toString(),
    });
    this.controller = new ScreenController({ sessions, post: (m) => webview.postMessage(m) });
    const subscription = webview.onDidReceiveMessage((m) => {
      const message = parseWebviewMessage(m);
      if (message?.type === 'open-memory') void openMemory(message.address);
      return this.controller.handleMessage(m);
    });
    panel.onDidDispose(() => {
      subscription.dispose();
      this.controller.dispose();
      if (ScreenPanel.current === this) ScreenPanel.current = undefined;
    });
  }
}
