/**
 * The cc65, SDCC and nasm projects in a workspace folder, each with the build that makes
 * its real outputs (into `build/` beside the sources) and the launch configuration that
 * debugs them: the TaskProvider, "create a launch.json" and F5 without launch.json share it.
 *   cc65: the folder's .c files (+ ca65 .s) → cl65 -t c64 -g → NAME.prg + NAME.dbg, built-in C64
 *   SDCC: crt0.s (sdas) + .c → sdcc -mz80 --debug; crt0 at 0 is a ROM: the ZX demo's layout → NAME.rom + NAME.cdb,
 *     MAME spectrum; crt0 at a DSS load address (0x4100 or above) is a Sprinter program: code 0x20 after it, data at
 *     0xA000 → NAME.ihx (the launcher writes it as the .EXE) + NAME.cdb, MAME sprinter
 *   nasm: each .asm with `org 100h` → nasm -f bin → NAME.COM, DOSBox
 *   ACME, 64tass: each main source (one that sets the origin, `* = $0801`) → NAME.prg + the assembler's listing as
 *     debug info (ACME's report, 64tass's --list with --line-numbers), built-in C64
 */
import { readFile } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { detectAsmDialect, type AsmDialect } from '../lsp/asm-dialect.js';
import { DEBUG_TYPE } from '../dap/launch-schema.js';
import { walkWorkspace } from './workspace-walk.js';
import { crt0Origin, sdccLinkLayout, sdccMachineFor, ZX_ROM_SIZE } from '../machines/sdcc-layout.js';

/** A launch.json entry of type "retro" (the LaunchConfig fields plus VS Code's own). */
export interface RetroDebugConfiguration {
  type: string;
  request: string;
  name: string;
  [key: string]: unknown;
}

export type Toolchain = 'cc65' | 'sdcc' | 'nasm' | 'acme' | '64tass';

export interface Project {
  /** folder relative to the workspace ("." for the root), plus the program for nasm */
  name: string;
  dir: string;
  toolchain: Toolchain;
  /** the machine it runs on, where the toolchain builds for more than one (SDCC: spectrum or sprinter) */
  machine?: string;
  sources: string[];
  program: string;
  debugInfo?: string;
  /** shell command line, run in `dir` */
  buildCommand: string;
  problemMatcher: string;
}

export const TASK_TYPE = 'retro-build';
export const TASK_SOURCE = 'retro';
export const taskName = (p: Project) => `build ${p.name}`;
/** How launch.json names the task in `preLaunchTask` (VS Code: "source: name"). */
export const taskLabel = (p: Project) => `${TASK_SOURCE}: ${taskName(p)}`;

