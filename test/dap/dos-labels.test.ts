/**
 * A nasm program's data labels in a DOS debug session without a profile written by hand, over the DAP wire on
 * Debian's native DOSBox: KEYECHO built as F5 builds it (nasm -l, the listing beside the .COM) answers `tag` and
 * `count` in the Debug Console, watches and the hover context with the values the running program has; a listing of another build
 * is not taken (the session starts, the names are unknown).
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { REPO_ROOT } from '../support/zx-fixture.js';
import { RecordingClient } from './dap-client.js';

let dc: RecordingClient | undefined;
afterEach(async () => {
  await dc?.disconnectRequest({ terminateDebuggee: true }).catch(() => undefined);
  await dc?.stop();
  dc = undefined;
});

/** keyecho.asm built in a fresh folder as F5's task builds it; `edit` changes the source first. */
function buildKeyecho(edit: (source: string) => string = (s) => s): string {
  const dir = mkdtempSync(join(tmpdir(), 'dos-labels-'));
  copyFileSync(join(REPO_ROOT, 'test/fixtures/dos/print.inc'), join(dir, 'print.inc'));
  writeFileSync(join(dir, 'keyecho.asm'), edit(readFileSync(join(REPO_ROOT, 'test/fixtures/dos/keyecho.asm'), 'utf8')));
  execFileSync('nasm', ['-f', 'bin', '-l', 'KEYECHO.lst', '-o', 'KEYECHO.COM', 'keyecho.asm'], { cwd: dir });
  return dir;
}

async function launch(dir: string): Promise<RecordingClient> {
  const client = new RecordingClient();
  await client.start();
  await client.initialize();
  await client.launchAndConfigure({
    machine: 'dos',
    program: join(dir, 'KEYECHO.COM'),
    cwd: dir,
    dos: { backend: 'native' },
  });
  return client;
}

const evaluate = (client: RecordingClient, expression: string, context: string) =>
  client.evaluateRequest({ expression, context }).then(
    (r: DebugProtocol.EvaluateResponse) => r.body.result,
    (e: Error) => e,
  );

test(
  'F5-built KEYECHO: tag and count evaluate in the console, watches and hovers, from the listing',
  { timeout: 120_000 },
  async () => {
    const dir = buildKeyecho();
    dc = await launch(dir);
    // the program prints the byte at `tag` in its prompt: "A" (65) until someone changes it
    assert.equal(await evaluate(dc, 'tag', 'repl'), '65');
    assert.equal(await evaluate(dc, 'count', 'hover'), '0');
    const lastkey = await dc.evaluateRequest({ expression: 'lastkey', context: 'watch' });
    assert.match(lastkey.body.type ?? '', /^u16 @ [0-9A-F]{4}:01D3$/);
    // the address nasm's listing gives is where the running program keeps it: write through it, read the name
    const ref = lastkey.body.memoryReference;
    assert.ok(ref);
    await dc.customRequest('writeMemory', { memoryReference: ref, data: Buffer.from([0x34, 0x12]).toString('base64') });
    assert.equal(await evaluate(dc, 'lastkey', 'repl'), String(0x1234));
  },
);

test(
  'a listing of another build is not taken: the session runs, the names are unknown',
  { timeout: 120_000 },
  async () => {
    const dir = buildKeyecho();
    // the program rebuilt with one more instruction at its start, the listing left from the first build
    const listing = readFileSync(join(dir, 'KEYECHO.lst'));
    const source = readFileSync(join(dir, 'keyecho.asm'), 'utf8');
    writeFileSync(join(dir, 'other.asm'), source.replace('start:\n', 'start:\n    nop\n'));
    execFileSync('nasm', ['-f', 'bin', '-o', 'KEYECHO.COM', 'other.asm'], { cwd: dir });
    writeFileSync(join(dir, 'KEYECHO.lst'), listing);
    dc = await launch(dir);
    const tag = await evaluate(dc, 'tag', 'repl');
    assert.ok(
      tag instanceof Error && /neither "screen", a profile symbol nor a DOS address/.test(tag.message),
      String(tag),
    );
    const said = dc.events
      .filter((e) => e.event === 'output')
      .map((e) => (e as DebugProtocol.OutputEvent).body.output)
      .join('');
    assert.match(said, /KEYECHO\.lst is the listing of another build of KEYECHO\.COM/);
    const threads = (await dc.threadsRequest()).body.threads;
    assert.ok(
      threads.some((t) => t.name.startsWith('KEYECHO ')),
      'the program runs',
    );
  },
);
