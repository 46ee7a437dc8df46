// The 30 raw MAME abilities through the real MCP SDK client on MAME's sprinter (MAME >= 0.276, the project's open
// ROM), running the SDCC-built Sprinter test program (a DSS .EXE that prints, polls keys and has globals to watch).
// The same tests as the Spectrum's (test/mcp/mame-raw/*.ts); what differs is in mame-raw/subjects.ts.
import { rawToolsSuite } from './mame-raw/suite.js';
import { SPRINTER } from './mame-raw/subjects.js';

rawToolsSuite(SPRINTER);
