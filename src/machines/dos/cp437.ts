/** Code page 437, the IBM PC character set, to Unicode. */

const LOW = ' ☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼';
const HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀' +
  'αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

export const CP437: readonly string[] = Array.from({ length: 256 }, (_, b) => {
  if (b < 0x20) return [...LOW][b];
  if (b < 0x7f) return String.fromCharCode(b);
  if (b === 0x7f) return '⌂';
  return [...HIGH][b - 0x80];
});

export function decodeCp437(bytes: Iterable<number>): string {
  let out = '';
  for (const b of bytes) out += CP437[b];
  return out;
}
