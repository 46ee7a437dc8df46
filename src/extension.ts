/**
 * VS Code wiring: one SessionManager for the extension host, the inline debug
 * adapter, launch.json defaults, the screen panel, the MCP endpoint offered to
 * VS Code (and, through a discovery file, to CLI relays). All logic lives in
 * plain modules (src/host/, src/ui/screen-controller.ts) so it runs without VS Code.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { DEBUG_TYPE } from './dap/launch-schema.js';
import { RetroDebugSession } from './dap/retro-debug-session.js';
import { GO_TO_FRAME_REQUEST } from './dap/adapter-parts.js';
import { registerAsmAssociation } from './host/asm-association.js';
import { registerDisassemblyFallback } from './host/disassembly-fallback.js';
import { registerTimeTravelCommands } from './host/time-travel-commands.js';
import { readLiveMemory } from './host/live-memory.js';
import { diagnosticsReport, RecentProblems } from './host/diagnostics-report.js';
import { startLanguageClient } from './lsp/client.js';
import {
  detectedConfigurations,
  generatedConfigurations,
  resolveDebugConfigurationDefaults,
} from './host/debug-config.js';
import { registerBuildTasks } from './host/build-tasks.js';
import { registerTestExplorer } from './host/test-explorer.js';
import { registerProfiler } from './host/profile-command.js';
import {
  pruneStaleDiscoveryFiles,
  removeDiscoveryFile,
  removeDiscoveryFileOnExit,
  writeDiscoveryFile,
} from './host/mcp-discovery.js';
import { LazyMcpEndpoint, type RunningMcpServer } from './host/mcp-endpoint.js';
import { claudeCodeMcpJson, codexConfigToml, MCP_TOKEN_ENV } from './host/mcp-snippets.js';
import { COMMANDS, MCP_PROVIDER_ID, MCP_PROVIDER_LABEL, PROFILE_SHOWN_KEY, SETTINGS } from './host/manifest.js';
import { startHttpMcpServer } from './mcp/http.js';
import { chooseView, CONNECTORS, TEST_MACHINES, TOOL_GROUPS } from './connectors/registry.js';
import { DEFAULT_PROFILE, isProfile } from './mcp/groups.js';
import { asRetroError } from './core/errors.js';
import { SessionManager } from './session/manager.js';
import { ScreenPanel } from './ui/screen-panel.js';
import { registerHexViewTracker } from './ui/hex-view.js';
import { registerOpenMemoryCommand } from './ui/memory-views.js';
import { ControlStatusItem } from './ui/control-status.js';

const PORT_STATE_KEY = 'retro.mcp.lastPort';

let shutdown: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Retro Debug', { log: true });
  const manager = new SessionManager({ connectors: CONNECTORS });
  /** adapters VS Code is talking to, with their VS Code debug session, by its id */
  const adapters = new Map<string, { adapter: RetroDebugSession; debug: vscode.DebugSession }>();
  /** the user's debug session on an emulator session: the active one first (the screen panel acts through it) */
  const userDebugging = (sessionId: string) => {
    const active = vscode.debug.activeDebugSession;
    const candidates = [...(active ? [adapters.get(active.id)] : []), ...adapters.values()];
    return candidates.find(
      (c) => c?.adapter.client && !c.adapter.client.closed && c.adapter.client.session.id === sessionId,
    );
  };
  const userAdapter = (sessionId: string) => userDebugging(sessionId)?.adapter;
  const currentSessionId = (): string | undefined => {
    try {
      return manager.get().id;
    } catch {
      return undefined; // no session
    }
  };

  context.subscriptions.push(
    log,
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, {
      createDebugAdapterDescriptor(session) {
        const adapter = new RetroDebugSession(manager, {
          label: `VS Code debug session "${session.name}"`,
          chooseView,
          onRefused: (sentence) => tellRefused(sentence, COMMANDS.takeControl.command),
        });
        adapters.set(session.id, { adapter, debug: session });
        return new vscode.DebugAdapterInlineImplementation(adapter);
      },
    }),
    vscode.debug.onDidTerminateDebugSession((session) => adapters.delete(session.id)),
    registerDisassemblyFallback(DEBUG_TYPE),
    ...registerTimeTravelCommands(DEBUG_TYPE, {
      whoLastWrote: COMMANDS.whoLastWrote.command,
      stepBackOut: COMMANDS.stepBackOut.command,
    }),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, {
      provideDebugConfigurations: (folder) =>
        generatedConfigurations((folder ?? vscode.workspace.workspaceFolders?.[0])?.uri.fsPath),
      async resolveDebugConfiguration(folder, config) {
        const editor = vscode.window.activeTextEditor;
        const document = editor?.document.uri.scheme === 'file' ? editor.document : undefined;
        const result = await resolveDebugConfigurationDefaults(config, {
          workspaceFolder: (folder ?? vscode.workspace.workspaceFolders?.[0])?.uri.fsPath,
          activeFile: document?.uri.fsPath,
          activeLanguageId: document?.languageId,
          mamePathSetting: vscode.workspace.getConfiguration().get<string>(SETTINGS.mamePath) || undefined,
        });
        if ('error' in result) {
          void vscode.window.showErrorMessage(result.error);
          return undefined; // abort the launch; the message says what to fix
        }
        return result.config;
      },
    }),
    // the Run and Debug view's list offers each detected project without a launch.json (C or assembly)
    vscode.debug.registerDebugConfigurationProvider(
      DEBUG_TYPE,
      { provideDebugConfigurations: (folder) => detectedConfigurations(folder?.uri.fsPath) },
      vscode.DebugConfigurationProviderTriggerKind.Dynamic,
    ),
    registerHexViewTracker(),
    registerOpenMemoryCommand(COMMANDS.openMemory.command),
    vscode.commands.registerCommand(COMMANDS.openScreen.command, () => {
      ScreenPanel.show(context.extensionUri, manager, {
        userClient: (id) => userAdapter(id)?.client,
        // through VS Code, which then takes the move's stop as the answer to a request of its own
        userGoTo: (id, frame) => {
          const debug = userDebugging(id)?.debug;
          return debug && Promise.resolve(debug.customRequest(GO_TO_FRAME_REQUEST, { frame })).then(() => undefined);
        },
      });
    }),
    vscode.commands.registerCommand(COMMANDS.takeControl.command, async () => {
      const active = vscode.debug.activeDebugSession;
      const id = (active && adapters.get(active.id)?.adapter.client?.session.id) ?? currentSessionId();
      const adapter = id === undefined ? undefined : userAdapter(id);
      if (!adapter) {
        void vscode.window.showWarningMessage(
          'Take Control needs a Retro Debug session in VS Code: start one with F5, or attach to the running one.',
        );
        return;
      }
      try {
        const lease = adapter.takeControl();
        vscode.window.setStatusBarMessage(`Retro Debug: ${lease.holder.label} has control of the emulator.`, 10_000);
      } catch (err) {
        void vscode.window.showErrorMessage(asRetroError(err).message);
      }
    }),
    new ControlStatusItem(manager, COMMANDS.takeControl.command),
  );

  const problems = new RecentProblems();
  const logProblem = (level: 'warning' | 'error', message: string) => {
    problems.add(level, message);
    if (level === 'error') log.error(message);
    else log.warn(message);
  };
  registerAsmAssociation(context, (m) => logProblem('warning', m));
  registerBuildTasks(context);
  registerTestExplorer(context, TEST_MACHINES);
  context.subscriptions.push(
    ...registerProfiler(
      DEBUG_TYPE,
      {
        profile: COMMANDS.profile.command,
        clear: COMMANDS.clearProfile.command,
        show: COMMANDS.showProfile.command,
        shownKey: PROFILE_SHOWN_KEY,
      },
      TEST_MACHINES,
    ),
  );
  startLanguageClient(context, (p) => readLiveMemory(manager, p)).catch((err: unknown) =>
    logProblem('error', `The Retro Debug language server did not start: ${asRetroError(err).message}`),
  );
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.diagnostics.command, async () => {
      const report = await diagnosticsReport({
        extensionVersion: String(context.extension.packageJSON.version ?? '0'),
        vscodeVersion: vscode.version,
        manager,
        problems,
        connectors: CONNECTORS,
      });
      await vscode.env.clipboard.writeText(report);
      const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: report });
      await vscode.window.showTextDocument(doc);
      void vscode.window.showInformationMessage(
        'Retro Debug diagnostics are on the clipboard, ready for a bug report.',
      );
    }),
  );
  const mcp = setUpMcp(context, manager, log);
  shutdown = async () => {
    ScreenPanel.disposeCurrent();
    await Promise.allSettled([manager.closeAll(), mcp.close()]);
  };
}

