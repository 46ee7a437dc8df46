// The 30 raw MAME abilities through the real MCP SDK client on MAME's spectrum, running the SDCC-built ZX fixture
// ROM (it reads keys, draws and has globals to watch). The tests are test/mcp/mame-raw/*.ts, shared with the
// Sprinter's run (mame-raw-sprinter.test.ts); what differs between the machines is in mame-raw/subjects.ts.
import { rawToolsSuite } from './mame-raw/suite.js';
import { SPECTRUM } from './mame-raw/subjects.js';

rawToolsSuite(SPECTRUM);
