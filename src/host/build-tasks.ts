/**
 * The "retro-build" TaskProvider: one build task per cc65, SDCC or nasm project in the
 * workspace (src/host/projects.ts), with the toolchain's problem matcher, so its messages
 * land in Problems. Generated launch configurations name these tasks as preLaunchTask.
 */
import * as vscode from 'vscode';
import { detectProjects, TASK_SOURCE, TASK_TYPE, taskName, type Project } from './projects.js';

interface BuildTaskDefinition extends vscode.TaskDefinition {
  project: string;
}

function taskFor(folder: vscode.WorkspaceFolder, p: Project): vscode.Task {
  const definition: BuildTaskDefinition = { type: TASK_TYPE, project: p.name };
  const task = new vscode.Task(
    definition,
    folder,
    taskName(p),
    TASK_SOURCE,
    new vscode.ShellExecution(p.buildCommand, { cwd: p.dir }),
    p.problemMatcher,
  );
  task.group = vscode.TaskGroup.Build;
  task.detail = `${p.toolchain}: ${p.buildCommand}`;
  return task;
}

export function registerBuildTasks(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.tasks.registerTaskProvider(TASK_TYPE, {
      async provideTasks() {
        const tasks: vscode.Task[] = [];
        for (const folder of vscode.workspace.workspaceFolders ?? [])
          for (const p of await detectProjects(folder.uri.fsPath)) tasks.push(taskFor(folder, p));
        return tasks;
      },
      async resolveTask(task) {
        const wanted = (task.definition as BuildTaskDefinition).project;
        const folder =
          task.scope && typeof task.scope === 'object' ? (task.scope as vscode.WorkspaceFolder) : undefined;
        if (!folder || typeof wanted !== 'string') return undefined;
        const p = (await detectProjects(folder.uri.fsPath)).find((x) => x.name === wanted);
        return p && taskFor(folder, p);
      },
    }),
  );
}
