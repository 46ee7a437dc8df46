/**
 * The flame graph panel of the last profile run: one panel, redrawn for each
 * run. The page may only open source files the profile names (at a line) and
 * ask for the two export formats; anything else it posts is ignored.
 */
import * as vscode from 'vscode';
import { PROFILE_FORMATS, type ProfileFormat } from '../testing/profile-export.js';
import { flameHtml, type FlameMessage } from './profile-flame-html.js';
import type { ProfileModel } from './profile-model.js';

export interface FlameActions {
  exportAs(format: ProfileFormat): Promise<void>;
}

const VIEW_TYPE = 'retroDebug.profile';

export class FlamePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private model: ProfileModel | undefined;
  private actions: FlameActions | undefined;

  show(model: ProfileModel, actions: FlameActions): void {
    this.model = model;
    this.actions = actions;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        VIEW_TYPE,
        'Retro Profile',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, localResourceRoots: [] },
      );
      this.panel.onDidDispose(() => (this.panel = undefined));
      this.panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m));
    }
    this.panel.webview.html = flameHtml(model.summary, model.flame);
    this.panel.reveal(undefined, true);
  }

  /** Brings the panel back (a lens click) when a profile is shown. */
  reveal(): boolean {
    if (this.model && this.actions) this.show(this.model, this.actions);
    return this.model !== undefined;
  }

  clear(): void {
    this.model = undefined;
    this.actions = undefined;
    this.panel?.dispose();
  }

  private async receive(raw: unknown): Promise<void> {
    const m = raw as Partial<FlameMessage>;
    try {
      if (m.type === 'open' && typeof m.file === 'string' && this.model?.files.has(m.file)) {
        const line = Number.isInteger(m.line) && (m.line as number) > 0 ? (m.line as number) - 1 : 0;
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(m.file));
        await vscode.window.showTextDocument(doc, {
          viewColumn: vscode.ViewColumn.One,
          selection: new vscode.Range(line, 0, line, 0),
        });
      } else if (m.type === 'export' && PROFILE_FORMATS.includes(m.format as ProfileFormat)) {
        await this.actions?.exportAs(m.format as ProfileFormat);
      }
    } catch (err) {
      void vscode.window.showErrorMessage(`Retro Debug profile: ${(err as Error).message}`);
    }
  }

  dispose(): void {
    this.clear();
  }
}
