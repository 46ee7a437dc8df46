// Assembles the open Sprinter ROM (rom/sprinter/*.s) with Debian's SDCC assembler into dist/sprinter-rom/: one
// 16 KiB page a source. The session lays them out with the program as MAME's BIOS file (src/machines/sprinter/
// open-rom.ts). Without sdasz80 the build goes on and says so; a Sprinter launch then says what to install.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PAGES = ['boot', 'bios'];
const out = 'dist/sprinter-rom';
const tools = ['sdasz80', 'sdldz80', 'makebin'];
const missing = tools.filter((t) => {
  try {
    execFileSync('sh', ['-c', `command -v ${t}`], { stdio: 'ignore' });
    return false;
  } catch {
    return true;
  }
});
if (missing.length) {
  console.warn(
    `build-sprinter-rom: ${missing.join(', ')} missing (Debian package sdcc): the open Sprinter ROM is not built.`,
  );
  process.exit(0);
}
mkdirSync(out, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'sprinter-rom-'));
try {
  for (const page of PAGES) {
    const rel = join(work, `${page}.rel`);
    const ihx = join(work, `${page}.ihx`);
    execFileSync('sdasz80', ['-o', rel, `rom/sprinter/${page}.s`], { stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync('sdldz80', ['-i', ihx, rel], { stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync('makebin', ['-s', '16384', ihx, join(out, `${page}.bin`)], { stdio: 'inherit' });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
