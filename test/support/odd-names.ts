// The folder and file names a user can type that have broken sessions: shell metacharacters and both quotes,
// non-ASCII (Cyrillic, CJK, emoji) and a path longer than VICE's 255-byte monitor field.
import { join } from 'node:path';

const LONG_FOLDER = 'Длинный-'.repeat(14); // 112 characters, 210 bytes

export const ODD_NAMES: { label: string; folder: string; stem: string }[] = [
  { label: 'shell metacharacters and quotes', folder: `sp ace 'q' "dq" $(x) \`b\`; s`, stem: `p "q" 'x' $y; z` },
  { label: 'Cyrillic, CJK and emoji', folder: 'Ж-cyrillic 中文 🎮', stem: 'p Ж-cyrillic' },
  { label: 'a path over 255 bytes', folder: LONG_FOLDER, stem: 'p'.repeat(90) },
];

/** Every odd folder name nested under `base`: one path that holds them all (for a test with one session). */
export function allOddFolders(base: string): string {
  return join(base, ...ODD_NAMES.map((n) => n.folder));
}
