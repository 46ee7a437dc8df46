/**
 * Webview side of the screen panel: draws raw frames on a canvas (palette
 * indices through a 32-bit lookup table made once per palette, or RGBA, into
 * one reused ImageData), at most once per animation frame and only the newest
 * frame (frames that come between two are counted, not drawn), forwards keys pressed while the
 * canvas has the keys (a click captures them, Esc releases them; the host acts under the user's
 * lease), asks the host what is under the pointer (Ctrl+click opens it in a memory view), and
 * offers the border/grid toggles, warp and the "Take back" button when an agent holds control; the timeline
 * slider under the picture is timeline.ts.
 */
import type { HostMessage, WebviewMessage } from '../src/ui/screen-messages.js';
import { isVsCodeKey, joystickControl, panelKeyAction } from '../src/ui/panel-keys.js';
import { HeldFrame, frameKey } from '../src/ui/frame-delta.js';
import { JOYSTICK_IDLE, type JoystickState } from '../src/core/input-devices.js';
import { timelineView } from './timeline.js';

declare function acquireVsCodeApi(): { postMessage(message: WebviewMessage): void };

const vscode = acquireVsCodeApi();
const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const canvas = byId<HTMLCanvasElement>('screen');
const g = canvas.getContext('2d')!;
const message = byId<HTMLParagraphElement>('message');
const session = byId<HTMLSpanElement>('session');
const state = byId<HTMLSpanElement>('state');
const frameField = byId<HTMLSpanElement>('frame');
const fpsField = byId<HTMLSpanElement>('fps');
const stale = byId<HTMLSpanElement>('stale');
const control = byId<HTMLSpanElement>('control');
const focusField = byId<HTMLSpanElement>('focus');
const takeButton = byId<HTMLButtonElement>('take-control');
const cost = byId<HTMLParagraphElement>('cost');
const inspector = byId<HTMLParagraphElement>('inspector');
const borderBox = byId<HTMLInputElement>('border');
const gridBox = byId<HTMLInputElement>('grid');
const warpBox = byId<HTMLInputElement>('warp');
const spritesBox = byId<HTMLInputElement>('sprites');
const joystickSelect = byId<HTMLSelectElement>('joystick');
const mouseBox = byId<HTMLInputElement>('mouse');
const refreshSelect = byId<HTMLSelectElement>('refresh-rate');
const showTimeline = timelineView((m) => vscode.postMessage(m));

type Raw = Extract<HostMessage, { type: 'raw' }>;
let last: Raw | undefined;
let hoverReference: string | undefined;
const shownAt: number[] = [];
let boxes: Extract<HostMessage, { type: 'sprites' }>['boxes'] = [];
let stick: JoystickState = { ...JOYSTICK_IDLE };

function showHeader(sessionId: string | undefined, runState: string | undefined): void {
  session.textContent = sessionId ? `session ${sessionId}` : '';
  state.textContent = runState ?? '';
  state.dataset.state = runState ?? '';
}

/** The part of the frame on the canvas: all of it, or the inner area with the border off. */
function view(f: Raw): { x: number; y: number; width: number; height: number } {
  return !borderBox.checked && f.inner ? f.inner : { x: 0, y: 0, width: f.width, height: f.height };
}

let lut = new Uint32Array(256);
let lutOf: number[] | undefined;
/** The palette as canvas words (ABGR in memory order RGBA), made again only when the palette changes. */
function lookup(palette: number[]): Uint32Array {
  if (lutOf && lutOf.length === palette.length && lutOf.every((v, i) => v === palette[i])) return lut;
  lut = new Uint32Array(256).fill(0xff000000);
  for (let i = 0; i * 3 < palette.length && i < 256; i++)
    lut[i] = (0xff000000 | (palette[i * 3 + 2] << 16) | (palette[i * 3 + 1] << 8) | palette[i * 3]) >>> 0;
  lutOf = palette;
  return lut;
}

