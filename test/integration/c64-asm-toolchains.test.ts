// ACME and 64tass programs debugged at their source lines on the built-in C64: each example under examples/ built
// by the real assembler (Debian's acme, 64tass), its listing read as debug info (ACME's report, 64tass's listing),
// the session stopped at the label the BASIC stub SYSes to, a breakpoint on a source line hit, a step into a
// routine of an included file and out again, the stack and a data label named by the source's labels.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { buildOnce, findMarkers } from '../support/source-build.js';
import { ToolDriver } from '../support/dos-fixture.js';
import { REPO_ROOT } from '../support/c64-fixture.js';

const ASSEMBLERS = [
  {
    name: 'ACME',
    dir: 'c64-acme',
    sources: ['hello.a', 'border.a'],
    listing: 'hello.rep',
    build: (out: string) => ['acme', ['-f', 'cbm', '-o', `${out}/hello.prg`, '-r', `${out}/hello.rep`, 'hello.a']],
  },
  {
    name: '64tass',
    dir: 'c64-64tass',
    sources: ['hello.asm', 'border.asm'],
    listing: 'hello.lst',
    build: (out: string) => [
      '64tass',
      ['-q', '--cbm-prg', '--line-numbers', '-o', `${out}/hello.prg`, `--list=${out}/hello.lst`, 'hello.asm'],
    ],
  },
] as const;

const d = new ToolDriver();
after(() => d.close());

for (const asm of ASSEMBLERS) {
  describe(`${asm.name} on the built-in C64`, () => {
    it('stops at the SYS target, steps into a routine of the included file and out, names frames and data by their labels', async () => {
      const sourceDir = join(REPO_ROOT, 'examples', asm.dir);
      const dir = await buildOnce(
        sourceDir,
        [...asm.sources],
        join(REPO_ROOT, '.test-work', asm.dir),
        'build/hello.prg',
        async (tmp) => {
          const [cmd, args] = asm.build('build') as [string, string[]];
          execFileSync('mkdir', ['-p', join(tmp, 'build')]);
          execFileSync(cmd, args, { cwd: tmp });
        },
      );
      const markers = await findMarkers(asm.sources.map((s) => join(dir, s)));
      const s = await d.call('start_session', {
        machine: 'c64',
        emulator: 'builtin',
        program: join(dir, 'build', 'hello.prg'),
        cwd: dir,
        wait: true,
      });
      const id = s.session_id as string;
      try {
        assert.equal(s.phase, 'ready', JSON.stringify(s.progress));
        assert.ok(
          s.progress.some((l: string) => /Stopped at start \(0x80d\)/.test(l)),
          s.progress.join('\n'),
        );
        const st = await d.call('session_status', { session_id: id });
        assert.deepEqual([st.location?.function, st.location?.line], ['start', markers.print.line - 1]);

        const bp = await d.call('set_breakpoint', { session_id: id, file: asm.sources[0], line: markers.call.line });
        assert.equal(bp.breakpoint.verified, true, JSON.stringify(bp));
        const hit = await d.call('resume', { session_id: id, wait: true });
        assert.deepEqual(
          [hit.location?.function, hit.location?.line],
          ['printed', markers.call.line],
          JSON.stringify(hit),
        );

        // into the JSR: the first line of the routine in the included file, the caller's label below it
        const inside = await d.call('step', { session_id: id, kind: 'into', wait: true });
        const count = markers.count;
        assert.deepEqual([inside.location?.function, inside.location?.line], ['border_up', count.line]);
        assert.match(inside.location?.file ?? '', new RegExp(asm.sources[1].replace('.', '\\.') + '$'));
        const trace = await d.call('backtrace', { session_id: id });
        const names = (trace.frames as { function?: string }[]).map((f) => f.function);
        assert.deepEqual(names.slice(0, 2), ['border_up', 'printed'], JSON.stringify(trace.frames));

        // out again: back after the JSR, the routine having run once
        const out = await d.call('step', { session_id: id, kind: 'out', wait: true });
        assert.deepEqual([out.location?.function, out.location?.line], ['printed', markers.call.line + 1]);
        const counter = await d.call('evaluate', { session_id: id, expression: 'counter' });
        assert.deepEqual([counter.result.type, counter.result.value], ['byte', '1'], JSON.stringify(counter));
      } finally {
        await d.call('stop_session', { session_id: id });
      }
    });
  });
}
