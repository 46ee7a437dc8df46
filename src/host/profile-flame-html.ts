/**
 * The flame graph webview's page: the call tree drawn as SVG by a small
 * inline script (root on top, width = inclusive cycles), a click on a frame
 * asks the extension to open its source line, two buttons ask for exports.
 * Locked-down CSP: nothing loads, only the nonce'd script and style run.
 */
import { makeNonce } from '../ui/screen-html.js';
import type { FlameNode } from './profile-model.js';

/** Messages the page posts (the extension checks them: see profile-flame.ts). */
export type FlameMessage = { type: 'open'; file: string; line: number } | { type: 'export'; format: string };

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const SCRIPT = `
const vscode = acquireVsCodeApi();
const data = JSON.parse(document.getElementById('data').textContent);
const NS = 'http://www.w3.org/2000/svg', ROW = 20;
const svg = document.getElementById('flame');
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const depth = (n) => 1 + n.children.reduce((d, c) => Math.max(d, depth(c)), 0);
function colour(name) {
  let h = 0;
  for (const c of name) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return 'hsl(' + (8 + (h % 42)) + ',' + (70 + (h % 25)) + '%,' + (52 + (h % 12)) + '%)';
}
function el(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  return e;
}
function draw() {
  const width = Math.max(240, document.body.clientWidth - 16);
  const all = data.flame.total || 1;
  svg.setAttribute('width', width);
  svg.setAttribute('height', depth(data.flame) * ROW);
  svg.replaceChildren();
  (function place(n, x, d) {
    const w = (n.total / all) * width;
    if (w < 0.5) return;
    const g = el('g', { class: n.file ? 'frame source' : 'frame' });
    g.dataset.name = n.name;
    g.append(el('rect', { x, y: d * ROW, width: w, height: ROW - 1, fill: colour(n.name) }));
    const title = el('title', {});
    title.textContent = n.name + ': ' + fmt(n.total) + ' cycles (' + ((100 * n.total) / all).toFixed(1) + '%), self ' +
      fmt(n.self) + (n.calls ? ', ' + fmt(n.calls) + ' calls' : '') + (n.file ? ' — click to open ' + n.file + ':' + n.line : '');
    g.append(title);
    const fits = Math.floor((w - 6) / 7);
    if (fits >= 2) {
      const t = el('text', { x: x + 3, y: d * ROW + 14 });
      t.textContent = n.name.length <= fits ? n.name : n.name.slice(0, fits - 1) + '…';
      g.append(t);
    }
    if (n.file) g.addEventListener('click', () => vscode.postMessage({ type: 'open', file: n.file, line: n.line }));
    svg.append(g);
    let at = x;
    for (const c of n.children) {
      place(c, at, d + 1);
      at += (c.total / all) * width;
    }
  })(data.flame, 0, 0);
}
for (const b of document.querySelectorAll('button[data-format]'))
  b.addEventListener('click', () => vscode.postMessage({ type: 'export', format: b.dataset.format }));
window.addEventListener('resize', draw);
draw();
`;

const STYLE = `
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 8px; }
header { display: flex; gap: 8px; align-items: center; margin-bottom: 8px; flex-wrap: wrap; }
button { background: var(--vscode-button-background); color: var(--vscode-button-foreground); border: 0; padding: 4px 10px; cursor: pointer; }
#summary { flex: 1; }
svg text { font: 12px var(--vscode-editor-font-family, monospace); fill: #111; pointer-events: none; }
.frame rect { stroke: var(--vscode-editor-background); stroke-width: 0.5; }
.source { cursor: pointer; }
.source:hover rect { stroke: var(--vscode-focusBorder); stroke-width: 1.5; }
`;

export function flameHtml(summary: string, flame: FlameNode, nonce = makeNonce()): string {
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'`;
  // JSON inside <script>: no '<' may end the element early
  const data = JSON.stringify({ flame }).replace(/</g, '\\u003c');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<style nonce="${nonce}">${STYLE}</style>
<title>Retro Profile</title>
</head>
<body>
<header>
<span id="summary">${escapeHtml(summary)} — click a frame to open its source</span>
<button type="button" data-format="cpuprofile" title="Opens in VS Code's profile viewer and Chrome DevTools">Export .cpuprofile</button>
<button type="button" data-format="speedscope" title="Opens at speedscope.app">Export speedscope</button>
</header>
<svg id="flame" role="img" aria-label="flame graph"></svg>
<script id="data" type="application/json">${data}</script>
<script nonce="${nonce}">${SCRIPT}</script>
</body>
</html>`;
}
