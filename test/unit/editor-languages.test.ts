import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { contributes } from '../../src/host/manifest.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { ASM_LANGUAGES, detectAsmDialect, dialectOfLanguage } from '../../src/lsp/asm-dialect.js';
import { asmSymbols } from '../../src/lsp/asm-symbols.js';
import { parseToolchainOutput, TOOLCHAIN_FORMATS } from '../../src/lsp/toolchain-messages.js';

const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

test('each dialect is detected from the project files written in it; C and unknown text are not', () => {
  assert.equal(detectAsmDialect('border.s', read('test/fixtures/c64/asmproj/border.s')), 'ca65');
  assert.equal(detectAsmDialect('crt0.s', read('examples/zx-demo/crt0.s')), 'sdas');
  assert.equal(detectAsmDialect('keyecho.asm', read('test/fixtures/dos/keyecho.asm')), 'nasm');
  assert.equal(detectAsmDialect('print.inc', read('test/fixtures/dos/print.inc')), 'nasm');
  assert.equal(detectAsmDialect('main.c', read('test/fixtures/c64/asmproj/main.c')), undefined);
  assert.equal(detectAsmDialect('notes.s', 'shopping list\nmilk\n'), undefined);
  // the dialects' own extensions decide without looking
  assert.equal(detectAsmDialect('x.ca65', ''), 'ca65');
  assert.equal(detectAsmDialect('x.asz80', ''), 'sdas');
  assert.equal(detectAsmDialect('x.nasm', ''), 'nasm');
  assert.equal(detectAsmDialect('x.a', ''), 'acme');
  assert.equal(detectAsmDialect('x.tas', ''), '64tass');
  assert.equal(dialectOfLanguage('retro-nasm'), 'nasm');
  assert.equal(dialectOfLanguage('plaintext'), undefined);
});

test('ACME and 64tass sources are told from ca65 by their own lines, whatever the extension', () => {
  const acme = read('examples/c64-acme/hello.a');
  const tass = read('examples/c64-64tass/hello.asm');
  // the same files under the shared extensions
  for (const ext of ['.asm', '.s']) {
    assert.equal(detectAsmDialect(`hello${ext}`, acme), 'acme');
    assert.equal(detectAsmDialect(`border${ext}`, read('examples/c64-acme/border.a')), 'acme');
    assert.equal(detectAsmDialect(`hello${ext}`, tass), '64tass');
    assert.equal(detectAsmDialect(`border${ext}`, read('examples/c64-64tass/border.asm')), '64tass');
  }
  // ca65 writes 6502 too, with colons on its labels and .org, not `* =`
  for (const f of [
    'test/fixtures/c64/asmproj/border.s',
    'test/fixtures/c64/vic/rasterirq.s',
    'test/fixtures/c64/cia/nmi.s',
  ])
    assert.equal(detectAsmDialect('x.s', read(f)), 'ca65', f);
  for (const f of ['mode13.asm', 'mouse.asm', 'vmodes.asm'])
    assert.equal(detectAsmDialect(f, read(`test/fixtures/dos/${f}`)), 'nasm', f);
});

test('ACME and 64tass labels need no colon; nasm words in the first column are no labels', () => {
  const names = (path: string, dialect: Parameters<typeof asmSymbols>[1]) =>
    asmSymbols(read(path), dialect).map((s) => s.name);
  assert.deepEqual(names('examples/c64-acme/hello.a', 'acme').slice(0, 4), ['basic_end', 'start', 'print', 'printed']);
  assert.deepEqual(names('examples/c64-64tass/border.asm', '64tass'), ['border_up', 'counter']);
  assert.ok(!names('test/fixtures/dos/keyecho.asm', 'nasm').includes('org'));
});

