/**
 * A click on the screen panel opens the address under the pointer in VS
 * Code's memory view: the hex editor over the debug session's memory (the
 * `vscode-debug-memory` document DAP readMemory serves, as "View Binary Data"
 * on a variable opens). Without a Retro Debug session or the Hex Editor
 * extension the built-in hex view opens; without a session it says so. The VS Code
 * calls come in as parameters so this is testable without VS Code.
 */
import { hex } from '../core/hex.js';
import { parseMemoryReference } from '../core/memory-reference.js';

export interface MemoryViewHost {
  /** the active debug session, if any */
  session(): { id: string; type: string } | undefined;
  /** the Hex Editor extension is installed (without it VS Code opens the bytes as text, which helps nobody) */
  hasHexEditor(): boolean;
  /** vscode.commands.executeCommand('vscode.openWith', uri, viewType) with the URI's parts */
  openWith(
    uri: { scheme: string; authority: string; path: string; query: string },
    viewType: string,
  ): Thenable<unknown>;
  showInformation(text: string): void;
  /** the built-in hex view (ui/hex-view.ts), for a VS Code without the Hex Editor */
  openBuiltIn(reference: string): void;
}

export const HEX_EDITOR = 'hexEditor.hexedit';
export const HEX_EDITOR_ID = 'ms-vscode.hexeditor';
/** bytes shown from the address */
const RANGE = 256;

/** `reference`: a DAP memory reference (core/memory-reference.ts), given back to readMemory as it is */
export function memoryViewUri(sessionId: string, reference: string) {
  return {
    scheme: 'vscode-debug-memory',
    authority: sessionId,
    path: `/${encodeURIComponent(reference)}/memory.bin`,
    query: `range=0:${RANGE}`,
  };
}

/** Resolves to how it went: 'opened' in the hex editor, or 'told' (an information message). */
export async function openMemory(host: MemoryViewHost, reference: string): Promise<'opened' | 'told'> {
  let address;
  try {
    address = parseMemoryReference(reference);
  } catch (err) {
    host.showInformation((err as Error).message);
    return 'told';
  }
  const where = `${address.space === 'cpu' ? '' : `${address.space} `}${hex(address.offset, 1, '$')}`;
  const session = host.session();
  if (session?.type !== 'retro') {
    host.showInformation(`Address ${where}: start a Retro Debug session to open it in a memory view.`);
    return 'told';
  }
  if (!host.hasHexEditor()) {
    host.openBuiltIn(reference);
    return 'opened';
  }
  try {
    await host.openWith(memoryViewUri(session.id, reference), HEX_EDITOR);
    return 'opened';
  } catch (err) {
    host.showInformation(`Address ${where}: the hex editor did not open (${(err as Error).message}).`);
    return 'told';
  }
}
