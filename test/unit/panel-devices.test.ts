/**
 * The panel's joystick and mouse pieces without an emulator: the webview messages' checks, the key mapping,
 * the C64 joystick lines (active low) and the VICE device set once a port, MAME's relative mouse from pointer
 * moves (the deltas, held buttons, the machine without a mouse), the DOS INT 33h coordinates and words.
 * The real paths: integration/c64-joystick (built-in C64), integration/panel-devices-mame (real MAME).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JOYSTICK_IDLE } from '../../src/core/input-devices.js';
import { MameMouse } from '../../src/connectors/mame/mame-mouse.js';
import type { FieldRef, InputStep, PortInfo } from '../../src/connectors/mame/mame-raw.js';
import { DOS_NO_MOUSE_WORDS, DosMouse } from '../../src/connectors/dosbox/dos-mouse.js';
import { ViceJoystick, joystickLines } from '../../src/connectors/vice/vice-joystick.js';
import { int33Position } from '../../src/machines/dos/screen-cell.js';
import { joystickControl } from '../../src/ui/panel-keys.js';
import { parseWebviewMessage } from '../../src/ui/screen-messages.js';

test('webview messages: joystick, pointer and sprites are checked field by field', () => {
  const state = { ...JOYSTICK_IDLE, up: true };
  assert.deepEqual(parseWebviewMessage({ type: 'joystick', port: 2, state: { ...state, extra: 1 } }), {
    type: 'joystick',
    port: 2,
    state,
  });
  assert.equal(parseWebviewMessage({ type: 'joystick', port: 2, state: { up: true } }), undefined);
  assert.equal(parseWebviewMessage({ type: 'joystick', port: -1, state }), undefined);
  assert.deepEqual(parseWebviewMessage({ type: 'pointer', x: 3, y: 4, buttons: 5 }), {
    type: 'pointer',
    x: 3,
    y: 4,
    buttons: 5,
  });
  assert.equal(parseWebviewMessage({ type: 'pointer', x: 3, y: 4, buttons: 8 }), undefined);
  assert.deepEqual(parseWebviewMessage({ type: 'sprites', on: true }), { type: 'sprites', on: true });
  assert.equal(parseWebviewMessage({ type: 'sprites', on: 1 }), undefined);
});

test('joystick mapping: cursor keys and Ctrl; C64 lines active low', () => {
  assert.deepEqual(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Control', 'a', 'Enter'].map(joystickControl), [
    'up',
    'down',
    'left',
    'right',
    'fire',
    undefined,
    undefined,
  ]);
  assert.equal(joystickLines(JOYSTICK_IDLE), 0x1f);
  assert.equal(joystickLines({ up: true, down: true, left: true, right: true, fire: true }), 0x00);
  assert.equal(joystickLines({ ...JOYSTICK_IDLE, right: true, fire: true }), 0x07);
});

test('VICE joystick: the I/O simulation device is set once a port, then one JOYPORT_SET a change (0-based port)', async () => {
  const calls: string[] = [];
  const j = new ViceJoystick({
    setResource: async (name, value) => void calls.push(`${name}=${value}`),
    setJoyport: async (port, value) => void calls.push(`joy ${port} ${value.toString(16)}`),
  });
  await j.set(2, { ...JOYSTICK_IDLE, fire: true });
  await j.set(2, JOYSTICK_IDLE);
  await j.set(1, { ...JOYSTICK_IDLE, up: true });
  assert.deepEqual(calls, ['JoyPort2Device=37', 'joy 1 f', 'joy 1 1f', 'JoyPort1Device=37', 'joy 0 1e']);
  await assert.rejects(j.set(0, JOYSTICK_IDLE), /ports 1 and 2, not 0/);
});

const field = (name: string, type: string, analog: boolean) => ({
  name,
  type,
  type_class: 'controller',
  mask: 0xff,
  player: 0,
  is_analog: analog,
  defvalue: 0,
});

function fakeMame(ports: PortInfo[], machine = 'amiga') {
  const queued: InputStep[][] = [];
  const held: FieldRef[] = [];
  let listed = 0;
  const raw = {
    machine,
    listPorts: async () => {
      listed++;
      return ports;
    },
    enqueueInput: async (steps: InputStep[]) => {
      queued.push(steps);
      return { id: queued.length, done: Promise.resolve('done' as const) };
    },
    setInput: async (port: string, f: string, value: number) => void held.push({ port, field: f, value }),
  };
  return { raw, queued, held, listed: () => listed };
}

test('MAME mouse: the moves add up to a position per axis, held, wrapped to the field; buttons held while pressed', async () => {
  const m = fakeMame([
    {
      tag: ':mouse',
      fields: [
        field('Mouse X', 'P1_MOUSE_X', true),
        field('Mouse Y', 'P1_MOUSE_Y', true),
        field('Mouse Button 1', 'P1_BUTTON1', false),
      ],
    },
  ]);
  let release: (() => void) | undefined;
  const mouse = new MameMouse({ ...m.raw, onInputReleased: (l: () => void) => ((release = l), () => undefined) });
  assert.equal(await mouse.unavailable(), undefined);
  const at = (x: number, y: number, buttons = 0) => mouse.point({ x, y, width: 320, height: 200, buttons });
  await at(100, 50); // the first point only sets where the pointer is
  await at(110, 45);
  await at(110, 45, 1);
  await at(112, 45, 0);
  // MAME's set_value is what the port reads: 10, then 12; y -5 wraps to 251 in the field's 8 bits
  assert.deepEqual(m.held, [
    { port: ':mouse', field: 'Mouse X', value: 10 },
    { port: ':mouse', field: 'Mouse Y', value: 251 },
    { port: ':mouse', field: 'Mouse Button 1', value: 1 },
    { port: ':mouse', field: 'Mouse X', value: 12 },
    { port: ':mouse', field: 'Mouse Button 1', value: 0 },
  ]);
  assert.deepEqual(m.queued, [], 'nothing paced by frames: a position stays');
  // a stop released every held field (the port reads 0 again): the position starts from 0
  release!();
  await at(115, 45);
  assert.deepEqual(m.held.at(-1), { port: ':mouse', field: 'Mouse X', value: 3 });
  assert.equal(m.listed(), 1, 'the ports are listed once');
});

test('MAME without a mouse: unavailable names the machine, point is unsupported, asked once', async () => {
  const m = fakeMame([{ tag: ':keys', fields: [field('a', 'KEYBOARD', false)] }], 'spectrum');
  const mouse = new MameMouse(m.raw);
  assert.match((await mouse.unavailable()) ?? '', /"spectrum" has no mouse/);
  await assert.rejects(mouse.point({ x: 1, y: 1, width: 2, height: 2, buttons: 0 }), (e: { code?: string }) => {
    return e.code === 'unsupported';
  });
  assert.equal(m.listed(), 1);
});

test('DOS mouse: frame pixels as INT 33h coordinates into the profile words; none without a profile', async () => {
  assert.deepEqual(int33Position(160, 100, 320, 200, 0x13), { x: 320, y: 100 }); // mode 13h doubles x
  assert.deepEqual(int33Position(719, 399, 720, 400, 0x03), { x: 639, y: 199 });
  assert.deepEqual(int33Position(320, 240, 640, 480, 0x12), { x: 320, y: 240 });
  const writes: [number, number[]][] = [];
  const machine = {
    profile: { mouse: { buttons: 0x10, x: 0x12, y: 0x14 } },
    resolve: (input: string) => ({ physical: 0x20000 + parseInt(input.slice(3), 16) }),
    guest: {
      read: async () => Uint8Array.of(0x13),
      write: async (address: number, data: Uint8Array) => void writes.push([address, [...data]]),
    },
  };
  const mouse = new DosMouse(machine as unknown as ConstructorParameters<typeof DosMouse>[0]);
  assert.equal(await mouse.unavailable(), undefined);
  await mouse.point({ x: 160, y: 100, width: 320, height: 200, buttons: 1 });
  assert.deepEqual(writes, [
    [0x20012, [0x40, 0x01]],
    [0x20014, [100, 0]],
    [0x20010, [1, 0]],
  ]);
  const none = new DosMouse({ ...machine, profile: undefined } as unknown as ConstructorParameters<typeof DosMouse>[0]);
  assert.equal(await none.unavailable(), DOS_NO_MOUSE_WORDS);
  await assert.rejects(none.point({ x: 0, y: 0, width: 1, height: 1, buttons: 0 }), /No mouse words/);
});
