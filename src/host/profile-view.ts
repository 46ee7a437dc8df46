/**
 * A profile in the C editors: a code lens per function (inclusive/exclusive
 * cycles, calls) and the hot lines (a heat-coloured background, gutter bar and
 * overview-ruler mark per line, its cycles after the line). Shown for one run
 * at a time; `clear` removes everything.
 */
import * as vscode from 'vscode';
import { HEAT_LEVELS, type ProfileModel } from './profile-model.js';

/** A gutter bar of the heat's colour (a data URI: no file to ship). */
function bar(alpha: number): vscode.Uri {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="16"><rect width="4" height="16" fill="rgb(255,90,0)" fill-opacity="${alpha}"/></svg>`;
  return vscode.Uri.parse(`data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`);
}

export class ProfileView implements vscode.CodeLensProvider, vscode.Disposable {
  private model: ProfileModel | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly heat = Array.from({ length: HEAT_LEVELS }, (_, i) => {
    const alpha = (i + 1) / HEAT_LEVELS;
    return vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: `rgba(255, 90, 0, ${(0.06 + 0.22 * alpha).toFixed(2)})`,
      overviewRulerColor: `rgba(255, 90, 0, ${alpha.toFixed(2)})`,
      overviewRulerLane: vscode.OverviewRulerLane.Right,
      gutterIconPath: bar(alpha),
      gutterIconSize: 'contain',
    });
  });
  private readonly subscriptions: vscode.Disposable[];

  /** `lensCommand`: what clicking a lens runs (the flame graph) */
  constructor(private readonly lensCommand: string) {
    this.subscriptions = [
      vscode.languages.registerCodeLensProvider({ scheme: 'file', language: 'c' }, this),
      vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => this.decorate(e))),
    ];
  }

  show(model: ProfileModel): void {
    this.model = model;
    this.changed.fire();
    vscode.window.visibleTextEditors.forEach((e) => this.decorate(e));
  }

  clear(): void {
    this.model = undefined;
    this.changed.fire();
    vscode.window.visibleTextEditors.forEach((e) => this.decorate(e));
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    return (this.model?.lenses.get(document.uri.fsPath) ?? []).map((lens) => {
      const range = new vscode.Range(lens.line - 1, 0, lens.line - 1, 0);
      return new vscode.CodeLens(range, { title: lens.title, command: this.lensCommand, tooltip: lens.name });
    });
  }

  private decorate(editor: vscode.TextEditor): void {
    const lines = editor.document.uri.scheme === 'file' ? this.model?.hot.get(editor.document.uri.fsPath) : undefined;
    this.heat.forEach((type, i) => {
      const options = (lines ?? [])
        .filter((l) => l.heat === i + 1 && l.line <= editor.document.lineCount)
        .map((l) => ({
          range: new vscode.Range(l.line - 1, 0, l.line - 1, 0),
          hoverMessage: `Retro Debug profile: ${l.label}`,
          renderOptions: {
            after: {
              contentText: `  ${l.label}`,
              color: new vscode.ThemeColor('editorCodeLens.foreground'),
              fontStyle: 'italic',
            },
          },
        }));
      editor.setDecorations(type, options);
    });
  }

  dispose(): void {
    for (const d of [...this.subscriptions, ...this.heat, this.changed]) d.dispose();
  }
}
