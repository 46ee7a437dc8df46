/**
 * One DOS guest inside an emulator: guest physical memory (bounded to what a
 * real-mode program can address), the BIOS data area and the program list.
 */
import { notFound, badAddress } from '../../core/errors.js';
import { REAL_MODE_LIMIT, farHex, physical, readBda, type BdaSummary } from '../../machines/dos/bda.js';
import { findFirstMcb, listPrograms, walkChain, type DosProgram, type McbBlock } from '../../machines/dos/mcb.js';
import type { HostMemory } from './host-memory.js';

export interface ProgramMap {
  firstMcb: number;
  blocks: McbBlock[];
  programs: DosProgram[];
}

export class DosGuest {
  constructor(
    readonly host: HostMemory,
    readonly base: number,
  ) {}

  /** Guest physical bytes; past 0x10FFF0 is outside anything a DOS program can reach. */
  async read(phys: number, length: number): Promise<Uint8Array> {
    this.check(phys, length);
    return this.host.read(this.base + phys, length);
  }

  async write(phys: number, data: Uint8Array): Promise<void> {
    this.check(phys, data.length);
    await this.host.write(this.base + phys, data);
  }

  async bda(): Promise<BdaSummary> {
    return readBda(await this.read(0, 0x500));
  }

  /** Is INT 21h served by DOS yet (not by the BIOS boot stub)? Needs a valid MCB chain. */
  async programMap(): Promise<ProgramMap> {
    const bda = await this.bda();
    const top = bda.conventionalKb * 64;
    const read = (p: number, n: number) => this.read(p, n);
    const firstMcb = await findFirstMcb(read, top);
    const blocks = firstMcb === undefined ? undefined : await walkChain(read, firstMcb, top);
    if (firstMcb === undefined || !blocks) {
      throw notFound(
        `The guest has no DOS memory chain yet (INT 21h at ${farHex(bda.int21)}): it is still booting. Try again in a moment.`,
        { int21: farHex(bda.int21) },
      );
    }
    return { firstMcb, blocks, programs: await listPrograms(read, blocks) };
  }

  /** The newest program whose name matches (case-insensitive), else the last loaded one. */
  async program(name?: string): Promise<DosProgram> {
    const { programs } = await this.programMap();
    const user = programs.filter(
      (p) => p.path?.toUpperCase() !== 'Z:\\COMMAND.COM' && p.name.toUpperCase() !== 'COMMAND',
    );
    const pick = name
      ? programs
          .filter(
            (p) =>
              p.name.toUpperCase() === name.toUpperCase() || p.path?.toUpperCase().endsWith('\\' + name.toUpperCase()),
          )
          .at(-1)
      : (user.at(-1) ?? programs.at(-1));
    if (!pick)
      throw notFound(
        name
          ? `No program named ${name} is loaded; loaded: ${programs.map((p) => p.name).join(', ') || 'none'}.`
          : 'No program is loaded.',
      );
    return pick;
  }

  /** Who owns the block that holds `phys` (for "INT 9 is hooked by X"). */
  async ownerOf(phys: number): Promise<string | undefined> {
    try {
      const { blocks, programs } = await this.programMap();
      const seg = phys >> 4;
      const block = blocks.find((b) => seg > b.segment && seg <= b.segment + b.size);
      if (!block) return undefined;
      return programs.find((p) => p.psp === block.owner)?.name ?? `block ${block.segment.toString(16)}`;
    } catch {
      return undefined;
    }
  }

  private check(phys: number, length: number): void {
    if (!Number.isInteger(phys) || phys < 0 || phys + length > REAL_MODE_LIMIT) {
      throw badAddress(
        `Guest address 0x${phys.toString(16).toUpperCase()}+${length} is past guest memory a DOS program can reach (0x00000–0x${(REAL_MODE_LIMIT - 1).toString(16).toUpperCase()}); nothing was read or written.`,
        { physical: phys, length },
      );
    }
  }
}

export { physical };
