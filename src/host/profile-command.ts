/**
 * "Retro Debug: Profile": runs the cycle profiler headless on the current
 * program (the running Retro Debug session's, else the active C file's
 * project) for some frames, to a breakpoint or to a C function, then shows
 * the lenses, hot lines and flame graph (profile-view.ts, profile-flame.ts).
 * A new run, or "Clear Profile", removes the last one's.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { asRetroError } from '../core/errors.js';
import { profileProgram, type ProfileOptions, type ProfileRun } from '../testing/profile-run.js';
import { exportRun, type ProfileFormat } from '../testing/profile-export.js';
import type { TestMachineSpec } from '../testing/run-tests.js';
import { FlamePanel } from './profile-flame.js';
import { profileModel } from './profile-model.js';
import { ProfileView } from './profile-view.js';

export interface ProfileCommandIds {
  profile: string;
  clear: string;
  show: string;
  /** the context key set while a profile is shown */
  shownKey: string;
}

/** What the command takes when run with arguments (tests, keybindings); without, it asks. */
interface ProfileArgs {
  target?: string;
  machine?: string;
  frames?: number;
  until?: string;
}

type How = Pick<ProfileOptions, 'frames' | 'until' | 'untilLines'>;

export function registerProfiler(
  debugType: string,
  ids: ProfileCommandIds,
  machines: readonly TestMachineSpec[],
): vscode.Disposable[] {
  const view = new ProfileView(ids.show);
  const flame = new FlamePanel();
  let running = false;
  const clear = () => {
    view.clear();
    flame.clear();
    void vscode.commands.executeCommand('setContext', ids.shownKey, false);
  };

  const profile = async (args: ProfileArgs = {}) => {
    if (running) return void vscode.window.showWarningMessage('A Retro Debug profile is already running.');
    const what = args.target ? { target: args.target, machine: args.machine } : currentProgram(debugType);
    if (!what) {
      void vscode.window.showWarningMessage(
        'Profile needs a program: open a C file of a cc65 or SDCC project, or start a Retro Debug session.',
      );
      return;
    }
    const how = args.frames !== undefined || args.until !== undefined ? args : await askHow();
    if (!how) return;
    clear();
    running = true;
    try {
      const run = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Retro Debug: profiling…' },
        () => profileProgram(machines, { ...what, ...how }),
      );
      const model = profileModel(run);
      view.show(model);
      flame.show(model, { exportAs: (format) => exportProfile(run, format) });
      void vscode.commands.executeCommand('setContext', ids.shownKey, true);
      vscode.window.setStatusBarMessage(`Retro Debug profile: ${model.summary}`, 15_000);
    } catch (err) {
      void vscode.window.showErrorMessage(`Retro Debug profile: ${asRetroError(err).message}`);
    } finally {
      running = false;
    }
  };

  return [
    view,
    flame,
    vscode.commands.registerCommand(ids.profile, profile),
    vscode.commands.registerCommand(ids.clear, clear),
    vscode.commands.registerCommand(ids.show, () => flame.reveal()),
  ];
}

/** The running session's program, else the folder of the active C file (a project the test builder builds). */
function currentProgram(debugType: string): { target: string; machine?: string } | undefined {
  const session = vscode.debug.activeDebugSession;
  const config = session?.type === debugType ? session.configuration : undefined;
  if (typeof config?.program === 'string')
    return { target: config.program, machine: typeof config.machine === 'string' ? config.machine : undefined };
  const doc = vscode.window.activeTextEditor?.document;
  if (doc?.uri.scheme === 'file' && doc.languageId === 'c') return { target: dirname(doc.uri.fsPath) };
  return undefined;
}

async function askHow(): Promise<How | undefined> {
  const lines = vscode.debug.breakpoints
    .filter((b): b is vscode.SourceBreakpoint => b instanceof vscode.SourceBreakpoint && b.enabled)
    .map((b) => ({ file: b.location.uri.fsPath, line: b.location.range.start.line + 1 }));
  const items: (vscode.QuickPickItem & { how?: How })[] = [
    { label: '100 frames', description: 'about 2 s of machine time', how: { frames: 100 } },
    { label: '1000 frames', description: 'about 20 s of machine time', how: { frames: 1000 } },
    ...(lines.length
      ? [{ label: 'Until a breakpoint', description: `${lines.length} enabled`, how: { untilLines: lines } }]
      : []),
    { label: 'Until a C function…' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: 'Profile from the start of the program' });
  if (!picked) return undefined;
  if (picked.how) return picked.how;
  const until = await vscode.window.showInputBox({ prompt: 'Profile until this C function is first called' });
  return until ? { until } : undefined;
}

async function exportProfile(run: ProfileRun, format: ProfileFormat): Promise<void> {
  const ext = format === 'cpuprofile' ? 'cpuprofile' : 'speedscope.json';
  const uri = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.file(join(dirname(run.program), `profile.${ext}`)),
    filters: format === 'cpuprofile' ? { 'CPU profile': ['cpuprofile'] } : { 'speedscope JSON': ['json'] },
  });
  if (!uri) return;
  await writeFile(uri.fsPath, JSON.stringify(exportRun(run, format)));
  void vscode.window.showInformationMessage(`Profile written to ${uri.fsPath}.`);
}
