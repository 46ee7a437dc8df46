/**
 * MCP resources: what an agent reads rather than calls. Machine knowledge is
 * served from the data the decoders use (src/machines/, generated here, never
 * retyped): the C64 symbol profile and its VIC-II/SID/CIA groups, the ZX
 * Spectrum memory map and ports, the Sprinter ports, memory windows and video
 * modes, the DOS BIOS data area and interrupt summaries (INT 10h/16h/21h/33h).
 * Per session: the current screen as a PNG and the loaded program's source
 * files. Files the tools write: file-resources.ts.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SessionManagerApi } from '../session/types.js';
import { C64_SYMBOL_PROFILE } from '../machines/c64/symbol-profile.js';
import { ZX_MEMORY, ZX_PORTS } from '../machines/zx/hardware.js';
import { SPRINTER_PORTS } from '../machines/sprinter/ports.js';
import { GRAPHICS_PAGES, PAGE_PORTS, WINDOW_SIZE } from '../machines/sprinter/windows.js';
import {
  MODE_COLUMN,
  PALETTE_COLUMN,
  SETVMOD_MODES,
  SQUARE_MODES,
  VRAM_ROW,
  VRAM_SIZE,
} from '../machines/sprinter/video.js';
import { BDA_FIELDS, DOS_INTERRUPTS } from '../machines/dos/reference.js';
import { encodePngOffThread } from '../core/png-off-thread.js';
import { readRegularFile } from '../core/files.js';
import { notFound } from '../core/errors.js';

export const RESOURCE_SCHEME = 'retro-debug://';
/** Source files are small; a bigger one is no C source of a retro program. */
const MAX_SOURCE_BYTES = 1 << 20;

/** Hex keys ("0xFE") for tables keyed by port or function number. */
function hexKeyed<T>(table: Record<number, T>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(table).map(([k, v]) => [`0x${Number(k).toString(16).toUpperCase().padStart(2, '0')}`, v]),
  );
}

const profileGroups = (...ids: string[]) => ({
  machine: C64_SYMBOL_PROFILE.machine,
  groups: C64_SYMBOL_PROFILE.groups.filter((g) => ids.includes(g.id)),
});

/** name, path after the scheme, description, and the JSON it serves. */
export const KNOWLEDGE: { name: string; path: string; description: string; data: () => unknown }[] = [
  {
    name: 'c64-symbol-profile',
    path: 'c64/symbol-profile',
    description: 'C64 symbol profile: hardware registers, KERNAL entry points, vectors and workspace, by group',
    data: () => C64_SYMBOL_PROFILE,
  },
  {
    name: 'c64-vic-ii',
    path: 'c64/vic-ii',
    description: 'C64 VIC-II registers ($D000-$D02E)',
    data: () => profileGroups('vic_ii'),
  },
  { name: 'c64-sid', path: 'c64/sid', description: 'C64 SID registers ($D400-)', data: () => profileGroups('sid') },
  {
    name: 'c64-cia',
    path: 'c64/cia',
    description: 'C64 CIA 1 and 2 registers ($DC00-, $DD00-)',
    data: () => profileGroups('cia1', 'cia2'),
  },
  { name: 'zx-memory-map', path: 'zx/memory-map', description: 'ZX Spectrum memory map', data: () => ZX_MEMORY },
  { name: 'zx-ports', path: 'zx/ports', description: 'ZX Spectrum I/O ports', data: () => hexKeyed(ZX_PORTS) },
  {
    name: 'sprinter-ports',
    path: 'sprinter/ports',
    description: 'Sprinter I/O ports',
    data: () => hexKeyed(SPRINTER_PORTS),
  },
  {
    name: 'sprinter-windows',
    path: 'sprinter/windows',
    description: 'Sprinter memory windows (page ports, window size, graphics pages) and VRAM geometry',
    data: () => ({
      window_size: WINDOW_SIZE,
      page_ports: PAGE_PORTS.map((p) => `0x${p.toString(16).toUpperCase()}`),
      graphics_pages: GRAPHICS_PAGES,
      vram: { row_bytes: VRAM_ROW, size: VRAM_SIZE },
    }),
  },
  {
    name: 'sprinter-video-modes',
    path: 'sprinter/video-modes',
    description: 'Sprinter video: the SETVMOD modes, the per-square mode table, palettes and text in VRAM',
    data: () => ({
      setvmod: hexKeyed(SETVMOD_MODES),
      vram: { row_bytes: VRAM_ROW, size: VRAM_SIZE, mode_table_column: MODE_COLUMN, palette_column: PALETTE_COLUMN },
      ...SQUARE_MODES,
    }),
  },
  {
    name: 'dos-bda',
    path: 'dos/bda',
    description: 'DOS: the BIOS data area (0040:0000) fields',
    data: () => BDA_FIELDS,
  },
  {
    name: 'dos-interrupts',
    path: 'dos/interrupts',
    description: 'DOS: INT 10h, 16h, 21h (by AH) and 33h mouse (by AX) functions in summary',
    data: () =>
      Object.fromEntries(
        Object.entries(hexKeyed(DOS_INTERRUPTS)).map(([n, i]) => [n, { ...i, functions: hexKeyed(i.functions) }]),
      ),
  },
];

export function registerResources(server: McpServer, manager: SessionManagerApi): void {
  for (const k of KNOWLEDGE) {
    const uri = `${RESOURCE_SCHEME}${k.path}`;
    server.registerResource(k.name, uri, { description: k.description, mimeType: 'application/json' }, () => ({
      contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(k.data(), null, 1) }],
    }));
  }

  server.registerResource(
    'session-screen',
    new ResourceTemplate(`${RESOURCE_SCHEME}session/{session_id}/screen`, {
      list: () => ({
        resources: manager.list().map((s) => ({
          uri: `${RESOURCE_SCHEME}session/${s.id}/screen`,
          name: `screen of ${s.id}`,
          mimeType: 'image/png',
        })),
      }),
    }),
    { description: "a session's screen now, as PNG", mimeType: 'image/png' },
    async (uri, { session_id }) => {
      const png = await encodePngOffThread(await manager.get(String(session_id)).screenshot());
      return { contents: [{ uri: uri.href, mimeType: 'image/png', blob: png.toString('base64') }] };
    },
  );

  server.registerResource(
    'session-source',
    new ResourceTemplate(`${RESOURCE_SCHEME}session/{session_id}/source/{+file}`, {
      list: () => ({
        resources: manager.list().flatMap((s) =>
          s
            .sourceFiles()
            .filter((f) => f.path)
            .map((f) => ({
              uri: `${RESOURCE_SCHEME}session/${s.id}/source/${f.file}`,
              name: `${f.file} (${s.id})`,
              mimeType: 'text/x-c',
            })),
        ),
      }),
    }),
    { description: "a source file of a session's loaded program", mimeType: 'text/x-c' },
    async (uri, { session_id, file }) => {
      const session = manager.get(String(session_id));
      const name = decodeURIComponent(String(file));
      const found = session.sourceFiles().find((f) => f.file === name);
      if (!found?.path)
        throw notFound(
          `Session ${session.id} has no source file ${name} on disk (its files: ${session
            .sourceFiles()
            .map((f) => f.file)
            .join(', ')}).`,
        );
      const text = (await readRegularFile(found.path, { maxBytes: MAX_SOURCE_BYTES, what: 'source file' })).toString();
      return { contents: [{ uri: uri.href, mimeType: 'text/x-c', text }] };
    },
  );
}
