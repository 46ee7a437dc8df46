/**
 * The Getting Started walkthrough (`contributes.walkthroughs`): what to install (Diagnostics), the first F5,
 * the screen panel, and connecting an agent. Step links run the extension's own commands; media live under
 * media/walkthrough/ (shipped in the VSIX). test/unit/manifest-sync.test.ts checks every file and command.
 */
export const WALKTHROUGH_ID = 'retro-debug.getStarted';
export const WALKTHROUGH_TITLE = 'Get Started with Retro Debug';

const run = (command: string) => `command:${command}`;

/** `ids`: the commands the steps run (manifest.ts COMMANDS, passed in: manifest.ts imports this file). */
export const walkthroughs = (ids: { diagnostics: string; openScreen: string; showMcpConnection: string }) => [
  {
    id: WALKTHROUGH_ID,
    title: WALKTHROUGH_TITLE,
    description: 'Debug C and assembly on a C64, a ZX Spectrum or DOS — with an AI agent alongside if you like.',
    steps: [
      {
        id: 'install',
        title: 'Check what is installed',
        description: `The built-in C64 needs nothing. The toolchains and other emulators come from your system's packages.\n[Run Diagnostics](${run(ids.diagnostics)})`,
        media: { markdown: 'media/walkthrough/install.md' },
        completionEvents: [`onCommand:${ids.diagnostics}`],
      },
      {
        id: 'firstF5',
        title: 'Press F5 on a program',
        description: `Open a C or assembly file of a cc65, SDCC, nasm, ACME or 64tass project and press F5: no launch.json needed, the project is built first, and the debugger stops at main. Or pick a project here (Retro Debug…, then the project).\n[Pick a Project to Debug](${run('workbench.action.debug.selectandstart')})`,
        media: { image: 'media/walkthrough/first-f5.png', altText: 'F5 from an assembly file: the program runs' },
        completionEvents: ['onDebug'],
      },
      {
        id: 'screen',
        title: 'Watch and use the screen',
        description: `The machine's screen, live while it runs and right at every stop. Click it to type on the machine (Esc gives the keys back); hover to see the byte under the pointer.\n[Show Screen](${run(ids.openScreen)})`,
        media: { image: 'media/walkthrough/screen-panel.png', altText: 'The screen panel at a breakpoint' },
        completionEvents: [`onCommand:${ids.openScreen}`],
      },
      {
        id: 'agents',
        title: 'Connect an AI agent',
        description: `Copilot finds the MCP server by itself; for Claude Code or Codex copy the connection.\n[Show MCP Connection](${run(ids.showMcpConnection)})`,
        media: { markdown: 'media/walkthrough/agents.md' },
        completionEvents: [`onCommand:${ids.showMcpConnection}`],
      },
    ],
  },
];
