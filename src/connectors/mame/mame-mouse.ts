/**
 * The pointer over the screen panel drives a MAME machine's mouse: its
 * analog X/Y fields (mouse, trackball or lightgun; findMouse). MAME's
 * `set_value` on such a field sets what its port reads (tried on 0.251's
 * mac128k: 10 reads 10 while held, 0 once cleared), not a delta, so the
 * pointer's moves add up to a position per axis, wrapped to the field's
 * range, held (input_set) until the next move; the machine sees its counter
 * move by each step, as a real mouse's. A stop releases every held field
 * (the port reads 0 again), so the position starts from 0 after one.
 * Buttons are held fields while pressed; MAME folds a digital field into its
 * port once a frame, so a press or a release shows at the next frame (an
 * axis at once). A machine without such fields (the Spectrum) answers
 * `unsupported` naming it, once its ports were listed.
 */
import { RetroError } from '../../core/errors.js';
import type { MouseInput, PointerState } from '../../core/input-devices.js';
import { findMouse, type AxisRange, type MameRaw } from './mame-raw.js';

type Mouse = ReturnType<typeof findMouse>;

export class MameMouse implements MouseInput {
  private mouse?: Promise<Mouse>;
  private last?: { x: number; y: number };
  private at = { x: 0, y: 0 };
  private buttons = 0;

  constructor(
    private readonly raw: Pick<MameRaw, 'machine' | 'listPorts' | 'setInput'> &
      Partial<Pick<MameRaw, 'onInputReleased'>>,
  ) {
    raw.onInputReleased?.(() => {
      this.at = { x: 0, y: 0 };
      this.buttons = 0;
    });
  }

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
    if (dx) {
      this.at.x = wrap(this.at.x + dx, mouse.range.x);
      await this.raw.setInput(mouse.x.port, mouse.x.field, this.at.x);
    }
    if (dy) {
      this.at.y = wrap(this.at.y + dy, mouse.range.y);
      await this.raw.setInput(mouse.y.port, mouse.y.field, this.at.y);
    }
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

/** `value` within [min, max], counting on past either end as a mouse counter does. */
function wrap(value: number, range: AxisRange): number {
  const span = range.max - range.min + 1;
  return ((((value - range.min) % span) + span) % span) + range.min;
}
