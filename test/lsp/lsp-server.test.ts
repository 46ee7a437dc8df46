/**
 * The language server over stdio under plain Node, on a workspace built with the real
 * toolchains: a cc65 project with a ca65 helper (cl65 writes its .dbg), the SDCC ZX demo
 * and the nasm DOS programs. Hovers in C and in each assembler, definitions, references,
 * symbols, code lens from the debug info, the live value through retro/readMemory, and
 * diagnostics from a failing build.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { CodeLens, DocumentSymbol, Hover, Location, SymbolInformation } from 'vscode-languageserver/node';
import { startLspServer, type LspClient } from '../support/lsp-client.js';
import { REPO_ROOT } from '../support/zx-fixture.js';

let ws: string;
let lsp: LspClient;
const c64 = () => join(ws, 'c64');

function lineOf(path: string, needle: string): { line: number; character: number } {
  const lines = readFileSync(path, 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  assert.ok(line >= 0, `${needle} in ${path}`);
  return { line, character: lines[line].indexOf(needle) };
}

async function hover(path: string, needle: string, offset = 1): Promise<string> {
  const at = lineOf(path, needle);
  const result = await lsp.connection.sendRequest<Hover | null>('textDocument/hover', {
    textDocument: { uri: lsp.uri(path) },
    position: { line: at.line, character: at.character + offset },
  });
  return result ? (result.contents as { value: string }).value : '';
}

before(async () => {
  ws = mkdtempSync(join(tmpdir(), 'rd-lsp-'));
  mkdirSync(c64());
  for (const f of ['main.c', 'border.s']) copyFileSync(join(REPO_ROOT, 'test/fixtures/c64/asmproj', f), join(c64(), f));
  execFileSync('cl65', ['-t', 'c64', '-g', '-Wl', '--dbgfile,asmproj.dbg', '-o', 'asmproj.prg', 'main.c', 'border.s'], {
    cwd: c64(),
  });
  mkdirSync(join(ws, 'zx'));
  for (const f of ['demo.c', 'crt0.s']) copyFileSync(join(REPO_ROOT, 'examples/zx-demo', f), join(ws, 'zx', f));
  mkdirSync(join(ws, 'dos'));
  for (const f of ['keyecho.asm', 'print.inc'])
    copyFileSync(join(REPO_ROOT, 'test/fixtures/dos', f), join(ws, 'dos', f));
  lsp = await startLspServer(ws);
  await lsp.open(join(c64(), 'main.c'), 'c');
  await lsp.open(join(c64(), 'border.s'), 'retro-ca65');
  await lsp.open(join(ws, 'zx', 'crt0.s'), 'retro-sdas');
  await lsp.open(join(ws, 'dos', 'keyecho.asm'), 'retro-nasm');
});

after(async () => {
  await lsp?.close();
  rmSync(ws, { recursive: true, force: true });
});

test('hover in ca65: $D020 is the VIC-II border colour register; an equate expands to it', async () => {
  const border = join(c64(), 'border.s');
  const direct = await hover(border, '$D020');
  assert.match(direct, /\*\*EXTCOL\*\* — \$D020 \(c64\)/);
  assert.match(direct, /border colou?r/i);
  const viaEquate = await hover(border, 'sta VIC_BORDER', 5);
  assert.match(viaEquate, /VIC_BORDER = \$D020 → \$D020/);
  assert.match(viaEquate, /EXTCOL/);
});

test('hover in C: VIC.bordercolor, a #define that expands to the address, and bit fields of $D011', async () => {
  const main = join(c64(), 'main.c');
  assert.match(await hover(main, 'VIC.bordercolor', 5), /\*\*EXTCOL\*\* — \$D020/);
  const define = await hover(main, 'BORDER_REG = ', 2);
  assert.match(define, /BORDER_REG = .*0xD020.* → \$D020/);
  assert.match(define, /EXTCOL/);
  assert.match(await hover(main, '0xD020', 2), /EXTCOL/);
});

test('hover: the C64 bit fields, ZX ports in sdas, DOS int 21h with AH and 0040:0017', async () => {
  const tmp = join(c64(), 'scroll.s');
  writeFileSync(tmp, '        lda $D011\n        sta 53265\n');
  await lsp.open(tmp, 'retro-ca65');
  const scroly = await hover(tmp, '$D011');
  assert.match(scroly, /SCROLY/);
  assert.match(scroly, /\| 4 \| VIC_DEN: display enable \|/);
  assert.match(await hover(tmp, '53265'), /SCROLY/);

  const zx = join(ws, 'zx', 'ports.s');
  writeFileSync(zx, '        .area _CODE\n        ld a,#2\n        out (0xFE),a\n        ld hl,#0x5800\n');
  await lsp.open(zx, 'retro-sdas');
  const ula = await hover(zx, '0xFE', 2);
  assert.match(ula, /\*\*ULA\*\* — port #FE \(zx\)/);
  assert.match(ula, /\| 0-2 \| write: border colour/);
  assert.match(await hover(zx, '0x5800', 2), /SCREEN_ATTRIBUTES/);

  const dos = join(ws, 'dos', 'keyecho.asm');
  const int21 = await hover(dos, 'int 21h', 5);
  assert.match(int21, /\*\*WRITE_STRING\*\* — INT 21h AH=09h/);
  const bda = join(ws, 'dos', 'flags.asm');
  writeFileSync(bda, 'org 100h\n    mov al, [es:0x17]   ; 0040:0017 keyboard flags\n    int 16h\n');
  await lsp.open(bda, 'retro-nasm');
  const flags = await hover(bda, '0040:0017', 2);
  assert.match(flags, /\*\*KBD_FLAGS\*\* — 0040:0017 \(dos\)/);
  assert.match(flags, /\| 6 \| Caps Lock on \|/);
});

test('hover adds the live value the client reads from a stopped session', async () => {
  const asked: unknown[] = [];
  lsp.readMemory = (p) => {
    asked.push(p);
    return { bytes: [0x0e], session: 's1', state: 'stopped' };
  };
  try {
    const text = await hover(join(c64(), 'border.s'), '$D020');
    assert.deepEqual(asked, [{ machine: 'c64', address: 0xd020, size: 1 }]);
    assert.match(text, /Live value \(session s1, stopped\): `\$0E` = 14 = %00001110/);
  } finally {
    lsp.readMemory = () => null;
  }
  assert.doesNotMatch(await hover(join(c64(), 'border.s'), '$D020'), /Live value/);
});

test('definition and references of an assembly label, from C and from assembly', async () => {
  const main = join(c64(), 'main.c');
  const border = join(c64(), 'border.s');
  const at = lineOf(main, 'set_border(COLOR_BLACK)');
  const defs = await lsp.connection.sendRequest<Location[]>('textDocument/definition', {
    textDocument: { uri: lsp.uri(main) },
    position: { line: at.line, character: at.character + 2 },
  });
  assert.deepEqual(
    defs.map((d) => [d.uri, d.range.start.line]),
    [[lsp.uri(border), lineOf(border, '.proc _set_border').line]],
  );
  const loop = lineOf(border, 'bne loop');
  const localDef = await lsp.connection.sendRequest<Location[]>('textDocument/definition', {
    textDocument: { uri: lsp.uri(border) },
    position: { line: loop.line, character: loop.character + 5 },
  });
  assert.deepEqual(
    localDef.map((d) => d.range.start.line),
    [lineOf(border, 'loop:').line],
  );
  const refs = await lsp.connection.sendRequest<Location[]>('textDocument/references', {
    textDocument: { uri: lsp.uri(border) },
    position: { line: lineOf(border, '.proc _set_border').line, character: 8 },
    context: { includeDeclaration: true },
  });
  const where = refs.map((r) => `${r.uri.split('/').pop()}:${r.range.start.line + 1}`).sort();
  // the export, the .proc in border.s; the prototype and the call in main.c
  assert.deepEqual(
    where,
    [
      `border.s:${lineOf(border, '.export').line + 1}`,
      `border.s:${lineOf(border, '.proc _set_border').line + 1}`,
      `main.c:${lineOf(main, 'void __fastcall__ set_border').line + 1}`,
      `main.c:${lineOf(main, 'set_border(COLOR_BLACK)').line + 1}`,
    ].sort(),
  );
});

test('symbols: assembly labels per document; C functions and globals from the .dbg with addresses and sizes', async () => {
  const border = join(c64(), 'border.s');
  const asm = await lsp.connection.sendRequest<DocumentSymbol[]>('textDocument/documentSymbol', {
    textDocument: { uri: lsp.uri(border) },
  });
  assert.deepEqual(
    asm.map((s) => s.name),
    ['VIC_BORDER', '_set_border', '_flash_border', 'loop'],
  );
  const main = join(c64(), 'main.c');
  const c = await lsp.connection.sendRequest<DocumentSymbol[]>('textDocument/documentSymbol', {
    textDocument: { uri: lsp.uri(main) },
  });
  const dbg = readFileSync(join(c64(), 'asmproj.dbg'), 'utf8');
  const sym = (name: string) => {
    const m = new RegExp(`name="${name}",addrsize=absolute,(?:size=(\\d+),)?.*?val=0x([0-9A-F]+)`).exec(dbg)!;
    return { size: m[1], address: m[2].padStart(4, '0') };
  };
  const paint = sym('_paint');
  const byName = Object.fromEntries(c.map((s) => [s.name, s.detail]));
  assert.equal(byName.paint, `${paint.size} bytes at $${paint.address}`);
  assert.equal(byName.frames, `unsigned char, 1 bytes at $${sym('_frames').address}`);
  assert.equal(c.find((s) => s.name === 'main')?.range.start.line, lineOf(main, 'int main(void)').line);
  const all = await lsp.connection.sendRequest<SymbolInformation[]>('workspace/symbol', { query: 'border' });
  const names = all.map((s) => s.name);
  for (const n of ['_set_border', '_flash_border', 'VIC_BORDER']) assert.ok(names.includes(n), `${n} in ${names}`);
  const lenses = await lsp.connection.sendRequest<CodeLens[]>('textDocument/codeLens', {
    textDocument: { uri: lsp.uri(main) },
  });
  assert.deepEqual(
    lenses.map((l) => [l.range.start.line, l.command?.title]),
    [
      [lineOf(main, 'static void paint').line, `${paint.size} bytes at $${paint.address}`],
      [lineOf(main, 'int main(void)').line, `${sym('_main').size} bytes at $${sym('_main').address}`],
    ],
  );
});

test('diagnostics from a failing build: cc65, ca65, sdas and nasm messages land on their lines', async () => {
  const cases: [string, string, string, string, RegExp][] = [
    ['c64', 'bad.c', 'c', '#include <c64.h>\nint main(void) {\n  return missing;\n}\n', /Undefined symbol: 'missing'/],
    ['c64', 'bad.s', 'retro-ca65', '        lda #1\n        bogus 12\n', /expected|garbage/i],
    ['zx', 'bad.s', 'retro-sdas', '        .area _CODE\n        ld a,#1\n        ld (hl, a\n', /missing or improper/],
    ['dos', 'bad.asm', 'retro-nasm', 'org 100h\n    mov ax, 1\n    blah blah\n', /instruction expected/],
  ];
  for (const [dir, name, languageId, text, message] of cases) {
    const path = join(ws, dir, name);
    writeFileSync(path, text);
    await lsp.open(path, languageId);
    const { diagnostics } = await lsp.diagnostics(path, 30_000);
    const lastLine = text.trimEnd().split('\n').length - 1;
    assert.ok(diagnostics.length >= 1, `${name}: ${JSON.stringify(diagnostics)}`);
    assert.match(diagnostics[0].message, message);
    assert.equal(diagnostics[0].severity, 1, 'error');
    assert.ok(
      diagnostics.every((d) => d.range.start.line >= 1 && d.range.start.line <= lastLine),
      name,
    );
  }
  // a unit-test file is checked with retro_test.h on the include path, as its build has it: only its own error shows
  const testFile = join(ws, 'c64', 'tests.c');
  writeFileSync(testFile, '#define RETRO_TEST_MAIN\n#include "retro_test.h"\nTEST(t) {\n  EXPECT_EQ(1, missing);\n}\n');
  await lsp.open(testFile, 'c');
  const { diagnostics: inTest } = await lsp.diagnostics(testFile, 30_000);
  assert.deepEqual(
    inTest.filter((d) => d.severity === 1).map((d) => [d.range.start.line, d.message]),
    [[3, "Undefined symbol: 'missing'"]],
  );
  // fixing the file and saving it clears its problems; its include is found, its map is not written beside it
  const fixed = join(ws, 'dos', 'bad.asm');
  writeFileSync(fixed, '[map symbols bad.map]\norg 100h\n    call putc\n    ret\n%include "print.inc"\n');
  await lsp.connection.sendNotification('textDocument/didClose', { textDocument: { uri: lsp.uri(fixed) } });
  await lsp.open(fixed, 'retro-nasm');
  const deadline = Date.now() + 30_000;
  while ((await lsp.diagnostics(fixed, 30_000)).diagnostics.length && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual((await lsp.diagnostics(fixed, 1000)).diagnostics, []);
  assert.equal(existsSync(join(ws, 'dos', 'bad.map')), false, "the check wrote nasm's map into the user's folder");
});

test('a rebuild refreshes the code lens: the server asks the client to, and the new size is shown', async () => {
  const main = join(c64(), 'main.c');
  const dbgPath = join(c64(), 'asmproj.dbg');
  const paintSize = () =>
    /name="_paint",addrsize=absolute,size=(\d+),/.exec(readFileSync(dbgPath, 'utf8'))?.[1] ?? 'none';
  const lensOfPaint = async () =>
    (
      await lsp.connection.sendRequest<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: lsp.uri(main) } })
    ).find((l) => l.range.start.line === lineOf(main, 'static void paint').line)?.command?.title;
  const before = paintSize();
  assert.match((await lensOfPaint()) ?? '', new RegExp(`^${before} bytes`));
  // the same lines, more code in paint(): what a build after an edit writes
  writeFileSync(main, readFileSync(main, 'utf8').replace('  ++frames;', '  ++frames; ++frames;'));
  execFileSync('cl65', ['-t', 'c64', '-g', '-Wl', '--dbgfile,asmproj.dbg', '-o', 'asmproj.prg', 'main.c', 'border.s'], {
    cwd: c64(),
  });
  assert.notEqual(paintSize(), before, 'the rebuild changed the size');
  const refreshed = lsp.nextLensRefresh(10_000);
  // what the client's file watcher on **/*.dbg sends
  await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: lsp.uri(dbgPath), type: 2 }],
  });
  await refreshed;
  assert.match((await lensOfPaint()) ?? '', new RegExp(`^${paintSize()} bytes`));
});

