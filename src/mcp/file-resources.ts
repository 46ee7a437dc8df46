/**
 * Files the tools write (screenshots, dumps, recordings, label files) as MCP
 * resources: a reply links each file it wrote (`resource_link`), and the link
 * reads back through resources/read, for files inside this connection's
 * allowed roots only (the output folder, the workspace, the client's roots),
 * checked again on every read. resources/list shows the files written on
 * this connection.
 */
import { extname } from 'node:path';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readToolFile, type FileContext } from './tool-files.js';

const FILE_PREFIX = 'retro-debug://file';
/** What resources/read hands back at most (a 64 KiB dump, a recording of a few seconds). */
const MAX_FILE_BYTES = 32 << 20;

const MIME: Record<string, string> = {
  '.png': 'image/png',
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.lbl': 'text/plain',
  '.wav': 'audio/wav',
  '.avi': 'video/x-msvideo',
  '.zmbv': 'video/x-msvideo',
};
const isText = (mime: string) => mime.startsWith('text/') || mime === 'application/json';

export function fileMimeType(path: string): string {
  return MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** retro-debug://file/abs/path/name.png for /abs/path/name.png */
export function fileResourceUri(path: string): string {
  return FILE_PREFIX + encodeURI(path.startsWith('/') ? path : `/${path}`);
}

/** The reply's links to the files the call wrote, after its other content. */
export function withFileLinks(result: CallToolResult, written: readonly string[]): CallToolResult {
  if (!written.length || result.isError) return result;
  const links = [...new Set(written)].map((path) => ({
    type: 'resource_link' as const,
    uri: fileResourceUri(path),
    name: path.split('/').pop() ?? path,
    mimeType: fileMimeType(path),
  }));
  return { ...result, content: [...result.content, ...links] };
}

/** Serves the written files back; `written` lists this connection's (newest last). */
export function registerFileResources(server: McpServer, files: FileContext, written: () => readonly string[]): void {
  server.registerResource(
    'written-file',
    new ResourceTemplate(`${FILE_PREFIX}/{+path}`, {
      list: () => ({
        resources: [...new Set(written())].map((path) => ({
          uri: fileResourceUri(path),
          name: path.split('/').pop() ?? path,
          mimeType: fileMimeType(path),
        })),
      }),
    }),
    { description: 'a file a tool wrote (screenshot, dump, recording), inside the allowed roots' },
    async (uri) => {
      const path = decodeURI(uri.pathname);
      const { data } = await readToolFile(files, path, { maxBytes: MAX_FILE_BYTES, what: 'written file' });
      const mimeType = fileMimeType(path);
      return {
        contents: [
          isText(mimeType)
            ? { uri: uri.href, mimeType, text: data.toString('utf8') }
            : { uri: uri.href, mimeType, blob: data.toString('base64') },
        ],
      };
    },
  );
}
