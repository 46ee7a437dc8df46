/**
 * The memory spaces a session offers, as the built-in hex view's picker lists them: the CPU's view first, then
 * each space that needs no tag, then each bank or tag the target names (VICE's ram/rom/io, MAME's shares).
 * A choice's `prefix` and an offset make a memory reference (core/memory-reference.ts). Pure, so it is unit tested.
 */
import type { Space, SpaceBank, Target } from './target.js';

export interface SpaceChoice {
  label: string;
  /** '' for the CPU's view (its references are bare numbers), else e.g. `vram:` or `cpu@ram:` */
  prefix: string;
}

/** Spaces read only through a tag: listed by their banks alone. */
const TAGGED: readonly Space[] = ['share'];
/** Banks that are the CPU's view under another name (VICE's `default` and `cpu`). */
const CPU_VIEW_BANKS: readonly (string | number)[] = ['default', 'cpu'];

export function spaceChoices(spaces: readonly Space[], banks: readonly SpaceBank[] = []): SpaceChoice[] {
  const choices: SpaceChoice[] = [];
  const add = (choice: SpaceChoice) => {
    if (!choices.some((c) => c.prefix === choice.prefix)) choices.push(choice);
  };
  if (spaces.includes('cpu')) add({ label: 'cpu (what the CPU sees)', prefix: '' });
  for (const space of spaces)
    if (space !== 'cpu' && !TAGGED.includes(space)) add({ label: space, prefix: `${space}:` });
  for (const { space, bank, note } of banks) {
    if (!spaces.includes(space) || (space === 'cpu' && CPU_VIEW_BANKS.includes(bank))) continue;
    const name = `${space}@${bank}`;
    add({ label: note ? `${name} (${note})` : name, prefix: `${name}:` });
  }
  return choices;
}

/** The choice a reference is in: the longest prefix it starts with (a bare number is the CPU's view). */
export function choiceOf(choices: readonly SpaceChoice[], reference: string): SpaceChoice | undefined {
  const text = reference.trim();
  const within = choices.filter((c) => (c.prefix === '' ? !text.includes(':') : text.startsWith(c.prefix)));
  return within.sort((a, b) => b.prefix.length - a.prefix.length)[0];
}

/** A target's choices: its spaces and the banks it names. */
export async function targetSpaceChoices(target: Pick<Target, 'info' | 'memory'>): Promise<SpaceChoice[]> {
  return spaceChoices(target.info.spaces, (await target.memory.banks?.()) ?? []);
}