let image: ImageData | undefined;
function draw(f: Raw): void {
  if (!image || image.width !== f.width || image.height !== f.height) image = new ImageData(f.width, f.height);
  if (f.pixels && f.palette) {
    const out = new Uint32Array(image.data.buffer);
    const table = lookup(f.palette);
    const px = f.pixels;
    const n = Math.min(px.length, out.length);
    for (let i = 0; i < n; i++) out[i] = table[px[i]];
  } else if (f.rgba) image.data.set(f.rgba.subarray(0, image.data.length));
  const v = view(f);
  if (canvas.width !== v.width || canvas.height !== v.height) {
    canvas.width = v.width;
    canvas.height = v.height;
  }
  g.putImageData(image, -v.x, -v.y);
  if (gridBox.checked && f.inner) {
    g.strokeStyle = 'rgba(255, 255, 255, 0.25)';
    g.lineWidth = 1;
    g.beginPath();
    for (let x = 0; x <= f.inner.width; x += 8) {
      g.moveTo(f.inner.x - v.x + x + 0.5, f.inner.y - v.y);
      g.lineTo(f.inner.x - v.x + x + 0.5, f.inner.y - v.y + f.inner.height);
    }
    for (let y = 0; y <= f.inner.height; y += 8) {
      g.moveTo(f.inner.x - v.x, f.inner.y - v.y + y + 0.5);
      g.lineTo(f.inner.x - v.x + f.inner.width, f.inner.y - v.y + y + 0.5);
    }
    g.stroke();
  }
  if (spritesBox.checked) {
    g.strokeStyle = 'rgba(255, 64, 160, 0.9)';
    g.fillStyle = 'rgba(255, 64, 160, 0.9)';
    g.font = '8px monospace';
    for (const b of boxes) {
      g.strokeRect(b.x - v.x + 0.5, b.y - v.y + 0.5, b.width - 1, b.height - 1);
      g.fillText(String(b.sprite), b.x - v.x + 2, b.y - v.y + 8);
    }
  }
}

/** Bytes as they arrive: a typed array (VS Code transfers its buffer), or an ArrayBuffer. */
function bytes(v: unknown): Uint8Array | undefined {
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return undefined;
}

/** The frame the webview holds, patched by the rows that come (posts arrive in order). */
const held = new HeldFrame();

/** The whole frame of a post: itself, or the held frame with its rows laid in; undefined when nothing fits. */
function patched(m: Raw): Raw | undefined {
  const indexed = !!(m.pixels && m.palette);
  const data = bytes(indexed ? m.pixels : m.rgba);
  if (!data) return { ...m, pixels: undefined, rgba: undefined };
  const whole = held.apply(data, m.height, frameKey(m.width, m.height, indexed ? m.palette : undefined), m.rows);
  if (!whole) return undefined;
  return indexed ? { ...m, pixels: whole, rows: undefined } : { ...m, rgba: whole, rows: undefined };
}

let toDraw: Raw | undefined;
/** Draws the newest frame that came since the last animation frame. */
function drawNewest(): void {
  const m = toDraw;
  toDraw = undefined;
  if (!m) return;
  last = m;
  showHeader(m.sessionId, m.state);
  draw(m);
  canvas.hidden = false;
  canvas.dataset.frame = String(m.frame);
  canvas.dataset.drawn = String(Number(canvas.dataset.drawn ?? 0) + 1); // frames drawn, for a test's rate
  canvas.dataset.width = String(m.width);
  canvas.dataset.height = String(m.height);
  if (!message.dataset.until) message.hidden = true; // a refusal stays while frames go on: the keys went nowhere
  frameField.textContent = `frame ${m.frame}`;
  // a stop's picture drawn from memory as it is now is the machine's own: no badge
  stale.hidden = !m.maybeStale || m.source === 'memory-now';
  canvas.dataset.source = m.source ?? '';
  cost.textContent = m.cost;
  const now = performance.now();
  shownAt.push(now);
  while (shownAt.length && now - shownAt[0] > 1000) shownAt.shift();
  fpsField.textContent = m.maybeStale ? '' : `${shownAt.length} fps`;
}

