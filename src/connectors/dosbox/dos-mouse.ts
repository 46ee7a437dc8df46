/**
 * The pointer over the screen panel as the DOS program's mouse: DOSBox's
 * mouse driver keeps its state inside the emulator, so what the program sees
 * is driven through the words its own INT 33h handler fills (the profile's
 * "mouse", as dosbox_click uses): each point writes x, y (INT 33h virtual
 * coordinates) and the buttons once; the panel repeats the point while a
 * button is held, since the handler keeps overwriting them. Without a
 * profile naming those words there is nothing to drive: `unsupported`, saying so.
 */
import { unsupported } from '../../core/errors.js';
import type { MouseInput, PointerState } from '../../core/input-devices.js';
import { BDA } from '../../machines/dos/bda.js';
import { int33Position } from '../../machines/dos/screen-cell.js';
import type { DosMachine } from './dos-machine.js';

export const DOS_NO_MOUSE_WORDS =
  'No mouse words for this program: DOSBox keeps its INT 33h driver state inside the emulator, so the panel drives the words the program\'s own handler fills; load a profile with "mouse" (buttons, x, y) for it.';

export class DosMouse implements MouseInput {
  constructor(private readonly machine: Pick<DosMachine, 'profile' | 'resolve' | 'guest'>) {}

  async unavailable(): Promise<string | undefined> {
    return this.machine.profile?.mouse ? undefined : DOS_NO_MOUSE_WORDS;
  }

  async point(p: PointerState): Promise<void> {
    const m = this.machine.profile?.mouse;
    if (!m) throw unsupported(DOS_NO_MOUSE_WORDS);
    const at = (offset: number) => this.machine.resolve(`ds:${offset.toString(16)}`).physical;
    const [mode] = await this.machine.guest.read(BDA.videoMode, 1);
    const pos = int33Position(p.x, p.y, p.width, p.height, mode);
    const put = (address: number, v: number) => this.machine.guest.write(address, Uint8Array.of(v & 0xff, v >> 8));
    await put(at(m.x), pos.x);
    await put(at(m.y), pos.y);
    await put(at(m.buttons), p.buttons & 7);
  }
}
