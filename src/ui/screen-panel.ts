/** The "Retro Debug: Show Screen" webview panel: VS Code plumbing around ScreenController. */
import * as vscode from 'vscode';
import type { SessionManagerApi } from '../session/types.js';
import { HexView } from './hex-view.js';
import { HEX_EDITOR_ID, openMemory, type MemoryViewHost } from './open-memory.js';
import { ScreenController, type ScreenControllerOptions } from './screen-controller.js';
import { screenPanelHtml } from './screen-html.js';
import { parseWebviewMessage } from './screen-messages.js';

/** VS Code's side of a click on the screen: the memory view (ui/open-memory.ts). */
const memoryViews: MemoryViewHost = {
  session: () => vscode.debug.activeDebugSession,
  hasHexEditor: () => vscode.extensions.getExtension(HEX_EDITOR_ID) !== undefined,
  openWith: (uri, viewType) => vscode.commands.executeCommand('vscode.openWith', vscode.Uri.from(uri), viewType),
  showInformation: (text) => void vscode.window.showInformationMessage(text),
  openBuiltIn: (reference) => {
    const session = vscode.debug.activeDebugSession;
    if (session) new HexView(session, reference);
  },
};

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