const OUT = 'build';
const quote = (s: string) => (/^[\w./+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
/**
 * A build output's name from a folder or source name, in characters every toolchain and the shell take as they are:
 * a folder named `my game`, `Игра` or `$(…)` must neither split the command nor run anything.
 */
const outputStem = (name: string) => name.replace(/[^A-Za-z0-9_+-]+/g, '_').replace(/^[_+-]+|_+$/g, '') || 'program';

async function read(path: string): Promise<string> {
  return readFile(path, 'utf8').catch(() => '');
}

function cc65Project(root: string, dir: string, c: string[], asm: string[]): Project {
  const stem = outputStem(basename(dir));
  const program = `${OUT}/${stem}.prg`;
  const debugInfo = `${OUT}/${stem}.dbg`;
  const sources = [...c, ...asm];
  return {
    name: relative(root, dir) || '.',
    dir,
    toolchain: 'cc65',
    sources,
    program: join(dir, program),
    debugInfo: join(dir, debugInfo),
    // -Ln: the runtime's labels (pushax, incsp2), which the .dbg does not name, for the call stack and Disassembly
    buildCommand: `mkdir -p ${OUT} && cl65 -t c64 -g -O -Wl --dbgfile,${debugInfo} -Ln ${OUT}/${stem}.lbl -o ${program} ${sources.map(quote).join(' ')}`,
    problemMatcher: '$retro-cc65',
  };
}

function sdccProject(root: string, dir: string, c: string[], crt0: string, origin: number): Project {
  const stem = outputStem(basename(dir));
  const rels = c.map((f) => quote(`${OUT}/${basename(f, '.c')}.rel`));
  const compile = c.map((f) => `sdcc -mz80 --debug -c -o ${OUT}/ ${quote(f)}`).join(' && ');
  const machine = sdccMachineFor(origin);
  const dss = machine === 'sprinter';
  const layout = sdccLinkLayout(machine, origin).join(' ');
  const link = `sdcc -mz80 --debug ${layout} --no-std-crt0 -o ${OUT}/${stem}.ihx ${OUT}/crt0.rel ${rels.join(' ')}`;
  const build = `mkdir -p ${OUT} && sdasz80 -l -o ${OUT}/crt0.rel ${quote(crt0)} && ${compile} && ${link}`;
  return {
    name: relative(root, dir) || '.',
    dir,
    toolchain: 'sdcc',
    machine,
    sources: [crt0, ...c],
    program: join(dir, OUT, dss ? `${stem}.ihx` : `${stem}.rom`),
    debugInfo: join(dir, OUT, `${stem}.cdb`),
    buildCommand: dss ? build : `${build} && makebin -s ${ZX_ROM_SIZE} ${OUT}/${stem}.ihx ${OUT}/${stem}.rom`,
    problemMatcher: '$retro-sdcc',
  };
}

function nasmProject(root: string, dir: string, asm: string): Project {
  const stem = outputStem(basename(asm, extname(asm))).toUpperCase();
  const rel = relative(root, dir);
  return {
    name: rel ? `${rel}/${asm}` : asm,
    dir,
    toolchain: 'nasm',
    sources: [asm],
    program: join(dir, OUT, `${stem}.COM`),
    // -l: the listing beside the program names its data labels in the debugger (connectors/dosbox/listing-profile.ts)
    buildCommand: `mkdir -p ${OUT} && nasm -f bin -l ${OUT}/${stem}.lst -o ${OUT}/${stem}.COM ${quote(asm)}`,
    problemMatcher: '$retro-nasm',
  };
}

/** The C64 assemblers whose listings are the debug info (a source is theirs by `detectAsmDialect`), and their builds. */
const C64_ASSEMBLERS = [
  {
    toolchain: 'acme' as const,
    listing: 'rep',
    build: (src: string, stem: string) => `acme -f cbm -o ${OUT}/${stem}.prg -r ${OUT}/${stem}.rep ${quote(src)}`,
    problemMatcher: '$retro-acme',
  },
  {
    toolchain: '64tass' as const,
    listing: 'lst',
    build: (src: string, stem: string) =>
      `64tass -q --cbm-prg --line-numbers -o ${OUT}/${stem}.prg --list=${OUT}/${stem}.lst ${quote(src)}`,
    problemMatcher: '$retro-64tass',
  },
];
/** A main source sets where the program goes (`* = $0801`); included files do not. */
const SETS_ORIGIN = /^\s*\*\s*=\s*\$?[0-9a-f]+/im;

function c64AsmProject(root: string, dir: string, src: string, text: string): Project | undefined {
  if (!SETS_ORIGIN.test(text)) return undefined;
  const dialect = detectAsmDialect(src, text);
  const asm = C64_ASSEMBLERS.find((a) => a.toolchain === dialect);
  if (!asm) return undefined;
  const stem = outputStem(basename(src, extname(src)));
  const rel = relative(root, dir);
  return {
    name: rel ? `${rel}/${src}` : src,
    dir,
    toolchain: asm.toolchain,
    sources: [src],
    program: join(dir, OUT, `${stem}.prg`),
    debugInfo: join(dir, OUT, `${stem}.${asm.listing}`),
    buildCommand: `mkdir -p ${OUT} && ${asm.build(src, stem)}`,
    problemMatcher: asm.problemMatcher,
  };
}

/** Projects under `root`, parents first, in name order within a folder. */
export async function detectProjects(root: string): Promise<Project[]> {
  const found: Project[] = [];
  await walkWorkspace(root, async (dir, files) => {
    if (basename(dir) === OUT) return;
    const dialects = new Map<string, AsmDialect | undefined>();
    for (const f of files.filter((n) => /\.(s|asm)$/i.test(n)))
      dialects.set(f, detectAsmDialect(f, await read(join(dir, f))));
    const c = files.filter((n) => n.endsWith('.c'));
    const ofDialect = (d: AsmDialect) => [...dialects].filter(([, v]) => v === d).map(([f]) => f);
    const crt0 = ofDialect('sdas').find((f) => /crt0/i.test(f));
    if (c.length && crt0) found.push(sdccProject(root, dir, c, crt0, crt0Origin(await read(join(dir, crt0)))));
    else if (c.length) {
      const texts = await Promise.all(c.map((f) => read(join(dir, f))));
      if (texts.some((t) => /#\s*include\s*[<"](c64|cbm|conio|peekpoke)\.h[>"]/.test(t)) || ofDialect('ca65').length)
        found.push(cc65Project(root, dir, c, ofDialect('ca65')));
    }
    for (const src of files.filter((n) => /\.(a|asm|s|a65|tas)$/i.test(n))) {
      const project = c64AsmProject(root, dir, src, await read(join(dir, src)));
      if (project) found.push(project);
    }
    for (const asm of ofDialect('nasm'))
      if (/^\s*org\s+(100h|0x100|256)\b/im.test(await read(join(dir, asm)))) found.push(nasmProject(root, dir, asm));
  });
  return found;
}

/** The project `file` belongs to (the deepest folder holding it), else the only one. */
export function projectFor(projects: Project[], file?: string): Project | undefined {
  const holding = file
    ? projects.filter(
        (p) =>
          !relative(p.dir, file).startsWith('..') && (p.toolchain !== 'nasm' || p.sources.includes(basename(file))),
      )
    : [];
  if (holding.length) return holding.sort((a, b) => b.dir.length - a.dir.length)[0];
  return projects.length === 1 ? projects[0] : undefined;
}

/** The launch configuration that builds (preLaunchTask) and then debugs the project's outputs. */
export function launchConfigurationFor(p: Project, workspaceFolder?: string): RetroDebugConfiguration {
  const inWs = (path: string) => {
    if (!workspaceFolder) return path;
    const rel = relative(workspaceFolder, path).split('\\').join('/');
    return rel ? `\${workspaceFolder}/${rel}` : '${workspaceFolder}';
  };
  const common = { type: DEBUG_TYPE, request: 'launch', preLaunchTask: taskLabel(p), cwd: inWs(p.dir) };
  // a project at the workspace root is named by its folder, not "." ("Retro: . (MAME spectrum)")
  const title = p.name === '.' ? basename(p.dir) || 'program' : p.name;
  if (p.toolchain === 'cc65')
    return {
      ...common,
      name: `Retro: ${title} (built-in C64)`,
      machine: 'c64',
      emulator: 'builtin',
      program: inWs(p.program),
      debugInfo: inWs(p.debugInfo!),
      stopOnEntry: true,
    };
  if (p.toolchain === 'acme' || p.toolchain === '64tass')
    return {
      ...common,
      name: `Retro: ${p.name} (${p.toolchain}, built-in C64)`,
      machine: 'c64',
      emulator: 'builtin',
      program: inWs(p.program),
      debugInfo: inWs(p.debugInfo!),
      stopOnEntry: true,
    };
  if (p.toolchain === 'sdcc')
    return {
      ...common,
      name: `Retro: ${title} (MAME ${p.machine})`,
      machine: p.machine,
      emulator: 'mame',
      program: inWs(p.program),
      debugInfo: inWs(p.debugInfo!),
      stopOnEntry: true,
    };
  return { ...common, name: `Retro: ${title} (DOSBox)`, machine: 'dos', emulator: 'dosbox', program: inWs(p.program) };
}