function render(m: HostMessage): void {
  switch (m.type) {
    case 'raw': {
      // frames received and the host-to-webview delay, for a test to tell where frames are lost
      canvas.dataset.received = String(Number(canvas.dataset.received ?? 0) + 1);
      canvas.dataset.delayMs = String(Number(canvas.dataset.delayMs ?? 0) + (Date.now() - m.takenAt));
      canvas.dataset.fed = String(m.fed);
      const whole = patched(m);
      if (!whole) return vscode.postMessage({ type: 'full-frame' });
      if (!toDraw) requestAnimationFrame(drawNewest);
      toDraw = whole;
      return;
    }
    case 'status':
      showHeader(m.sessionId, m.state);
      if (m.clear) {
        // another session: its picture starts blank, not with the one before
        canvas.hidden = true;
        last = toDraw = undefined;
        stale.hidden = true;
        frameField.textContent = fpsField.textContent = '';
      }
      // otherwise keep the last picture: a status adds context, it does not erase the screen
      message.textContent = m.message;
      message.dataset.until = m.until ?? '';
      message.hidden = false;
      return;
    case 'control':
      if ((m.mine || m.users) && message.dataset.until === 'control') {
        message.hidden = true;
        message.dataset.until = '';
      }
      control.textContent = m.mine || m.users ? 'control: you' : m.holder ? `control: ${m.holder}` : 'control: free';
      control.title = m.holder ? `The control lease: ${m.holder}` : 'Nobody holds control: typing here takes it';
      control.dataset.mine = String(m.mine);
      takeButton.hidden = !m.holder || !!m.users;
      return;
    case 'sprites':
      boxes = m.boxes;
      canvas.dataset.sprites = String(m.boxes.length);
      if (last) draw(last);
      return;
    case 'devices': {
      byId<HTMLElement>('sprites-label').hidden = !m.spriteOutlines;
      joystickSelect.disabled = !m.joystick;
      for (const o of Array.from(joystickSelect.options))
        o.hidden = o.value !== '0' && !m.joystick?.ports.includes(Number(o.value));
      byId<HTMLElement>('joystick-label').title = m.joystick
        ? `Cursor keys and Ctrl (fire) to a joystick port while the screen has the keys; ${m.joystick.note ?? ''}`
        : (m.joystickUnavailable ?? 'no joystick');
      mouseBox.disabled = !m.mouse;
      if (!m.mouse) mouseBox.checked = false;
      byId<HTMLElement>('mouse-label').title = m.mouse
        ? "The pointer over the screen as the machine's mouse"
        : (m.mouseUnavailable ?? 'no mouse');
      return;
    }
    case 'source':
      // the refresh choice only where each frame halts the machine (a real VICE), with the choices it offers
      byId<HTMLElement>('refresh-label').hidden = !m.rates;
      for (const o of Array.from(refreshSelect.options)) o.hidden = !m.rates?.includes(Number(o.value));
      if (m.fps !== undefined) refreshSelect.value = String(m.fps);
      cost.textContent = m.cost;
      return;
    case 'inspect':
      inspector.textContent = m.lines.join(' · ');
      hoverReference = m.reference;
      return;
    case 'timeline':
      return showTimeline(m);
  }
}

/** The frame pixel under a mouse event (the canvas is scaled by CSS, letterboxed). */
function framePoint(e: MouseEvent): { x: number; y: number } | undefined {
  if (!last) return undefined;
  const r = canvas.getBoundingClientRect();
  const v = view(last);
  // object-fit: contain letterboxes the picture inside the element
  const scale = Math.min(r.width / v.width, r.height / v.height);
  const left = r.left + (r.width - v.width * scale) / 2;
  const top = r.top + (r.height - v.height * scale) / 2;
  const x = Math.floor((e.clientX - left) / scale) + v.x;
  const y = Math.floor((e.clientY - top) / scale) + v.y;
  return x >= 0 && y >= 0 && x < last.width && y < last.height ? { x, y } : undefined;
}

let hoverTimer: ReturnType<typeof setTimeout> | undefined;
canvas.addEventListener('mousemove', (e) => {
  const p = framePoint(e);
  if (!p || hoverTimer) return;
  hoverTimer = setTimeout(() => (hoverTimer = undefined), 60); // about 16 questions a second at most
  vscode.postMessage({ type: 'inspect', x: p.x, y: p.y });
});
canvas.addEventListener('click', (e) => {
  canvas.focus(); // a click captures the keys; only Ctrl+click opens the memory view
  // while the pointer is the machine's mouse, a click is the machine's too
  if (e.ctrlKey && hoverReference !== undefined && !driving())
    vscode.postMessage({ type: 'open-memory', reference: hoverReference });
});
/** Whether the screen has the keys, said in the header (and marked on the canvas). */
function showFocus(): void {
  const captured = document.activeElement === canvas;
  focusField.textContent = captured ? 'typing to the machine · Esc releases' : 'click the screen to type';
  focusField.dataset.captured = String(captured);
  canvas.classList.toggle('captured', captured);
}
canvas.addEventListener('focus', showFocus);

