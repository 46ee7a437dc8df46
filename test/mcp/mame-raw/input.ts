/**
 * Raw abilities 21-30: the screen (screenshot, pixels) and input (ports, keys typed three ways, fields pressed and
 * held, the mouse), each checked by what the program saw, with nothing left held afterwards.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { call, callExpectingError, type Structured } from '../mcp-helpers.js';
import { findKeyBuffer, rowAtoG as rowAtoGOf, sleep, typedText as typedTextOf, waitFor } from '../mame-helpers.js';
import type { RawRun } from './run.js';

export function inputTests(run: RawRun): void {
  const { subject } = run;
  const m = subject.machine;
  const typedText = () => typedTextOf(run.agent, run.keyBuffer!);
  const rowAtoG = () => rowAtoGOf(run.agent);

  test(`${m}: screenshot and read_screen_pixels: size, frame, stale flag and what the program drew`, async () => {
    const { agent } = run;
    const { width, height, x, y, hex } = subject.screen;
    const probe = { x, y, width: hex.length / 8, height: 1 };
    if (subject.screen.waitDrawn) {
      // drawn while the program ran: at a stop MAME shows its last completed frame
      await run.running();
      await waitFor('a frame with the text', async () => {
        const px = await call(agent, 'read_screen_pixels', probe);
        return Buffer.from(px.pixels, 'base64').toString('hex') === hex;
      });
      await run.stopped();
    }
    const shot = await call(agent, 'screenshot', { output_path: `shot-${m}.png` });
    assert.deepEqual([shot.width, shot.height, shot.maybe_stale], [width, height, true]);
    assert.equal(readFileSync(shot.path).subarray(1, 4).toString(), 'PNG');
    await callExpectingError(agent, 'screenshot', { output_path: `shot-${m}.png` }, 'file_exists');
    const px = await call(agent, 'read_screen_pixels', probe);
    assert.deepEqual([px.format, px.screen_width, px.screen_height, px.maybe_stale], ['rgba8', width, height, true]);
    assert.equal(Buffer.from(px.pixels, 'base64').toString('hex'), hex);
    assert.equal(typeof px.frame, 'number');
    const full = await call(agent, 'read_screen_pixels', {});
    assert.equal(Buffer.from(full.pixels, 'base64').length, width * height * 4);
    await callExpectingError(agent, 'read_screen_pixels', { x: width - 2, width: 10 }, 'bad_request');
  });

  test(`${m}: list_ports lists the keyboard matrix fields by name`, async () => {
    const res = await call(run.agent, 'list_ports', { type_class: 'keyboard' });
    const row = res.ports.find((p: Structured) => p.tag === subject.ports.aToG);
    assert.ok(row.fields.some((f: Structured) => f.name.startsWith('a ') && f.mask === 1 && f.type === 'KEYBOARD'));
    assert.ok(res.ports.every((p: Structured) => p.fields.every((f: Structured) => f.type_class === 'keyboard')));
  });

  test(`${m}: press_key needs a running machine, then the program sees the key; nothing stays held`, async () => {
    const { agent } = run;
    run.keyBuffer = await findKeyBuffer(agent);
    await callExpectingError(agent, 'press_key', { key: 'a' }, 'not_running');
    await run.running();
    const pressed = await call(agent, 'press_key', { key: 'a', frames: 3 });
    assert.equal(pressed.outcome, 'done');
    assert.match(pressed.pressed[0].field, /^a\s/);
    await waitFor('the program to see "a"', async () => (await typedText()).includes('a'));
    assert.equal((await call(agent, 'list_held_inputs')).held.length, 0);
    assert.equal(await rowAtoG(), 0x1f, 'no key of row A-G is down');
  });

  test(`${m}: type_string types frame-paced with shift; an untypeable character refuses the whole string`, async () => {
    const before = await typedText();
    const bad = await callExpectingError(run.agent, 'type_string', { text: 'ok€' }, 'bad_request');
    assert.deepEqual(bad.details.missing, ['€']);
    await sleep(200);
    assert.equal(await typedText(), before, 'nothing of the refused string was typed');
    const typed = await call(run.agent, 'type_string', { text: 'Hi 42' });
    assert.deepEqual([typed.outcome, typed.characters], ['done', 5]);
    let seen = '';
    await waitFor('"Hi 42"', async () => (seen = await typedText()) === before + 'Hi 42').catch(() =>
      assert.fail(`typed ${JSON.stringify(seen)}, expected ${JSON.stringify(before + 'Hi 42')}`),
    );
  });

  test(`${m}: type_text goes through MAME's natural keyboard`, async () => {
    const before = await typedText();
    const res = await call(run.agent, 'type_text', { text: 'xy' });
    assert.equal(res.outcome, 'posted');
    await waitFor('"xy" from the natural keyboard', async () => (await typedText()) === before + 'xy', 20_000);
  });

  test(`${m}: press_input presses a named field; set_input holds one until the machine stops`, async () => {
    const { agent } = run;
    const before = await typedText();
    const res = await call(agent, 'press_input', { port: subject.ports.space, field: 'SPACE', frames: 2 });
    assert.equal(res.outcome, 'done');
    await waitFor('a space', async () => (await typedText()) === before + ' ');
    const gField = (await call(agent, 'list_ports', { type_class: 'keyboard' })).ports
      .find((p: Structured) => p.tag === subject.ports.aToG)
      .fields.find((f: Structured) => f.name.startsWith('g ')).name;
    const held = await call(agent, 'set_input', { port: subject.ports.aToG, field: gField, value: 1 });
    assert.equal(held.outcome, 'held');
    await waitFor('the held g', async () => (await typedText()).endsWith('g'));
    assert.equal(await rowAtoG(), 0x0f, 'g (bit 4) is down while held');
    assert.equal((await call(agent, 'list_held_inputs')).held.length, 1);
    await run.stopped();
    assert.equal((await call(agent, 'list_held_inputs')).held.length, 0, 'a stop forgets every held input');
    // MAME released the field at the stop; the port shows it from the next emulated frame on
    await run.running();
    await waitFor('g released', async () => (await rowAtoG()) === 0x1f, 5000);
    const after = await typedText();
    await sleep(300);
    assert.equal(await typedText(), after, 'no new key presses after the release');
    await run.stopped();
  });

  test(`${m}: move_mouse and click_mouse: ${subject.mouse ? 'reach the mouse ports' : 'unsupported, naming the machine'}`, async () => {
    const { agent } = run;
    await run.running();
    if (!subject.mouse) {
      const move = await callExpectingError(agent, 'move_mouse', { x: 10, y: 10 }, 'unsupported');
      assert.match(move.message, new RegExp(m));
      await callExpectingError(agent, 'click_mouse', {}, 'unsupported');
    } else {
      const { x: xPort, buttons } = subject.mouse;
      const moved = call(agent, 'move_mouse', { x: 50, y: 20, frames: 30 });
      let x = 0;
      for (let i = 0; i < 50 && x !== 50; i++) {
        x = (await call(agent, 'read_port', { port: xPort })).value;
        await sleep(20);
      }
      assert.equal(x, 50, 'the X axis reads what move_mouse set');
      assert.equal((await moved).outcome, 'done');
      const idle = (await call(agent, 'read_port', { port: buttons })).value;
      const click = call(agent, 'click_mouse', { button: 1, frames: 30 });
      let button = idle;
      for (let i = 0; i < 50 && button === idle; i++) {
        button = (await call(agent, 'read_port', { port: buttons })).value;
        await sleep(20);
      }
      assert.notEqual(button, idle, 'the button shows pressed while clicked');
      assert.equal((await click).outcome, 'done');
      assert.deepEqual((await call(agent, 'list_held_inputs')).held, []);
    }
    await run.stopped();
  });
}