test('the manifest declares a language and grammar per dialect, and the grammar files are theirs', () => {
  const manifest = contributes(CONNECTORS) as {
    languages: { id: string; extensions: string[] }[];
    debuggers: { languages: string[] }[];
    grammars: { language: string; scopeName: string; path: string }[];
  };
  for (const lang of Object.values(ASM_LANGUAGES)) {
    const language = manifest.languages.find((l) => l.id === lang.id) as
      { extensions: string[]; configuration: string } | undefined;
    assert.deepEqual(language?.extensions, lang.extensions);
    // `;` comments: Toggle Line Comment works in every dialect
    assert.equal(JSON.parse(read(language!.configuration)).comments.lineComment, ';');
    const grammarEntry = manifest.grammars.find((g) => g.language === lang.id);
    assert.ok(grammarEntry, `grammar for ${lang.id}`);
    const grammar = JSON.parse(read(grammarEntry.path));
    assert.equal(grammar.scopeName, grammarEntry.scopeName);
    const patterns = grammar.patterns as { match?: string; name?: string }[];
    // every match expression is one JavaScript can compile too (the (?i) flag aside)
    for (const p of patterns) if (p.match) new RegExp(p.match.replace(/^\(\?i\)/, ''), 'i');
    const mnemonic = patterns.find((p) => p.name === 'keyword.mnemonic');
    const probe = { ca65: 'lda', sdas: 'ldir', nasm: 'int', acme: 'lda', '64tass': 'lda' }[lang.dialect];
    assert.match(probe, new RegExp(mnemonic!.match!.replace(/^\(\?i\)/, ''), 'i'));
    // F5 from a file of the language picks Retro Debug without asking
    assert.ok(manifest.debuggers[0].languages.includes(lang.id), `debugger for ${lang.id}`);
  }
});

test('toolchain messages, as the real tools print them, become file/line/severity/message', () => {
  // captured from cc65 2.19, SDCC 4.2.0 and NASM 2.16.01 on Debian (test/lsp runs the tools themselves)
  const output = [
    "bad.c(1): Error: Undefined symbol: 'x'",
    "bad.s(2): Error: ':' expected",
    "und.c:1: warning 112: function 'foo' implicit declaration",
    'badz.s:3: Error: <q> missing or improper operators, terminators, or delimiters',
    'bad.asm:3: error: parser: instruction expected',
    "?ASlink-Warning-Undefined Global '_foo' referenced by module 'und'",
  ].join('\n');
  assert.deepEqual(
    parseToolchainOutput(output).map((m) => [m.file, m.line, m.severity, m.message]),
    [
      ['bad.c', 1, 'error', "Undefined symbol: 'x'"],
      ['bad.s', 2, 'error', "':' expected"],
      ['und.c', 1, 'warning', "function 'foo' implicit declaration"],
      ['badz.s', 3, 'error', '<q> missing or improper operators, terminators, or delimiters'],
      ['bad.asm', 3, 'error', 'parser: instruction expected'],
    ],
  );
  const nasmOnly = TOOLCHAIN_FORMATS.filter((f) => f.owner === 'nasm');
  assert.equal(parseToolchainOutput('bad.asm:3: error: parser: instruction expected', nasmOnly)[0].source, 'nasm');
  const matchers = (contributes(CONNECTORS) as { problemMatchers: { name: string; pattern: { regexp: string } }[] })
    .problemMatchers;
  assert.deepEqual(
    matchers.map((m) => m.name),
    TOOLCHAIN_FORMATS.map((f) => f.name),
  );
  for (const m of matchers)
    assert.equal(m.pattern.regexp, TOOLCHAIN_FORMATS.find((f) => f.name === m.name)!.regexp.source);
});

test("ACME's and 64tass's messages (real output of Debian's acme 0.97 and 64tass 1.58) become problems", () => {
  const only = (owner: string) => TOOLCHAIN_FORMATS.filter((f) => f.owner === owner);
  const acme = [
    'Warning - File bad.a, line 3 (Zone <untitled>): Label name not in leftmost column.',
    'Error - File bad.a, line 2 (Zone <untitled>): Value not defined (foo).',
  ].join('\n');
  assert.deepEqual(
    parseToolchainOutput(acme, only('acme')).map((m) => [m.file, m.line, m.severity, m.message]),
    [
      ['bad.a', 3, 'warning', 'Label name not in leftmost column.'],
      ['bad.a', 2, 'error', 'Value not defined (foo).'],
    ],
  );
  const tass = "bad.asm:2:13: error: not defined symbol 'foo'\n         lda foo\n             ^";
  assert.deepEqual(
    parseToolchainOutput(tass, only('64tass')).map((m) => [m.file, m.line, m.severity, m.message]),
    [['bad.asm', 2, 'error', "not defined symbol 'foo'"]],
  );
  const matchers = (
    contributes(CONNECTORS) as { problemMatchers: { name: string; pattern: Record<string, unknown> }[] }
  ).problemMatchers;
  const acmeMatcher = matchers.find((m) => m.name === 'retro-acme')!;
  assert.deepEqual([acmeMatcher.pattern.severity, acmeMatcher.pattern.file, acmeMatcher.pattern.line], [1, 2, 3]);
});