/** A refused Pause/step: a notification (never the palette's modal dialog) with the one click that takes control back. */
function tellRefused(sentence: string, takeControl: string): void {
  const takeBack = 'Take Back Control';
  void vscode.window.showWarningMessage(sentence, takeBack).then((choice) => {
    if (choice === takeBack) void vscode.commands.executeCommand(takeControl);
  });
}

export async function deactivate(): Promise<void> {
  await shutdown?.();
  shutdown = undefined;
}

/** Registers the MCP server definition; the HTTP server itself starts on first use. */
function setUpMcp(
  context: vscode.ExtensionContext,
  manager: SessionManager,
  log: vscode.LogOutputChannel,
): { close(): Promise<void> } {
  const token = randomBytes(32).toString('base64url'); // 256 bits, new per activation
  const version = String(context.extension.packageJSON.version ?? '0');
  const settings = () => vscode.workspace.getConfiguration();
  let discoveryFile: string | undefined;
  let forgetExitHook: (() => void) | undefined;

  const endpoint = new LazyMcpEndpoint({
    token,
    start: ({ port, token }) => {
      const profile = settings().get<string>(SETTINGS.mcpProfile) ?? DEFAULT_PROFILE;
      return startHttpMcpServer({
        manager,
        port,
        token,
        profile: isProfile(profile) ? profile : DEFAULT_PROFILE,
        groups: TOOL_GROUPS,
        roots: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
        // getters: a changed setting applies to the next launch
        launchPolicy: {
          get allowAgentLaunchOptions() {
            return settings().get<boolean>(SETTINGS.mcpAllowAgentLaunchOptions, false);
          },
          get mamePath() {
            return settings().get<string>(SETTINGS.mamePath) || undefined;
          },
        },
      });
    },
    choosePort: () => {
      const configured = settings().get<number>(SETTINGS.mcpPort) ?? 0;
      if (configured > 0) return { port: configured, fixed: true };
      return { port: context.globalState.get<number>(PORT_STATE_KEY) ?? 0, fixed: false };
    },
    onStarted: async (server) => {
      log.info(`MCP server listening at ${server.url}`);
      await context.globalState.update(PORT_STATE_KEY, server.port);
      try {
        await pruneStaleDiscoveryFiles();
        discoveryFile = await writeDiscoveryFile({
          pid: process.pid,
          port: server.port,
          url: server.url,
          token: server.token,
          startedAt: Date.now(),
          workspace: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
        });
        forgetExitHook = removeDiscoveryFileOnExit(discoveryFile);
      } catch (err) {
        log.warn(`Could not write the MCP discovery file: ${asRetroError(err).message}`);
      }
    },
  });

  const definitionsChanged = new vscode.EventEmitter<void>();
  const headers = (server: RunningMcpServer | undefined) => ({ Authorization: `Bearer ${server?.token ?? token}` });
  const guessedUri = () =>
    vscode.Uri.parse(
      endpoint.running?.url ?? `http://127.0.0.1:${context.globalState.get<number>(PORT_STATE_KEY) ?? 0}/mcp`,
    );

  context.subscriptions.push(
    definitionsChanged,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SETTINGS.mcpEnabled)) definitionsChanged.fire();
    }),
    vscode.commands.registerCommand(COMMANDS.showMcpConnection.command, async () => {
      if (!settings().get<boolean>(SETTINGS.mcpEnabled, true)) {
        void vscode.window.showWarningMessage(
          `The Retro Debug MCP server is turned off (setting ${SETTINGS.mcpEnabled}).`,
        );
        return;
      }
      let server: RunningMcpServer;
      try {
        server = await endpoint.ensureStarted();
      } catch (err) {
        void vscode.window.showErrorMessage(asRetroError(err).message);
        return;
      }
      await vscode.env.clipboard.writeText(claudeCodeMcpJson(server.url, server.token));
      const codex = 'Copy Codex config.toml';
      const copyToken = 'Copy token';
      const choice = await vscode.window.showInformationMessage(
        `Retro Debug MCP server: ${server.url}. A .mcp.json for Claude Code (with the token) is on the clipboard. ` +
          `For Codex, copy the config.toml section and set ${MCP_TOKEN_ENV} to the token. The token changes when VS Code restarts.`,
        codex,
        copyToken,
      );
      if (choice === codex) await vscode.env.clipboard.writeText(codexConfigToml(server.url));
      if (choice === copyToken) await vscode.env.clipboard.writeText(server.token);
    }),
  );

  // vscode.lm MCP support arrived in 1.101; an older or policy-restricted host simply gets no definition.
  if (typeof vscode.lm?.registerMcpServerDefinitionProvider === 'function') {
    context.subscriptions.push(
      vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
        onDidChangeMcpServerDefinitions: definitionsChanged.event,
        provideMcpServerDefinitions: () =>
          settings().get<boolean>(SETTINGS.mcpEnabled, true)
            ? [new vscode.McpHttpServerDefinition(MCP_PROVIDER_LABEL, guessedUri(), headers(endpoint.running), version)]
            : [],
        async resolveMcpServerDefinition(definition) {
          if (!(definition instanceof vscode.McpHttpServerDefinition)) return definition;
          const server = await endpoint.ensureStarted();
          definition.uri = vscode.Uri.parse(server.url);
          definition.headers = headers(server);
          return definition;
        },
      }),
    );
  }

  return {
    async close() {
      await endpoint.close();
      forgetExitHook?.();
      if (discoveryFile) await removeDiscoveryFile(discoveryFile);
    },
  };
}
