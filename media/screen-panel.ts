/** Webview side of the screen panel: shows frames from the extension host, asks for refreshes. */
import type { HostMessage, WebviewMessage } from '../src/ui/screen-messages.js';

declare function acquireVsCodeApi(): { postMessage(message: WebviewMessage): void };

const vscode = acquireVsCodeApi();
const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const img = byId<HTMLImageElement>('screen');
const message = byId<HTMLParagraphElement>('message');
const session = byId<HTMLSpanElement>('session');
const state = byId<HTMLSpanElement>('state');
const frame = byId<HTMLSpanElement>('frame');
const stale = byId<HTMLSpanElement>('stale');

function showHeader(sessionId: string | undefined, runState: string | undefined): void {
  session.textContent = sessionId ? `session ${sessionId}` : '';
  state.textContent = runState ?? '';
  state.dataset.state = runState ?? '';
}

function render(m: HostMessage): void {
  showHeader(m.sessionId, m.state);
  if (m.type === 'frame') {
    img.src = m.dataUrl;
    img.title = `${m.width}x${m.height}`;
    img.dataset.takenAt = String(m.takenAt);
    img.hidden = false;
    message.hidden = true;
    message.textContent = '';
    frame.textContent = m.frame === undefined ? '' : `frame ${m.frame}`;
    stale.hidden = !m.maybeStale;
  } else {
    // Keep the last picture: a status (e.g. "Running…") adds context, it does not erase the screen.
    message.textContent = m.message;
    message.hidden = false;
    if (m.state !== 'stopped') stale.hidden = true;
  }
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const m = event.data;
  if (m && (m.type === 'frame' || m.type === 'status')) render(m);
});
byId<HTMLButtonElement>('refresh').addEventListener('click', () => vscode.postMessage({ type: 'refresh' }));
vscode.postMessage({ type: 'ready' });
