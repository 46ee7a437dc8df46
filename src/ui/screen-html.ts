/** The screen panel's HTML with a locked-down CSP: no remote content, one nonce'd script. */
import { randomBytes } from 'node:crypto';

export interface ScreenHtmlOptions {
  /** webview.cspSource */
  cspSource: string;
  /** webview URIs of the bundled script and the stylesheet */
  scriptUri: string;
  styleUri: string;
  /** fresh per render; generated when omitted */
  nonce?: string;
}

export function makeNonce(): string {
  return randomBytes(18).toString('base64url');
}

const escapeAttr = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function screenPanelHtml(opts: ScreenHtmlOptions): string {
  const nonce = opts.nonce ?? makeNonce();
  if (!/^[A-Za-z0-9_-]+$/.test(nonce)) throw new Error('nonce must be base64url');
  // Screenshots arrive as data: URLs; nothing else may load from anywhere but the extension.
  const csp = [
    "default-src 'none'",
    `img-src data: ${opts.cspSource}`,
    `style-src ${opts.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(opts.styleUri)}">
<title>Retro Screen</title>
</head>
<body>
<header class="bar">
  <button id="refresh" type="button" title="Take a fresh screenshot">Refresh</button>
  <span id="session" class="field"></span>
  <span id="state" class="field"></span>
  <span id="frame" class="field"></span>
  <span id="stale" class="badge" hidden title="The CPU is stopped: this frame may predate the current machine state">may be stale</span>
</header>
<main class="stage">
  <img id="screen" alt="Emulated screen" hidden>
  <p id="message" class="message">Waiting for the extension…</p>
</main>
<script nonce="${nonce}" src="${escapeAttr(opts.scriptUri)}"></script>
</body>
</html>`;
}
