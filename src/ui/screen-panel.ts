/** The "Retro Debug: Show Screen" webview panel: VS Code plumbing around ScreenController. */
import * as vscode from 'vscode';
import type { SessionManagerApi } from '../session/types.js';
import { openMemory } from './open-memory.js';
import { memoryViews } from './memory-views.js';
import { ScreenController, type ScreenControllerOptions } from './screen-controller.js';
import { screenPanelHtml } from './screen-html.js';
import { parseWebviewMessage } from './screen-messages.js';

export class ScreenPanel {
  static readonly viewType = 'retro.screen';
  private static current?: ScreenPanel;

  /** Opens the panel, or brings the open one forward and refreshes it. */
  static show(
    extensionUri: vscode.Uri,
    sessions: SessionManagerApi,
    user: Pick<ScreenControllerOptions, 'userClient' | 'userGoTo'>,
  ): ScreenPanel {
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
    ScreenPanel.current = new ScreenPanel(panel, extensionUri, sessions, user);
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
    user: Pick<ScreenControllerOptions, 'userClient' | 'userGoTo'>,
  ) {
    const webview = panel.webview;
    webview.html = screenPanelHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'media', 'screen-panel.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'screen-panel.css')).toString(),
    });
    this.controller = new ScreenController({ sessions, post: (m) => webview.postMessage(m), ...user });
    const subscription = webview.onDidReceiveMessage((m) => {
      const message = parseWebviewMessage(m);
      if (message?.type === 'open-memory') void openMemory(memoryViews, message.reference);
      return this.controller.handleMessage(m);
    });
    panel.onDidDispose(() => {
      subscription.dispose();
      this.controller.dispose();
      if (ScreenPanel.current === this) ScreenPanel.current = undefined;
    });
  }
}
