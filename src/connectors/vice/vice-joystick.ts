/**
 * The C64's joystick through the VICE binary monitor (real x64sc and the
 * built-in, which answers the same protocol): JOYPORT_SET drives the lines of
 * VICE's "Joyport I/O simulation" device only, so the first use of a port
 * attaches that device to it (resource JoyPort<N>Device = 37, which replaces
 * a host joystick there until VICE restarts). Each change is a monitor command,
 * so on real VICE one hidden stop. And why the C64 here has no mouse.
 */
import { badRequest, unsupported } from '../../core/errors.js';
import type { JoystickInput, JoystickState, MouseInput } from '../../core/input-devices.js';
import { IO_SIMULATION_DEVICE } from './protocol.js';
import type { ViceFeature } from './vice-feature.js';

/** The five lines as CIA 1 reads them: active low, bit 0 up, 1 down, 2 left, 3 right, 4 fire. */
export function joystickLines(s: JoystickState): number {
  const pressed = (s.up ? 1 : 0) | (s.down ? 2 : 0) | (s.left ? 4 : 0) | (s.right ? 8 : 0) | (s.fire ? 16 : 0);
  return 0x1f & ~pressed;
}

export class ViceJoystick implements JoystickInput {
  readonly ports = [1, 2] as const;
  readonly note =
    "sets VICE's joyport I/O simulation device on the port (JoyPort<N>Device 37) and one monitor command a change";
  private readonly attached = new Set<number>();

  constructor(private readonly vice: Pick<ViceFeature, 'setJoyport' | 'setResource'>) {}

  async set(port: number, state: JoystickState): Promise<void> {
    if (port !== 1 && port !== 2) throw badRequest(`The C64 has joystick ports 1 and 2, not ${port}.`);
    if (!this.attached.has(port)) {
      await this.vice.setResource(`JoyPort${port}Device`, IO_SIMULATION_DEVICE);
      this.attached.add(port);
    }
    await this.vice.setJoyport(port - 1, joystickLines(state));
  }
}

export const C64_NO_MOUSE =
  'The C64 here has no mouse: the built-in does not emulate a 1351, and the VICE binary monitor has no command to move one. Use the joystick mapping instead.';

export const viceNoMouse: MouseInput = {
  unavailable: async () => C64_NO_MOUSE,
  point: async () => {
    throw unsupported(C64_NO_MOUSE);
  },
};
