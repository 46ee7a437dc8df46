/**
 * Go to Definition and declaration hovers for C over the language server protocol, on a
 * cc65 program of two files and a header built by cl65 (its .dbg in the workspace): locals
 * and parameters, functions and globals defined in another file (not their prototype or
 * extern), tags, typedefs, enum constants, macros, #include files (cc65's own headers too),
 * and a prototype when nothing defines the name.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Hover, Location } from 'vscode-languageserver/node';
import { cc65IncludeFolders } from '../../src/debuginfo/source-near.js';
import { startLspServer, type LspClient } from '../support/lsp-client.js';
import { REPO_ROOT } from '../support/zx-fixture.js';

let ws: string;
let lsp: LspClient;
const file = (name: string) => join(ws, name);

/** The 0-based place of the n-th occurrence of `needle` in a file, plus `offset` characters. */
function at(path: string, needle: string, offset = 1, nth = 0) {
  const lines = readFileSync(path, 'utf8').split('\n');
  let seen = 0;
  for (let line = 0; line < lines.length; line++)
    for (let i = lines[line].indexOf(needle); i >= 0; i = lines[line].indexOf(needle, i + 1))
      if (seen++ === nth) return { line, character: i + offset };
  assert.fail(`${needle} (#${nth}) in ${path}`);
}

async function definition(path: string, needle: string, offset = 1, nth = 0): Promise<string[]> {
  const found = await lsp.connection.sendRequest<Location[] | null>('textDocument/definition', {
    textDocument: { uri: lsp.uri(path) },
    position: at(path, needle, offset, nth),
  });
  return (found ?? []).map((l) => `${l.uri.split('/').pop()}:${l.range.start.line}:${l.range.start.character}`);
}

/** Where a definition should land: the line holding `needle`, at `name` on it. */
function place(name: string, needle: string, path = file(name.split(':')[0])): string {
  const p = at(path, needle, 0);
  const line = readFileSync(path, 'utf8').split('\n')[p.line];
  return `${path.split('/').pop()}:${p.line}:${line.search(new RegExp(`\\b${name.split(':')[1]}\\b`))}`;
}

before(async () => {
  ws = mkdtempSync(join(tmpdir(), 'rd-cdef-'));
  for (const f of ['main.c', 'shapes.c', 'shapes.h'])
    copyFileSync(join(REPO_ROOT, 'test/fixtures/c64/defs', f), file(f));
  // an unbuilt draft that also defines area(): the .dbg says shapes.c is the one built
  writeFileSync(file('draft.c'), 'int area(int a, int b) {\n  return a * b;\n}\n');
  execFileSync('cl65', ['-t', 'c64', '-g', '-Wl', '--dbgfile,defs.dbg', '-o', 'defs.prg', 'main.c', 'shapes.c'], {
    cwd: ws,
  });
  lsp = await startLspServer(ws);
  await lsp.open(file('main.c'), 'c');
});

after(async () => {
  await lsp?.close();
  rmSync(ws, { recursive: true, force: true });
});

test('locals and parameters: the declaration in the function the cursor is in', async () => {
  const main = file('main.c');
  assert.deepEqual(await definition(main, 'sum += '), [place('main.c:sum', 'int sum = 0;')]);
  assert.deepEqual(await definition(main, 'i < n', 4), [place('main.c:n', 'static int total')]);
  assert.deepEqual(await definition(main, '&corners[0], p', 14), [place('main.c:p', 'struct point *p')]);
  // main's `c` is its own local, declared in main
  assert.deepEqual(await definition(main, '+ c +', 2), [place('main.c:c', 'enum colour c')]);
});

test('functions and globals of another file: their definitions, not the prototype or extern', async () => {
  const main = file('main.c');
  assert.deepEqual(await definition(main, 'area(&corners'), [place('shapes.c:area', 'int area(')]);
  assert.deepEqual(await definition(main, '+ drawn', 3), [place('shapes.c:drawn', 'unsigned char drawn;')]);
  assert.deepEqual(await definition(main, 'total(MAX'), [place('main.c:total', 'static int total')]);
  assert.deepEqual(await definition(main, 'corners[1]'), [place('main.c:corners', 'static point_t corners')]);
});

test('types, enum constants and macros from the header; #include opens the file', async () => {
  const main = file('main.c');
  assert.deepEqual(await definition(main, 'static point_t', 8), [
    place('shapes.h:point_t', 'typedef struct point point_t'),
  ]);
  assert.deepEqual(await definition(main, 'struct point *p', 8), [place('shapes.h:point', 'struct point {')]);
  assert.deepEqual(await definition(main, 'GREEN;'), [place('shapes.h:GREEN', 'enum colour {')]);
  assert.deepEqual(await definition(main, 'shade_fn none'), [place('shapes.h:shade_fn', 'typedef unsigned char (*shade_fn)')]); // prettier-ignore
  assert.deepEqual(await definition(main, 'corners[MAX_POINTS]', 9), [place('shapes.h:MAX_POINTS', '#define MAX_POINTS')]); // prettier-ignore
  assert.deepEqual(await definition(main, '"shapes.h"', 2), ['shapes.h:0:0']);
  const conio = join(cc65IncludeFolders()[0], 'conio.h');
  assert.deepEqual(await definition(main, '<conio.h>', 2), ['conio.h:0:0']);
  // cputs is defined in cc65's library: its prototype in conio.h is all there is
  assert.deepEqual(await definition(main, 'cputs('), [place('conio.h:cputs', 'void __fastcall__ cputs', conio)]);
});

test('hover on a name the debug info does not know shows the line that declares it', async () => {
  const main = file('main.c');
  const hover = await lsp.connection.sendRequest<Hover | null>('textDocument/hover', {
    textDocument: { uri: lsp.uri(main) },
    position: at(main, 'sum += '),
  });
  assert.equal((hover?.contents as { value: string }).value, '```c\nint sum = 0;\n```\nmain.c:8');
});
