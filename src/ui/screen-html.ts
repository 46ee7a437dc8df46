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
  // Frames arrive as messages and are drawn on a canvas; nothing may load from anywhere but the extension.
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
  <button id="refresh" type="button" title="Read the session again and restart the frames">Refresh</button>
  <span id="control" class="field" title="Who holds the control lease: keys and clicks here act for your debug session"></span>
  <button id="take-control" type="button" hidden title="Take control of the machine back from the agent that holds it">Take back</button>
  <span id="focus" class="field focus" title="Click the screen to type on the machine; Esc gives the keys back to VS Code">click the screen to type</span>
  <span id="session" class="field"></span>
  <span id="state" class="field"></span>
  <span id="frame" class="field"></span>
  <span id="fps" class="field"></span>
  <span id="stale" class="badge" hidden title="The CPU is stopped: this frame may predate the current machine state">may be stale</span>
  <label class="toggle"><input id="border" type="checkbox" checked> border</label>
  <label class="toggle"><input id="grid" type="checkbox"> grid</label>
  <label class="toggle" id="sprites-label" hidden title="Outline the C64's enabled sprites"><input id="sprites" type="checkbox"> sprites</label>
  <label class="toggle" id="joystick-label" title="Cursor keys and Ctrl (fire) to a joystick port while the screen has the keys">joystick <select id="joystick"><option value="0">off</option><option value="2">port 2</option><option value="1">port 1</option></select></label>
  <label class="toggle" id="mouse-label" title="The pointer over the screen as the machine's mouse"><input id="mouse" type="checkbox" disabled> mouse</label>
  <label class="toggle" id="refresh-label" hidden title="Each frame while running stops the machine for one display read (VICE's monitor stops it for every command); frames always come at each stop">frames/s <select id="refresh-rate"><option value="0">off</option><option value="1">1</option><option value="2">2</option><option value="5">5</option></select></label>
  <label class="toggle" title="Run as fast as possible while watching (default: the machine's real speed)"><input id="warp" type="checkbox"> warp</label>
</header>
<main class="stage">
  <canvas id="screen" tabindex="0" hidden title="Click to type on the machine (Esc gives the keys back; F1 and Ctrl+Shift+P stay VS Code's). Hover to inspect; Ctrl+click opens the address in a memory view"></canvas>
  <p id="message" class="message">Waiting for the extension…</p>
</main>
<section id="timeline" class="bar timeline" hidden>
  <span id="time-badge" class="badge past" hidden title="The machine shows a recorded moment: memory, registers and variables are read-only here">time travel — read-only</span>
  <div class="track" title="The recorded history in frames; marks are the stops recorded in it. Drag to go to a frame (the machine must be stopped)">
    <input id="time-slider" type="range" min="0" max="0" step="1" value="0" aria-label="Recorded frame">
    <div id="time-marks" class="marks"></div>
  </div>
  <span id="time-frame" class="field"></span>
  <button id="time-present" type="button" hidden title="Back to the present, exactly where the machine was">Back to present</button>
  <p id="time-note" class="field note"></p>
</section>
<footer class="bar">
  <p id="inspector" class="field inspector"></p>
  <p id="cost" class="field cost"></p>
</footer>
<script nonce="${nonce}" src="${escapeAttr(opts.scriptUri)}"></script>
</body>
</html>`;
}
