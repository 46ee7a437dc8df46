/**
 * The pointer over the screen panel drives a MAME machine's mouse: its
 * analog X/Y fields (mouse, trackball or lightgun; findMouse) are relative,
 * so each move becomes the change since the last point, in screen pixels,
 * held for one frame through the bridge's input queue; buttons are held
 * fields (input_set) while pressed. A machine without such fields (the
 * Spectrum) answers `unsupported` naming it, once its ports were listed.
 */
import { RetroError } from '../../core/errors.js';
import type { MouseInput, PointerState } from '../../core/input-devices.js';
import { findMouse, type MameRaw } from './mame-raw.js';

type Mouse = ReturnType<typeof findMouse>;

export class MameMouse implements MouseInput {
  private mouse?: Promise<Mouse>;
  private last?: { x: number; y: number };
  private buttons = 0;

  constructor(private readonly raw: Pick<MameRaw, 'machine' | 'listPorts' | 'enqueueInput' | 'setInput'>) {}

  async unavailable(): Promise<string | undefined> {
    try {
      await this.find();
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  }

  async point(p: PointerState): Promise<void> {
    const mouse = await this.find();
    const last = this.last ?? p;
    this.last = { x: p.x, y: p.y };
    const dx = p.x - last.x;
    const dy = p.y - last.y;
    if (dx || dy)
      await this.raw.enqueueInput([
        {
          fields: [
            { ...mouse.x, value: dx },
            { ...mouse.y, value: dy },
          ],
          frames: 1,
        },
      ]);
    for (let b = 0; b < mouse.buttons.length && b < 3; b++) {
      const bit = 1 << b;
      if ((p.buttons & bit) === (this.buttons & bit)) continue;
      await this.raw.setInput(mouse.buttons[b].port, mouse.buttons[b].field, p.buttons & bit ? 1 : 0);
    }
    this.buttons = p.buttons;
  }

  private find(): Promise<Mouse> {
    // the answer is kept (a machine does not grow a mouse); a failed port listing is asked again next time
    this.mouse ??= this.raw
      .listPorts()
      .then((ports) => findMouse(ports, this.raw.machine))
      .catch((err: unknown) => {
        if (!(err instanceof RetroError && err.code === 'unsupported')) this.mouse = undefined;
        throw err;
      });
    return this.mouse;
  }
}
