/**
 * The screen panel's joystick mapping and mouse: what the session's target
 * offers (its 'joystick' and 'mouse' features, or why not), and the panel's
 * joystick states and pointer moves sent through the panel's client, so they
 * need the control lease like its keys. Pointer moves are single-flight: a
 * move that comes while one is on its way replaces the one waiting (a slow
 * emulator gets the newest point, no queue).
 */
import { asRetroError } from '../core/errors.js';
import { JOYSTICK_FEATURE, MOUSE_FEATURE, type JoystickState } from '../core/input-devices.js';
import type { ScreenFrame } from '../core/target.js';
import type { ClientSession, SessionApi } from '../session/types.js';
import type { HostMessage } from './screen-messages.js';

export const TAKE_CONTROL_FIRST = 'Take control to drive the machine from the panel.';

export interface PanelDevicesOptions {
  client: () => ClientSession | undefined;
  frame: () => ScreenFrame | undefined;
  /** a sentence for the panel when an input was not taken */
  refused: (message: string) => void;
}

export class PanelDevices {
  private moving = false;
  private nextPoint?: { x: number; y: number; buttons: number };

  constructor(private readonly opts: PanelDevicesOptions) {}

  /** What the panel may offer for this session. */
  async describe(session: SessionApi): Promise<Extract<HostMessage, { type: 'devices' }>> {
    const out: Extract<HostMessage, { type: 'devices' }> = { type: 'devices', mouse: false };
    try {
      const j = session.feature(JOYSTICK_FEATURE);
      out.joystick = { ports: [...j.ports], note: j.note };
    } catch (err) {
      out.joystickUnavailable = asRetroError(err).message;
    }
    try {
      const why = await session.feature(MOUSE_FEATURE).unavailable();
      out.mouse = why === undefined;
      out.mouseUnavailable = why;
    } catch (err) {
      out.mouseUnavailable = asRetroError(err).message;
    }
    return out;
  }

  async joystick(port: number, state: JoystickState): Promise<void> {
    const me = this.controlling();
    if (me) await me.control(JOYSTICK_FEATURE, {}, (j) => j.set(port, state));
  }

  async pointer(x: number, y: number, buttons: number): Promise<void> {
    if (this.moving) {
      this.nextPoint = { x, y, buttons };
      return;
    }
    const me = this.controlling();
    const frame = this.opts.frame();
    if (!me || !frame) return;
    this.moving = true;
    try {
      await me.control(MOUSE_FEATURE, {}, (m) => m.point({ x, y, width: frame.width, height: frame.height, buttons }));
    } finally {
      this.moving = false;
      const next = this.nextPoint;
      this.nextPoint = undefined;
      if (next) await this.pointer(next.x, next.y, next.buttons);
    }
  }

  private controlling(): ClientSession | undefined {
    const me = this.opts.client();
    if (me?.holdsControl) return me;
    this.opts.refused(TAKE_CONTROL_FIRST);
    return undefined;
  }
}