/** The panel drives the machine's mouse: ticked (the host acts under the user's lease). */
const driving = () => mouseBox.checked;
let pointerAt: { x: number; y: number } | undefined;
let pointerButtons = 0;
let pointerQueued = false;
let holdTimer: ReturnType<typeof setInterval> | undefined;
function sendPointer(): void {
  if (!pointerAt || !driving()) return;
  vscode.postMessage({ type: 'pointer', x: pointerAt.x, y: pointerAt.y, buttons: pointerButtons });
}
function pointerEvent(e: MouseEvent): void {
  if (!driving()) return;
  pointerAt = framePoint(e) ?? pointerAt;
  // MouseEvent.buttons: 1 left, 2 right, 4 middle, as the INT 33h and MAME buttons are numbered here
  pointerButtons = e.buttons & 7;
  if (e.type !== 'mousemove') {
    e.preventDefault();
    sendPointer();
  } else if (!pointerQueued) {
    pointerQueued = true; // one move a drawn frame at most
    requestAnimationFrame(() => {
      pointerQueued = false;
      sendPointer();
    });
  }
  // a program's own INT 33h handler keeps overwriting what we write: repeat while a button is held
  if (pointerButtons && !holdTimer) holdTimer = setInterval(sendPointer, 50);
  if (!pointerButtons && holdTimer) {
    clearInterval(holdTimer);
    holdTimer = undefined;
  }
}
for (const type of ['mousemove', 'mousedown', 'mouseup'] as const) canvas.addEventListener(type, pointerEvent);
canvas.addEventListener('contextmenu', (e) => driving() && e.preventDefault());

/** The joystick mapping: a cursor key or Ctrl goes to the chosen port instead of the keyboard. */
function joystickKey(e: KeyboardEvent, down: boolean): boolean {
  const port = Number(joystickSelect.value);
  const control = port ? joystickControl(e.key) : undefined;
  if (!control) return false;
  e.preventDefault();
  e.stopPropagation();
  if (stick[control] === down) return true; // key repeat
  stick = { ...stick, [control]: down };
  canvas.dataset.joystick = JSON.stringify(stick);
  vscode.postMessage({ type: 'joystick', port, state: stick });
  return true;
}
canvas.addEventListener('keyup', (e) => joystickKey(e, false));
canvas.addEventListener('blur', () => {
  showFocus();
  const port = Number(joystickSelect.value);
  if (port && Object.values(stick).some(Boolean)) vscode.postMessage({ type: 'joystick', port, state: JOYSTICK_IDLE });
  stick = { ...JOYSTICK_IDLE };
});
canvas.addEventListener('keydown', (e) => {
  if (isVsCodeKey(e) || joystickKey(e, true)) return; // the palette keys: the workbench sees them
  const action = panelKeyAction(e);
  if (!action) return; // nothing to type (a modifier alone): the workbench sees it
  e.preventDefault();
  e.stopPropagation();
  if ('release' in action) canvas.blur();
  else vscode.postMessage({ type: 'key', text: action.text });
});

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const m = event.data;
  if (!m || typeof m !== 'object' || !('type' in m)) return;
  try {
    render(m);
  } catch (err) {
    message.textContent = `The panel could not show this message (${m.type}): ${(err as Error).message}`;
    message.hidden = false;
  }
});
for (const box of [borderBox, gridBox]) box.addEventListener('change', () => last && draw(last));
spritesBox.addEventListener('change', () => {
  vscode.postMessage({ type: 'sprites', on: spritesBox.checked });
  if (last) draw(last);
});
joystickSelect.addEventListener('change', () => {
  stick = { ...JOYSTICK_IDLE };
  canvas.focus();
});
refreshSelect.addEventListener('change', () =>
  vscode.postMessage({ type: 'refresh-rate', fps: Number(refreshSelect.value) }),
);
warpBox.addEventListener('change', () => vscode.postMessage({ type: 'warp', on: warpBox.checked }));
takeButton.addEventListener('click', () => vscode.postMessage({ type: 'take-control' }));
byId<HTMLButtonElement>('refresh').addEventListener('click', () => vscode.postMessage({ type: 'refresh' }));
vscode.postMessage({ type: 'ready' });
