/**
 * Input beyond the keyboard, as typed connector features (Target.features):
 * a joystick (the C64's control ports) and a mouse driven from a pointer over
 * the machine's screen (MAME's mouse fields, the DOS INT 33h words). The
 * screen panel and agents use them through ClientSession.control, so they
 * need the control lease like any other mutation. A connector that has the
 * feature but not on this machine (a MAME system without a mouse) answers
 * `unsupported` with the reason.
 */
import { featureKey } from './target.js';

export interface JoystickState {
  up: boolean;
  down: boolean;
  left: boolean;
  right: boolean;
  fire: boolean;
}

export const JOYSTICK_IDLE: JoystickState = { up: false, down: false, left: false, right: false, fire: false };

export interface JoystickInput {
  /** the ports a program can read, numbered as the machine's manual does (C64: 1 and 2) */
  readonly ports: readonly number[];
  /** for people: what using it changes or costs (e.g. a VICE device setting, a stop a change) */
  readonly note?: string;
  set(port: number, state: JoystickState): Promise<void>;
}

/** The pointer over the machine's screen: a pixel of the frame the viewer shows (width x height). */
export interface PointerState {
  x: number;
  y: number;
  width: number;
  height: number;
  /** bit 0 left, bit 1 right, bit 2 middle */
  buttons: number;
}

export interface MouseInput {
  /** why this machine has no mouse that a pointer can drive; undefined when it has one */
  unavailable(): Promise<string | undefined>;
  /** moves the machine's mouse to (or by the move to) the pointer, with its buttons */
  point(p: PointerState): Promise<void>;
}

export const JOYSTICK_FEATURE = featureKey<JoystickInput>('joystick');
export const MOUSE_FEATURE = featureKey<MouseInput>('mouse');
