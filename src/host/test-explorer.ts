/**
 * C unit tests (retro_test.h) in VS Code's Test Explorer: one item per test
 * project, one per TEST found in its build's debug info; Run and Coverage
 * profiles drive the same headless runner as `retro-debug test`, with each
 * failure shown at its EXPECT's line and coverage through VS Code's own
 * coverage API; the Debug profile shows the result the same way and then
 * debugs each chosen test in a real session (test-debug.ts). Run and
 * Coverage also run continuously on request: a saved source of a test
 * project re-runs that project's chosen tests. The logic lives in
 * test-explorer-model.ts.
 */
import { relative } from 'node:path';
import * as vscode from 'vscode';
import { asRetroError } from '../core/errors.js';
import { runTests, type TestMachineSpec } from '../testing/run-tests.js';
import { debugOneTest, registerTestDebugTracker } from './test-debug.js';
import {
  debugTarget,
  discoverProjectTests,
  explorerCoverage,
  findTestProjects,
  outcomeOf,
  projectOfSource,
  type ExplorerTest,
} from './test-explorer-model.js';

const SEP = '::';

/** `machines`: the registry's test machines (the extension wires them in: host knows no connector). */
export function registerTestExplorer(context: vscode.ExtensionContext, machines: readonly TestMachineSpec[]): void {
  const ctrl = vscode.tests.createTestController('retroDebugTests', 'Retro C tests');
  context.subscriptions.push(ctrl);

  const discover = async () => {
    const items: vscode.TestItem[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? [])
      for (const dir of await findTestProjects(folder.uri.fsPath)) {
        const item = ctrl.createTestItem(dir, relative(folder.uri.fsPath, dir) || folder.name, vscode.Uri.file(dir));
        item.canResolveChildren = true;
        items.push(item);
      }
    ctrl.items.replace(items);
  };
  const resolveProject = async (project: vscode.TestItem) => {
    project.busy = true;
    try {
      const tests = await discoverProjectTests(project.id);
      project.children.replace(tests.map((t) => testItem(ctrl, project.id, t)));
      project.error = undefined;
    } catch (err) {
      project.error = asRetroError(err).message;
    } finally {
      project.busy = false;
    }
  };
  ctrl.resolveHandler = async (item) => (item ? resolveProject(item) : discover());
  // the projects at once (a bounded walk): Run All works before the Test Explorer was opened
  void discover().catch(() => undefined);
  ctrl.refreshHandler = async () => {
    await discover();
    for (const [, project] of ctrl.items) await resolveProject(project);
  };

  const runOnce = async (request: vscode.TestRunRequest, token: vscode.CancellationToken, coverage: boolean) => {
    const testRun = ctrl.createTestRun(request);
    const wanted = request.include ?? [...ctrl.items].map(([, item]) => item);
    const byProject = new Map<string, vscode.TestItem[]>();
    for (const item of wanted) {
      const project = item.parent ?? item;
      byProject.set(project.id, [...(byProject.get(project.id) ?? []), ...(item.parent ? [item] : [])]);
    }
    try {
      for (const [dir, only] of byProject) {
        if (token.isCancellationRequested) break;
        const project = ctrl.items.get(dir);
        if (!project) continue;
        if (!project.children.size) await resolveProject(project);
        const items = only.length ? only : [...project.children].map(([, child]) => child);
        for (const item of items) testRun.started(item);
        const names = new Set(items.map((i) => i.label));
        try {
          const report = await runTests(machines, {
            target: dir,
            filter: only.length === 1 ? only[0].label : undefined,
            coverage,
            onResult: (r) => {
              const item = project.children.get(`${dir}${SEP}${r.name}`);
              if (!item || !names.has(r.name)) return;
              const o = outcomeOf(r, dir);
              if (o.cycles) testRun.appendOutput(`${r.name}: ${o.cycles}\r\n`, undefined, item);
              if (o.state === 'passed') return testRun.passed(item, r.ms);
              const message = new vscode.TestMessage(o.message ?? o.state);
              if (o.location)
                message.location = new vscode.Location(
                  vscode.Uri.file(o.location.file),
                  new vscode.Position(Math.max(0, o.location.line - 1), 0),
                );
              if (o.state === 'failed') testRun.failed(item, message, r.ms);
              else testRun.errored(item, message, r.ms);
            },
          });
          for (const f of explorerCoverage(report.coverage ?? [], report.sourceRoot))
            testRun.addCoverage(
              vscode.FileCoverage.fromDetails(
                vscode.Uri.file(f.file),
                f.lines.map((l) => new vscode.StatementCoverage(l.count, new vscode.Position(l.line - 1, 0))),
              ),
            );
        } catch (err) {
          const message = new vscode.TestMessage(asRetroError(err).message);
          for (const item of items) testRun.errored(item, message);
        }
      }
    } finally {
      testRun.end();
    }
  };
  /** A continuous run lasts until cancelled: each save of a project's source re-runs (one run at a time) what it chose there. */
  const run = async (request: vscode.TestRunRequest, token: vscode.CancellationToken, coverage: boolean) => {
    await runOnce(request, token, coverage);
    if (!request.continuous || token.isCancellationRequested) return;
    let queue = Promise.resolve();
    await new Promise<void>((done) => {
      const saved = vscode.workspace.onDidSaveTextDocument((doc) => {
        const dir = projectOfSource(
          [...ctrl.items].map(([id]) => id),
          doc.uri.fsPath,
        );
        const project = dir === undefined ? undefined : ctrl.items.get(dir);
        if (!project) return;
        const chosen = request.include?.filter((i) => (i.parent ?? i) === project) ?? [project];
        if (!chosen.length) return;
        queue = queue.then(async () => {
          // a whole project is discovered again: the save may have added or renamed tests
          if (chosen.includes(project)) await resolveProject(project);
          const again = new vscode.TestRunRequest(chosen, request.exclude, request.profile, true);
          await runOnce(again, token, coverage);
        });
      });
      token.onCancellationRequested(() => {
        saved.dispose();
        done();
      });
    });
    await queue;
  };
  /** Each chosen test (a project: its tests): its result as Run reports it, then a debug session of it alone. */
  const debug = async (request: vscode.TestRunRequest, token: vscode.CancellationToken) => {
    const wanted = request.include ?? [...ctrl.items].map(([, item]) => item);
    for (const item of wanted) if (!item.parent && !item.children.size) await resolveProject(item);
    const tests = wanted.flatMap((i) => (i.parent ? [i] : [...i.children].map(([, c]) => c)));
    for (const item of tests) {
      if (token.isCancellationRequested) break;
      await runOnce(new vscode.TestRunRequest([item], undefined, request.profile), token, false);
      const dir = (item.parent as vscode.TestItem).id;
      try {
        const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(dir));
        await debugOneTest(await debugTarget(dir, item.label), folder, token);
      } catch (err) {
        void vscode.window.showErrorMessage(`Debugging ${item.label}: ${asRetroError(err).message}`);
      }
    }
  };
  registerTestDebugTracker(context);
  ctrl.createRunProfile('Debug', vscode.TestRunProfileKind.Debug, debug, true);
  // continuous runs: VS Code's "Turn on Continuous Run" on either profile
  ctrl.createRunProfile('Run', vscode.TestRunProfileKind.Run, (r, t) => run(r, t, false), true, undefined, true);
  ctrl.createRunProfile(
    'Coverage',
    vscode.TestRunProfileKind.Coverage,
    (r, t) => run(r, t, true),
    true,
    undefined,
    true,
  );
}

function testItem(ctrl: vscode.TestController, dir: string, t: ExplorerTest): vscode.TestItem {
  const item = ctrl.createTestItem(`${dir}${SEP}${t.name}`, t.name, t.file ? vscode.Uri.file(t.file) : undefined);
  if (t.line) item.range = new vscode.Range(t.line - 1, 0, t.line - 1, 0);
  return item;
}
