/**
 * Messages between the screen panel's extension-host side and its webview.
 * Shared by src/ui/ and media/screen-panel.ts so both sides agree on one shape.
 */
import type { JoystickState } from '../core/input-devices.js';
import { isMemoryReference } from '../core/memory-reference.js';
import type { FrameRows } from './frame-delta.js';

/** Extension host → webview. */
export type HostMessage =
  | {
      /** a raw frame for the canvas: palette indices with the palette, or RGBA */
      type: 'raw';
      sessionId: string;
      state: string;
      width: number;
      height: number;
      frame: number;
      /** palette indices (or `rgba`): the whole frame, or with `rows` only those rows (the webview patches its copy) */
      pixels?: Uint8Array;
      /** [r, g, b, r, g, b, …] */
      palette?: number[];
      rgba?: Uint8Array;
      rows?: FrameRows;
      /** the inner area (no border), for the border toggle and the grid */
      inner?: { x: number; y: number; width: number; height: number };
      /** the CPU is stopped, so the picture may predate the current machine state */
      maybeStale: boolean;
      /** which picture: 'memory-now' at a stop is drawn from memory as it is (never stale) */
      source?: string;
      /** ms since epoch, when the frame was posted */
      takenAt: number;
      /** frames the panel's controller has had from the session so far (some overtaken), to tell where frames are lost */
      fed: number;
      /** what watching costs the machine (the frame source's sentence) */
      cost: string;
    }
  | {
      type: 'status';
      sessionId?: string;
      state?: string;
      /** a sentence for people, e.g. why there is no picture */
      message: string;
      /** another session (or none) is shown now: the old picture goes */
      clear?: boolean;
      /** 'control': a refusal for the lease, kept over the frames that follow until the user has control again */
      until?: 'control';
    }
  | {
      /** who holds the control lease; `mine`: the client acting for the user here does, so keys go to the machine */
      type: 'control';
      holder?: string;
      mine: boolean;
      /** the holder is one of the user's own clients (a debug session, the panel), not an agent */
      users?: boolean;
    }
  | {
      /** the C64's enabled sprites as boxes in frame pixels, for the outlines toggle */
      type: 'sprites';
      boxes: { sprite: number; x: number; y: number; width: number; height: number }[];
    }
  | {
      /** the input devices the panel can drive: a joystick's ports, a mouse; or why not */
      type: 'devices';
      joystick?: { ports: number[]; note?: string };
      joystickUnavailable?: string;
      mouse: boolean;
      mouseUnavailable?: string;
      /** the machine has sprites to outline (the C64) */
      spriteOutlines?: boolean;
    }
  | {
      /** how frames are made: with `rates`, each frame halts the machine and the user picks `fps` (0: only at stops) */
      type: 'source';
      mode: string;
      rates?: number[];
      fps?: number;
      cost: string;
    }
  | {
      /** the recorded history under the picture (time travel); `available: false` hides the slider */
      type: 'timeline';
      available: boolean;
      startFrame?: number;
      /** the present's frame */
      endFrame?: number;
      /** the frame the machine shows now */
      nowFrame?: number;
      inPast?: boolean;
      /** moves need a stopped machine: while it runs the slider only shows the span */
      stopped?: boolean;
      /** recorded stops (breakpoint hits, steps, pauses) by frame */
      marks?: { frame: number; reason: string }[];
      /** why the picture is not of this moment (a past moment MAME cannot redraw), shown with it */
      noPicture?: string;
    }
  | {
      /** what is under the pointer, in lines for people; `reference` (core/memory-reference.ts) opens the memory view on click */
      type: 'inspect';
      x: number;
      y: number;
      lines: string[];
      reference?: string;
    };

/** Webview → extension host. */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'refresh' }
  /** the webview cannot patch the rows it got (it holds no frame of that size): the next frame whole */
  | { type: 'full-frame' }
  /** take the lease back for the user (from an agent) */
  | { type: 'take-control' }
  | { type: 'release-control' }
  /** a key in core/keys.ts syntax ("A", "{RETURN}", "{SHIFT+UP}") */
  | { type: 'key'; text: string }
  | { type: 'inspect'; x: number; y: number }
  | { type: 'open-memory'; reference: string }
  | { type: 'warp'; on: boolean }
  /** frames a second while running where each halts the machine (VICE); 0: frames only at stops */
  | { type: 'refresh-rate'; fps: number }
  /** sprite outlines (C64) on or off */
  | { type: 'sprites'; on: boolean }
  /** the joystick mapping's state of one port (cursor keys and fire held in the panel) */
  | { type: 'joystick'; port: number; state: JoystickState }
  /** the pointer over the screen (a frame pixel) with its buttons, while the panel drives the mouse */
  | { type: 'pointer'; x: number; y: number; buttons: number }
  /** the timeline slider: the machine to this recorded frame (as MCP go_to {frame}), or back to the present */
  | { type: 'go-to-frame'; frame: number }
  | { type: 'go-to-present' };

const DIRECTIONS = ['up', 'down', 'left', 'right', 'fire'] as const;

const num = (v: unknown, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;

/** Accepts only the known webview messages with fields in range; anything else is ignored by the caller. */
export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
    case 'refresh':
    case 'full-frame':
    case 'take-control':
    case 'release-control':
    case 'go-to-present':
      return { type: m.type };
    case 'go-to-frame':
      return num(m.frame, 2 ** 31) ? { type: 'go-to-frame', frame: m.frame } : undefined;
    case 'key':
      return typeof m.text === 'string' && m.text.length >= 1 && m.text.length <= 32
        ? { type: 'key', text: m.text }
        : undefined;
    case 'inspect':
      return num(m.x, 4096) && num(m.y, 4096) ? { type: 'inspect', x: m.x, y: m.y } : undefined;
    case 'open-memory':
      return typeof m.reference === 'string' && m.reference.length <= 80 && isMemoryReference(m.reference)
        ? { type: 'open-memory', reference: m.reference }
        : undefined;
    case 'refresh-rate':
      return num(m.fps, 60) ? { type: 'refresh-rate', fps: m.fps } : undefined;
    case 'warp':
    case 'sprites':
      return typeof m.on === 'boolean' ? { type: m.type, on: m.on } : undefined;
    case 'joystick': {
      const st = m.state as Record<string, unknown> | null;
      if (!num(m.port, 8) || typeof st !== 'object' || st === null) return undefined;
      if (!DIRECTIONS.every((d) => typeof st[d] === 'boolean')) return undefined;
      const state = Object.fromEntries(DIRECTIONS.map((d) => [d, st[d]])) as unknown as JoystickState;
      return { type: 'joystick', port: m.port, state };
    }
    case 'pointer':
      return num(m.x, 4096) && num(m.y, 4096) && num(m.buttons, 7)
        ? { type: 'pointer', x: m.x, y: m.y, buttons: m.buttons }
        : undefined;
    default:
      return undefined;
  }
}
