/**
 * The screen panel's joystick mapping and mouse: what the session's target
 * offers (its 'joystick' and 'mouse' features, or why not), and the panel's
 * joystick states and pointer moves sent through the client that acts for
 * the user (screen-controller.ts), so they need the control lease like keys. Pointer moves are single-flight: a
 * move that comes while one is on its way replaces the one waiting (a slow
 * emulator gets the newest point, no queue).
 */
import { asRetroError } from '../core/errors.js';
import { JOYSTICK_FEATURE, MOUSE_FEATURE, type JoystickState } from '../core/input-devices.js';
import type { ScreenFrame } from '../core/target.js';
import type { ClientSession, SessionApi } from '../session/types.js';
import type { HostMessage } from './screen-messages.js';

export interface PanelDevicesOptions {
  /** the client acting for the user once it holds the lease; undefined (the panel told why) when it cannot */
  controlling: () => Promise<ClientSession | undefined>;
  frame: () => ScreenFrame | undefined;
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
    const me = await this.opts.controlling();
    if (me) await me.control(JOYSTICK_FEATURE, {}, (j) => j.set(port, state));
  }

  async pointer(x: number, y: number, buttons: number): Promise<void> {
    if (this.moving) {
      this.nextPoint = { x, y, buttons };
      return;
    }
    this.moving = true;
    try {
      const me = await this.opts.controlling();
      const frame = this.opts.frame();
      if (!me || !frame) return;
      await me.control(MOUSE_FEATURE, {}, (m) => m.point({ x, y, width: frame.width, height: frame.height, buttons }));
    } finally {
      this.moving = false;
      const next = this.nextPoint;
      this.nextPoint = undefined;
      if (next) await this.pointer(next.x, next.y, next.buttons);
    }
  }
}
