/** The toy connector's emulator: the fake CPU-less machine, plus one feature of its own (a lamp register). */
import { featureKey } from '../../../src/core/target.js';
import { FakeTarget, POWER_ON, PROGRAM } from '../fake-target.js';

export interface ToyLamp {
  readonly lit: boolean;
  set(on: boolean): Promise<void>;
}

export const TOY_LAMP = featureKey<ToyLamp>('toy-lamp');

export async function launchToyTarget(): Promise<FakeTarget> {
  const target = new FakeTarget(PROGRAM, POWER_ON);
  let lit = false;
  target.features.provide(TOY_LAMP, {
    get lit() {
      return lit;
    },
    set: async (on: boolean) => void (lit = on),
  });
  return target;
}
