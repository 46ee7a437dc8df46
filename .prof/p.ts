import { writeFileSync } from 'node:fs';
import { DebugIndex } from '../src/debuginfo/index.js';
import { loadDebugInfo } from '../src/debuginfo/load.js';
import { cc65Dbg, sdccCdb } from '../test/support/debuginfo-gen.js';
const which = process.argv[2];
const path = `/tmp/cdebug-prof/p.${which === 'cdb' ? 'cdb' : 'dbg'}`;
writeFileSync(path, which === 'cdb' ? sdccCdb(3000) : cc65Dbg(3000), 'latin1');
(async () => {
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    new DebugIndex(await loadDebugInfo(path));
    console.log(which, (performance.now() - t).toFixed(1));
  }
})();
