/**
 * The built-in hex view, for a VS Code without the Hex Editor extension: a webview that reads and writes the
 * session's memory through DAP readMemory/writeMemory (so the lease and time-travel rules of the adapter apply),
 * follows an address, memory reference (`vram:0x3718`, `cpu@3:0x8000`) or C expression re-evaluated at each stop,
 * and pages through the space 256 bytes at a time. A picker lists the spaces, banks and tags the session offers
 * (C64: the CPU's view, ram, rom, io; MAME: its spaces and shares): choosing one shows the same offset there.
 */
import * as vscode from 'vscode';
import { isMemoryReference, memoryReference, parseMemoryReference } from '../core/memory-reference.js';
import { choiceOf, type SpaceChoice } from '../core/memory-spaces.js';
import { hex } from '../core/hex.js';
import { MEMORY_SPACES_REQUEST, type MemorySpacesReply } from '../dap/adapter-parts.js';
import { hexRows, parseHexWrite } from './hex-rows.js';

const PAGE = 256;
const views = new Set<HexView>();

/** Refreshes every open hex view when its session stops (registered once at activation). */
export function registerHexViewTracker(): vscode.Disposable {
  return vscode.debug.registerDebugAdapterTrackerFactory('retro', {
    createDebugAdapterTracker: (session) => ({
      onDidSendMessage: (m: { type?: string; event?: string }) => {
        if (m?.type === 'event' && m.event === 'stopped')
          for (const v of views) if (v.session.id === session.id) void v.refresh();
      },
    }),
  });
}

export class HexView {
  private follow: string;
  private page = 0;
  /** the offset shown first, kept for a change of space */
  private shown = 0;
  private spaces?: Promise<SpaceChoice[]>;
  private readonly panel: vscode.WebviewPanel;

  constructor(
    readonly session: vscode.DebugSession,
    follow: string,
  ) {
    this.follow = follow;
    this.panel = vscode.window.createWebviewPanel('retro.hex', `Memory ${follow}`, vscode.ViewColumn.Beside, {
      enableScripts: true,
    });
    this.panel.webview.onDidReceiveMessage((m) => void this.receive(m));
    this.panel.onDidDispose(() => views.delete(this));
    views.add(this);
    void this.refresh();
  }

  /** The followed text to a memory reference: an address or reference as it is, else the expression's value. */
  private async base(): Promise<string> {
    if (isMemoryReference(this.follow)) return this.follow;
    const result = await this.session.customRequest('evaluate', { expression: this.follow, context: 'watch' });
    if (result?.memoryReference) return String(result.memoryReference);
    return memoryReference(parseMemoryReference(String(result?.result ?? '').split(/\s/)[0]));
  }

  async refresh(): Promise<void> {
    let html: string;
    let picker = '';
    try {
      const address = parseMemoryReference(await this.base(), this.page * PAGE);
      this.shown = address.offset;
      picker = spacePicker(await this.spaceChoices(), memoryReference(address));
      const read = await this.session.customRequest('readMemory', {
        memoryReference: memoryReference(address),
        count: PAGE,
      });
      const bytes = new Uint8Array(Buffer.from(String(read?.data ?? ''), 'base64'));
      const petscii = /c64|vice/i.test(String(this.session.configuration.machine ?? ''));
      const space =
        address.space === 'cpu' && address.bank === undefined ? '' : memoryReference(address).replace(/0x.*$/, '');
      html = hexRows(address.offset, bytes, petscii)
        .map(
          (r) =>
            `<tr><th>${space}${r.address}</th><td>${r.bytes.join(' ')}</td><td class="c">${escape(r.chars)}</td></tr>`,
        )
        .join('');
      html = `<table id="rows">${html}</table>`;
    } catch (err) {
      html = `<p class="e">${escape((err as Error).message)}</p>`;
    }
    this.panel.webview.html = page(this.follow, picker, html);
  }

  /** Asked once a view: the spaces do not change during a session (none listed if the session cannot say). */
  private spaceChoices(): Promise<SpaceChoice[]> {
    this.spaces ??= Promise.resolve(this.session.customRequest(MEMORY_SPACES_REQUEST)).then(
      (r: MemorySpacesReply) => r?.spaces ?? [],
      () => [],
    );
    return this.spaces;
  }

  private async receive(m: { type?: string; text?: string }): Promise<void> {
    try {
      if (m?.type === 'follow' && m.text) [this.follow, this.page] = [m.text, 0];
      if (m?.type === 'page') this.page += m.text === 'prev' ? -1 : 1;
      if (m?.type === 'space' && m.text !== undefined) [this.follow, this.page] = [`${m.text}${hex(this.shown)}`, 0];
      if (m?.type === 'write' && m.text) {
        const { address, bytes } = parseHexWrite(m.text);
        const base = parseMemoryReference(await this.base());
        await this.session.customRequest('writeMemory', {
          memoryReference: memoryReference({ ...base, offset: address }),
          data: Buffer.from(bytes).toString('base64'),
        });
      }
    } catch (err) {
      void vscode.window.showWarningMessage((err as Error).message);
    }
    await this.refresh();
  }
}

function escape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The picker's options, the space `reference` is in selected. */
function spacePicker(choices: SpaceChoice[], reference: string): string {
  if (!choices.length) return '';
  const current = choiceOf(choices, reference);
  const options = choices.map(
    (c) => `<option value="${escape(c.prefix)}"${c === current ? ' selected' : ''}>${escape(c.label)}</option>`,
  );
  return `<select id="s" title="memory space">${options.join('')}</select>`;
}

function page(follow: string, picker: string, body: string): string {
  const nonce = Math.random().toString(36).slice(2);
  return `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}';">
<style>body{font-family:var(--vscode-editor-font-family)}th{text-align:left;padding-right:1em;color:var(--vscode-descriptionForeground)}td{white-space:pre;padding-right:1em}.e{color:var(--vscode-errorForeground)}</style></head><body>
<form id="f">${picker} <input id="x" value="${escape(follow)}" title="address, memory reference or C expression"> <button>Follow</button>
<button type="button" id="p">◀</button><button type="button" id="n">▶</button></form>
<form id="w"><input id="b" placeholder="$C000: 01 02 FF"> <button>Write</button></form>${body}
<script nonce="${nonce}">const api=acquireVsCodeApi();
f.onsubmit=(e)=>{e.preventDefault();api.postMessage({type:'follow',text:x.value})};
w.onsubmit=(e)=>{e.preventDefault();api.postMessage({type:'write',text:b.value})};
if(window.s)s.onchange=()=>api.postMessage({type:'space',text:s.value});
p.onclick=()=>api.postMessage({type:'page',text:'prev'});n.onclick=()=>api.postMessage({type:'page',text:'next'});</script></body></html>`;
}
