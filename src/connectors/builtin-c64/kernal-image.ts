/**
 * The 8 KiB at $E000-$FFFF of the built-in C64. It holds no Commodore code:
 * every byte is a JAM ($02) except the few 6502 instructions written here
 * (interrupt entry and exit, the idle loop) and RTS bytes where a high-level
 * stand-in (kernal.ts) takes over. A program that calls a KERNAL routine we
 * do not provide therefore stops with a JAM at that address instead of
 * running something made up.
 */

export const KERNAL_BASE = 0xe000;

/** Addresses with meaning to the stand-ins (real KERNAL addresses where programs use them). */
export const K = {
  CLRSCR: 0xe544, // clear screen (cc65 conio's clrscr calls it directly)
  KBDREAD: 0xe5b4, // take one key out of the keyboard buffer (cc65 cgetc)
  RUN_SYS: 0xe5c0, // our own: RUN's SYS, so the program's first instruction is reached by a jump
  PROGRAM_END: 0xe5ca, // our own: a program returned to "BASIC"; prints READY.
  IDLE: 0xe5cd, // our own: CLI, then jump to itself (the READY prompt)
  UPDCRAMPTR: 0xea24, // colour RAM pointer from the screen line pointer (cc65 conio)
  IRQ_DEFAULT: 0xea31, // the default IRQ handler behind ($0314): jiffy clock
  IRQ_EXIT: 0xea81, // restore Y, X, A and RTI
  NMI_ENTRY: 0xfe43,
  NMI_EXIT: 0xfe47,
  BRK_DEFAULT: 0xfe66, // the default BRK handler behind ($0316): back to READY
  COLD_START: 0xfce2,
  IRQ_ENTRY: 0xff48,
} as const;

const JAM = 0x02;
const RTS = 0x60;

function build(): Uint8Array {
  const rom = new Uint8Array(0x2000).fill(JAM);
  const put = (address: number, bytes: number[]) => rom.set(bytes, address - KERNAL_BASE);
  // IRQ/BRK entry as the KERNAL has it: save A, X, Y; BRK → ($0316), IRQ → ($0314)
  put(
    K.IRQ_ENTRY,
    [0x48, 0x8a, 0x48, 0x98, 0x48, 0xba, 0xbd, 0x04, 0x01, 0x29, 0x10, 0xf0, 0x03, 0x6c, 0x16, 0x03, 0x6c, 0x14, 0x03],
  );
  put(K.IRQ_EXIT, [0x68, 0xa8, 0x68, 0xaa, 0x68, 0x40]);
  put(K.NMI_ENTRY, [0x78, 0x6c, 0x18, 0x03]); // SEI; JMP ($0318)
  put(K.NMI_EXIT, [0x40]); // RTI
  put(K.IDLE, [0x58, 0x4c, (K.IDLE + 1) & 0xff, (K.IDLE + 1) >> 8]); // CLI; JMP *
  for (const address of TRAP_ADDRESSES) put(address, [RTS]);
  put(0xfffa, [
    K.NMI_ENTRY & 0xff,
    K.NMI_ENTRY >> 8,
    K.COLD_START & 0xff,
    K.COLD_START >> 8,
    K.IRQ_ENTRY & 0xff,
    K.IRQ_ENTRY >> 8,
  ]);
  return rom;
}

/** Jump-table entries (and internal routines) the stand-ins implement; filled in by kernal.ts's table. */
export const TRAP_ADDRESSES: number[] = [
  0xff81,
  0xff84,
  0xff87,
  0xff8a,
  0xff8d,
  0xff90,
  0xff93,
  0xff96,
  0xff9f,
  0xffa2,
  0xffa5,
  0xffa8,
  0xffab,
  0xffae,
  0xffb1,
  0xffb4,
  0xffb7,
  0xffba,
  0xffbd,
  0xffc0,
  0xffc3,
  0xffc6,
  0xffc9,
  0xffcc,
  0xffcf,
  0xffd2,
  0xffd5,
  0xffd8,
  0xffdb,
  0xffde,
  0xffe1,
  0xffe4,
  0xffe7,
  0xffea,
  0xffed,
  0xfff0,
  K.CLRSCR,
  K.KBDREAD,
  K.RUN_SYS,
  K.PROGRAM_END,
  K.UPDCRAMPTR,
  K.IRQ_DEFAULT,
  K.BRK_DEFAULT,
  K.COLD_START,
];

export const KERNAL_IMAGE = build();
