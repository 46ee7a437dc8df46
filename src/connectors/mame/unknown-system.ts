/**
 * MAME's answer to a machine name it does not know ("Unknown system 'x'" and the list of
 * supported machines that approximately match), as one sentence naming the close matches.
 */

export function unknownSystemMessage(output: string): string | undefined {
  const name = /Unknown system '([^']+)'/.exec(output)?.[1];
  if (!name) return undefined;
  const matches: string[] = [];
  const list = output.slice(output.indexOf('best match first'));
  for (const line of list.split('\n').slice(1)) {
    const m = /^(\S+)\s{2,}(.+?)\s{2,}\(/.exec(line.trim() ? line : '');
    if (m) matches.push(`${m[1]} (${m[2].trim()})`);
    if (matches.length === 5) break;
  }
  return (
    `MAME does not know the machine "${name}".` +
    (matches.length ? ` Close matches: ${matches.join(', ')}.` : ' Run `mame -listfull` for the names it knows.')
  );
}
