/**
 * Project detection and the build tasks' commands, run for real: the bundled C64, ZX and Sprinter
 * demos, the cc65 project with a ca65 helper and a nasm DOS program are found, each task's
 * command builds the outputs its launch configuration names (which load as debug info),
 * and F5 without launch.json picks the active file's project with its build as preLaunchTask.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { loadDebugInfo } from '../../src/debuginfo/load.js';
import {
  detectedConfigurations,
  generatedConfigurations,
  resolveDebugConfigurationDefaults,
} from '../../src/host/debug-config.js';
import { detectProjects, launchConfigurationFor, taskLabel } from '../../src/host/projects.js';
import { diskProgram } from '../../src/connectors/mame/disk-program.js';
import { REPO_ROOT } from '../support/zx-fixture.js';
import { ODD_NAMES } from '../support/odd-names.js';

let ws: string;
before(() => {
  ws = mkdtempSync(join(tmpdir(), 'rd-projects-'));
  cpSync(join(REPO_ROOT, 'examples/c64-demo'), join(ws, 'c64-demo'), { recursive: true });
  cpSync(join(REPO_ROOT, 'examples/zx-demo'), join(ws, 'zx-demo'), { recursive: true });
  cpSync(join(REPO_ROOT, 'examples/sprinter-demo'), join(ws, 'sprinter-demo'), { recursive: true });
  cpSync(join(REPO_ROOT, 'test/fixtures/c64/asmproj'), join(ws, 'asmproj'), { recursive: true });
  for (const asm of ['c64-acme', 'c64-64tass'])
    cpSync(join(REPO_ROOT, 'examples', asm), join(ws, asm), { recursive: true, filter: (f) => !f.includes('/build') });
  mkdirSync(join(ws, 'dos'));
  for (const f of ['keyecho.asm', 'print.inc']) cpSync(join(REPO_ROOT, 'test/fixtures/dos', f), join(ws, 'dos', f));
});
after(() => rmSync(ws, { recursive: true, force: true }));

test(
  'every project is found and its build task writes the outputs its launch configuration debugs',
  { timeout: 180_000 },
  async () => {
    const projects = await detectProjects(ws);
    assert.deepEqual(
      projects.map((p) => [p.name, p.toolchain]),
      [
        ['asmproj', 'cc65'],
        ['c64-64tass/hello.asm', '64tass'],
        ['c64-acme/hello.a', 'acme'],
        ['c64-demo', 'cc65'],
        ['dos/keyecho.asm', 'nasm'],
        ['sprinter-demo', 'sdcc'],
        ['zx-demo', 'sdcc'],
      ],
    );
    for (const p of projects) {
      execFileSync('sh', ['-c', p.buildCommand], { cwd: p.dir, stdio: 'pipe' });
      assert.ok(existsSync(p.program), `${p.name} built ${p.program}`);
      if (p.debugInfo) {
        const info = await loadDebugInfo(p.debugInfo);
        const entry = info.entry ?? 'main'; // an assembly program's: the label its BASIC stub SYSes to
        assert.ok(
          info.functions.some((f) => f.name === entry),
          `${p.name}: ${entry} in ${p.debugInfo}`,
        );
        if (p.toolchain === 'acme' || p.toolchain === '64tass') assert.equal(entry, 'start');
      }
      const config = launchConfigurationFor(p, ws);
      assert.equal(config.preLaunchTask, taskLabel(p));
      assert.equal(String(config.program).replace('${workspaceFolder}', ws), p.program);
    }
    const [asmproj, tass, acme, c64, dos, sprinter, zx] = projects.map((p) => launchConfigurationFor(p, ws));
    assert.deepEqual(
      [tass.machine, tass.emulator, tass.debugInfo, acme.debugInfo],
      [
        'c64',
        'builtin',
        '${workspaceFolder}/c64-64tass/build/hello.lst',
        '${workspaceFolder}/c64-acme/build/hello.rep',
      ],
    );
    assert.deepEqual(
      [asmproj.machine, asmproj.emulator, asmproj.debugInfo],
      ['c64', 'builtin', '${workspaceFolder}/asmproj/build/asmproj.dbg'],
    );
    assert.deepEqual(
      [c64.program, c64.cwd],
      ['${workspaceFolder}/c64-demo/build/c64-demo.prg', '${workspaceFolder}/c64-demo'],
    );
    assert.deepEqual(
      [zx.machine, zx.program, zx.debugInfo],
      ['spectrum', '${workspaceFolder}/zx-demo/build/zx-demo.rom', '${workspaceFolder}/zx-demo/build/zx-demo.cdb'],
    );
    // crt0 at the DSS load address: a Sprinter program, its Intel HEX loaded as the .EXE it makes
    assert.deepEqual(
      [sprinter.machine, sprinter.name, sprinter.program],
      ['sprinter', 'Retro: sprinter-demo (MAME sprinter)', '${workspaceFolder}/sprinter-demo/build/sprinter-demo.ihx'],
    );
    const exe = await diskProgram('sprinter', projects[5].program);
    assert.deepEqual([exe?.header.load, exe?.header.start], [0x8100, 0x8100]);
    assert.deepEqual(
      [dos.machine, dos.emulator, dos.program],
      ['dos', 'dosbox', '${workspaceFolder}/dos/build/KEYECHO.COM'],
    );

    // "create a launch.json": one configuration per project, each named once
    const generated = await generatedConfigurations(ws);
    assert.equal(generated.length, 7);
    assert.equal(new Set(generated.map((g) => g.name)).size, 7);
    // the Run and Debug view's dynamic list: the same, and nothing (no starter) where no project is
    assert.deepEqual(await detectedConfigurations(ws), generated);
    assert.deepEqual(await detectedConfigurations(join(ws, 'dos', 'build-none')), []);
  },
);

test("F5 without launch.json debugs the active file's project, built first; several projects and no hint are refused", async () => {
  const fromDemo = await resolveDebugConfigurationDefaults(
    {},
    { workspaceFolder: ws, activeFile: join(ws, 'c64-demo', 'demo.c'), activeLanguageId: 'c' },
  );
  assert.ok('config' in fromDemo, JSON.stringify(fromDemo));
  assert.equal(fromDemo.config.preLaunchTask, 'retro: build c64-demo');
  assert.equal(fromDemo.config.machine, 'c64');
  const fromAsm = await resolveDebugConfigurationDefaults(
    {},
    { workspaceFolder: ws, activeFile: join(ws, 'dos', 'keyecho.asm'), activeLanguageId: 'retro-nasm' },
  );
  assert.ok('config' in fromAsm);
  assert.equal(fromAsm.config.machine, 'dos');
  const fromZx = await resolveDebugConfigurationDefaults(
    {},
    { workspaceFolder: ws, activeFile: join(ws, 'zx-demo', 'crt0.s'), activeLanguageId: 'retro-sdas' },
  );
  assert.ok('config' in fromZx);
  assert.equal(fromZx.config.machine, 'spectrum');
  const fromSprinter = await resolveDebugConfigurationDefaults(
    {},
    { workspaceFolder: ws, activeFile: join(ws, 'sprinter-demo', 'demo.c'), activeLanguageId: 'c' },
  );
  assert.ok('config' in fromSprinter);
  assert.deepEqual([fromSprinter.config.machine, fromSprinter.config.emulator], ['sprinter', 'mame']);
  // an ACME file included by the main source: its folder's project, built by acme, run on the built-in C64
  const fromAcme = await resolveDebugConfigurationDefaults(
    {},
    { workspaceFolder: ws, activeFile: join(ws, 'c64-acme', 'border.a'), activeLanguageId: 'plaintext' },
  );
  assert.ok('config' in fromAcme, JSON.stringify(fromAcme));
  assert.deepEqual([fromAcme.config.preLaunchTask, fromAcme.config.machine], ['retro: build c64-acme/hello.a', 'c64']);
  const unsure = await resolveDebugConfigurationDefaults({}, { workspaceFolder: ws });
  assert.ok('error' in unsure);
  assert.match(
    unsure.error,
    /one of the projects \(asmproj, c64-64tass\/hello\.asm, c64-acme\/hello\.a, c64-demo, dos\/keyecho\.asm, sprinter-demo, zx-demo\)/,
  );
});

test('a project at the workspace root is named by its folder in launch configurations, not "."', async () => {
  const [root] = await detectProjects(join(ws, 'zx-demo'));
  assert.equal(root.name, '.');
  const config = launchConfigurationFor(root, join(ws, 'zx-demo'));
  assert.equal(config.name, 'Retro: zx-demo (MAME spectrum)');
});

test('a project folder under an odd name builds: its outputs get a plain name, nothing in the name runs', async () => {
  const base = mkdtempSync(join(tmpdir(), 'rd-odd-projects-'));
  try {
    const names = [...ODD_NAMES.map((n) => n.folder), 'game $(touch pwned) `touch pwned2`'];
    for (const name of names) cpSync(join(REPO_ROOT, 'examples/c64-demo'), join(base, name), { recursive: true });
    const projects = await detectProjects(base);
    assert.equal(projects.length, names.length);
    for (const p of projects) {
      execFileSync('sh', ['-c', p.buildCommand], { cwd: p.dir, stdio: 'pipe' });
      assert.ok(existsSync(p.program), `${p.name} built ${p.program}`);
      assert.match(p.program, /\/build\/[A-Za-z0-9_+-]+\.prg$/);
      assert.ok(existsSync(p.debugInfo!), p.debugInfo);
    }
    for (const p of projects)
      assert.deepEqual(
        readdirSync(p.dir).filter((f) => f.startsWith('pwned')),
        [],
      );
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