test('lenses once: a second build of the same sources (F5 writes build/) and a comment naming a function add none', async () => {
  const main = join(c64(), 'main.c');
  const text = readFileSync(main, 'utf8');
  writeFileSync(main, `/* paint(\n   is called by main() each frame */\n// see paint(x) below\n${text}`);
  mkdirSync(join(c64(), 'build'), { recursive: true });
  const refreshed = lsp.nextLensRefresh(10_000);
  execFileSync(
    'cl65',
    ['-t', 'c64', '-g', '-Wl', '--dbgfile,build/c64.dbg', '-o', 'build/c64.prg', 'main.c', 'border.s'],
    { cwd: c64() },
  );
  await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: lsp.uri(join(c64(), 'build', 'c64.dbg')), type: 1 }],
  });
  await refreshed;
  await lsp.connection.sendNotification('textDocument/didClose', { textDocument: { uri: lsp.uri(main) } });
  await lsp.open(main, 'c');
  const lenses = await lsp.connection.sendRequest<CodeLens[]>('textDocument/codeLens', {
    textDocument: { uri: lsp.uri(main) },
  });
  assert.deepEqual(
    lenses.map((l) => l.range.start.line),
    [lineOf(main, 'static void paint').line, lineOf(main, 'int main(void)').line],
    JSON.stringify(lenses),
  );
  const symbols = await lsp.connection.sendRequest<DocumentSymbol[]>('textDocument/documentSymbol', {
    textDocument: { uri: lsp.uri(main) },
  });
  const names = symbols.map((x) => x.name).filter((n) => n === 'paint' || n === 'main');
  assert.deepEqual(names.sort(), ['main', 'paint'], 'each function once in the outline');
});
