#!/usr/bin/env node
/**
 * Generates data/c64-symbol-profile.json: the C64 platform symbols (6510 port,
 * VIC-II, SID, both CIAs, colour RAM, the KERNAL jump table, processor and
 * KERNAL RAM vectors, common KERNAL workspace) and value-only equates for
 * documented control bits. Deterministic: same input, same bytes.
 *   node scripts/gen-c64-symbol-profile.mjs [output-path]   (default: data/c64-symbol-profile.json)
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PRG = "Commodore 64 Programmer's Reference Guide (Commodore Business Machines / Howard W. Sams, 1982)";
const VERSION = '1.0.0';

/** [name, address, size, comment] rows → symbol objects */
const rows = (list) => list.map(([name, address, size, comment]) => ({ name, address, size, comment }));
/** consecutive one-byte registers from `base` */
const regs = (base, names) => names.map(([name, comment], i) => ({ name, address: base + i, size: 1, comment }));

const voice = (n, base) =>
  regs(base, [
    [`FRELO${n}`, `voice ${n} frequency, low byte`],
    [`FREHI${n}`, `voice ${n} frequency, high byte`],
    [`PWLO${n}`, `voice ${n} pulse width, low byte`],
    [`PWHI${n}`, `voice ${n} pulse width, high nybble`],
    [`VCREG${n}`, `voice ${n} control register`],
    [`ATDCY${n}`, `voice ${n} attack/decay`],
    [`SUREL${n}`, `voice ${n} sustain/release`],
  ]);

const cia = (p, base, label) =>
  regs(base, [
    [`${p}PRA`, `${label} data port A`],
    [`${p}PRB`, `${label} data port B`],
    [`${p}DDRA`, `${label} data direction A`],
    [`${p}DDRB`, `${label} data direction B`],
    [`${p}TALO`, `${label} timer A low`],
    [`${p}TAHI`, `${label} timer A high`],
    [`${p}TBLO`, `${label} timer B low`],
    [`${p}TBHI`, `${label} timer B high`],
    [`${p}TOD10`, `${label} time of day, tenths`],
    [`${p}TODSEC`, `${label} time of day, seconds (BCD)`],
    [`${p}TODMIN`, `${label} time of day, minutes (BCD)`],
    [`${p}TODHR`, `${label} time of day, hours (BCD) + PM`],
    [`${p}SDR`, `${label} serial data register`],
    [`${p}ICR`, `${label} interrupt control`],
    [`${p}CRA`, `${label} control register A`],
    [`${p}CRB`, `${label} control register B`],
  ]);

const groups = [
  {
    id: 'cpu_port',
    title: '6510 on-chip I/O port',
    source: `${PRG}, Appendix L "6510 microprocessor chip specifications"; MOS 6510 data sheet`,
    symbols: rows([
      ['D6510', 0x0000, 1, 'data direction register of the 6510 port'],
      ['R6510', 0x0001, 1, '6510 port: LORAM/HIRAM/CHAREN banking, cassette'],
    ]),
  },
  {
    id: 'vic_ii',
    title: 'VIC-II video chip registers ($D000-$D02E)',
    source: `${PRG}, Appendix G "VIC chip register map" and Appendix N "6566/6567 (VIC-II) chip specifications"; MOS 6567/6569 data sheet`,
    symbols: regs(0xd000, [
      ...Array.from({ length: 8 }, (_, i) => [
        [`SP${i}X`, `sprite ${i} X position`],
        [`SP${i}Y`, `sprite ${i} Y position`],
      ]).flat(),
      ['MSIGX', 'sprites 0-7 X position bit 8'],
      ['SCROLY', 'control 1: Y scroll, RSEL, DEN, BMM, ECM, raster bit 8'],
      ['RASTER', 'raster line (read) / raster compare (write)'],
      ['LPENX', 'light pen X'],
      ['LPENY', 'light pen Y'],
      ['SPENA', 'sprite enable'],
      ['SCROLX', 'control 2: X scroll, CSEL, MCM'],
      ['YXPAND', 'sprite Y expand'],
      ['VMCSB', 'video matrix and character/bitmap base'],
      ['VICIRQ', 'interrupt flags'],
      ['IRQMSK', 'interrupt enable mask'],
      ['SPBGPR', 'sprite to background priority'],
      ['SPMC', 'sprite multicolor select'],
      ['XXPAND', 'sprite X expand'],
      ['SPSPCL', 'sprite-sprite collision'],
      ['SPBGCL', 'sprite-background collision'],
      ['EXTCOL', 'border colour'],
      ['BGCOL0', 'background colour 0'],
      ['BGCOL1', 'background colour 1 (multicolor 1)'],
      ['BGCOL2', 'background colour 2 (multicolor 2)'],
      ['BGCOL3', 'background colour 3'],
      ['SPMC0', 'sprite multicolor 0'],
      ['SPMC1', 'sprite multicolor 1'],
      ...Array.from({ length: 8 }, (_, i) => [`SP${i}COL`, `sprite ${i} colour`]),
    ]),
  },
  {
    id: 'sid',
    title: 'SID sound chip registers ($D400-$D41C)',
    source: `${PRG}, Appendix O "6581 sound interface device (SID) chip specifications"; MOS 6581 data sheet`,
    symbols: [
      ...voice(1, 0xd400),
      ...voice(2, 0xd407),
      ...voice(3, 0xd40e),
      ...regs(0xd415, [
        ['CUTLO', 'filter cutoff, low 3 bits'],
        ['CUTHI', 'filter cutoff, high byte'],
        ['RESON', 'filter resonance and routing'],
        ['SIGVOL', 'filter mode and main volume'],
        ['POTX', 'paddle X (read)'],
        ['POTY', 'paddle Y (read)'],
        ['RANDOM', 'voice 3 oscillator output (read)'],
        ['ENV3', 'voice 3 envelope output (read)'],
      ]),
    ],
  },
  {
    id: 'cia1',
    title: 'CIA 1 ($DC00-$DC0F): keyboard, joysticks, IRQ',
    source: `${PRG}, Appendix M "6526 complex interface adapter (CIA) chip specifications"; MOS 6526 data sheet`,
    symbols: cia('CIA1', 0xdc00, 'CIA 1'),
  },
  {
    id: 'cia2',
    title: 'CIA 2 ($DD00-$DD0F): serial bus, VIC bank, NMI',
    source: `${PRG}, Appendix M "6526 complex interface adapter (CIA) chip specifications"; MOS 6526 data sheet`,
    symbols: cia('CIA2', 0xdd00, 'CIA 2'),
  },
  {
    id: 'color_ram',
    title: 'Colour RAM',
    source: `${PRG}, Appendix D "Screen and color memory maps"`,
    symbols: rows([['COLRAM', 0xd800, 1024, 'colour RAM: one nybble per screen cell (1000 used)']]),
  },
  {
    id: 'kernal_jump_table',
    title: 'KERNAL jump table (39 standard entries)',
    source: `${PRG}, Chapter 5 "Basic to machine language", section "User callable KERNAL routines"`,
    symbols: rows([
      ['CINT', 0xff81, 3, 'initialize screen editor and VIC'],
      ['IOINIT', 0xff84, 3, 'initialize I/O devices'],
      ['RAMTAS', 0xff87, 3, 'RAM test, set top/bottom of memory'],
      ['RESTOR', 0xff8a, 3, 'restore default KERNAL vectors'],
      ['VECTOR', 0xff8d, 3, 'read/set KERNAL vectors'],
      ['SETMSG', 0xff90, 3, 'control KERNAL messages'],
      ['SECOND', 0xff93, 3, 'send secondary address after LISTEN'],
      ['TKSA', 0xff96, 3, 'send secondary address after TALK'],
      ['MEMTOP', 0xff99, 3, 'read/set top of memory'],
      ['MEMBOT', 0xff9c, 3, 'read/set bottom of memory'],
      ['SCNKEY', 0xff9f, 3, 'scan the keyboard'],
      ['SETTMO', 0xffa2, 3, 'set IEEE timeout'],
      ['ACPTR', 0xffa5, 3, 'input byte from serial bus'],
      ['CIOUT', 0xffa8, 3, 'output byte to serial bus'],
      ['UNTLK', 0xffab, 3, 'send UNTALK'],
      ['UNLSN', 0xffae, 3, 'send UNLISTEN'],
      ['LISTEN', 0xffb1, 3, 'command a device to LISTEN'],
      ['TALK', 0xffb4, 3, 'command a device to TALK'],
      ['READST', 0xffb7, 3, 'read I/O status word'],
      ['SETLFS', 0xffba, 3, 'set logical, device and secondary address'],
      ['SETNAM', 0xffbd, 3, 'set file name'],
      ['OPEN', 0xffc0, 3, 'open a logical file'],
      ['CLOSE', 0xffc3, 3, 'close a logical file'],
      ['CHKIN', 0xffc6, 3, 'open channel for input'],
      ['CHKOUT', 0xffc9, 3, 'open channel for output'],
      ['CLRCHN', 0xffcc, 3, 'restore default I/O channels'],
      ['CHRIN', 0xffcf, 3, 'input a character'],
      ['CHROUT', 0xffd2, 3, 'output a character'],
      ['LOAD', 0xffd5, 3, 'load or verify from a device'],
      ['SAVE', 0xffd8, 3, 'save memory to a device'],
      ['SETTIM', 0xffdb, 3, 'set the jiffy clock'],
      ['RDTIM', 0xffde, 3, 'read the jiffy clock'],
      ['STOP', 0xffe1, 3, 'check the STOP key'],
      ['GETIN', 0xffe4, 3, 'get a character from the keyboard queue'],
      ['CLALL', 0xffe7, 3, 'close all files'],
      ['UDTIM', 0xffea, 3, 'increment the jiffy clock'],
      ['SCREEN', 0xffed, 3, 'return screen columns and rows'],
      ['PLOT', 0xfff0, 3, 'read/set cursor position'],
      ['IOBASE', 0xfff3, 3, 'return the I/O base address'],
    ]),
  },
  {
    id: 'processor_vectors',
    title: '6502 hardware vectors',
    source: `${PRG}, Chapter 5, "Commodore 64 memory map"; MOS 6510 data sheet`,
    symbols: rows([
      ['NMIVEC', 0xfffa, 2, 'NMI vector'],
      ['RESVEC', 0xfffc, 2, 'RESET vector'],
      ['IRQVEC', 0xfffe, 2, 'IRQ/BRK vector'],
    ]),
  },
  {
    id: 'kernal_ram_vectors',
    title: 'KERNAL RAM vectors ($0314-$0333)',
    source: `${PRG}, Chapter 5, "Commodore 64 memory map"`,
    symbols: rows([
      ['CINV', 0x0314, 2, 'IRQ RAM vector'],
      ['CBINV', 0x0316, 2, 'BRK RAM vector'],
      ['NMINV', 0x0318, 2, 'NMI RAM vector'],
      ['IOPEN', 0x031a, 2, 'OPEN vector'],
      ['ICLOSE', 0x031c, 2, 'CLOSE vector'],
      ['ICHKIN', 0x031e, 2, 'CHKIN vector'],
      ['ICKOUT', 0x0320, 2, 'CHKOUT vector'],
      ['ICLRCH', 0x0322, 2, 'CLRCHN vector'],
      ['IBASIN', 0x0324, 2, 'CHRIN vector'],
      ['IBSOUT', 0x0326, 2, 'CHROUT vector'],
      ['ISTOP', 0x0328, 2, 'STOP vector'],
      ['IGETIN', 0x032a, 2, 'GETIN vector'],
      ['ICLALL', 0x032c, 2, 'CLALL vector'],
      ['USRCMD', 0x032e, 2, 'user-defined vector'],
      ['ILOAD', 0x0330, 2, 'LOAD vector'],
      ['ISAVE', 0x0332, 2, 'SAVE vector'],
    ]),
  },
  {
    id: 'kernal_workspace',
    title: 'Common KERNAL workspace',
    source: `${PRG}, Chapter 5, "Commodore 64 memory map"`,
    symbols: rows([
      ['STATUS', 0x0090, 1, 'I/O status word ST'],
      ['STKEY', 0x0091, 1, 'STOP key flag'],
      ['VERCK', 0x0093, 1, 'load/verify flag'],
      ['LDTND', 0x0098, 1, 'number of open files'],
      ['DFLTN', 0x0099, 1, 'default input device'],
      ['DFLTO', 0x009a, 1, 'default output device'],
      ['TIME', 0x00a0, 3, 'jiffy clock, big-endian'],
      ['FNLEN', 0x00b7, 1, 'file name length'],
      ['LA', 0x00b8, 1, 'current logical file'],
      ['SA', 0x00b9, 1, 'current secondary address'],
      ['FA', 0x00ba, 1, 'current device number'],
      ['FNADR', 0x00bb, 2, 'file name address'],
      ['LSTX', 0x00c5, 1, 'matrix code of last key'],
      ['NDX', 0x00c6, 1, 'keyboard queue length'],
      ['RVS', 0x00c7, 1, 'reverse mode flag'],
      ['SFDX', 0x00cb, 1, 'matrix code of current key'],
      ['BLNSW', 0x00cc, 1, 'cursor blink enable'],
      ['PNT', 0x00d1, 2, 'current screen line address'],
      ['PNTR', 0x00d3, 1, 'cursor column'],
      ['QTSW', 0x00d4, 1, 'quote mode flag'],
      ['TBLX', 0x00d6, 1, 'cursor row'],
      ['INSRT', 0x00d8, 1, 'pending inserts'],
      ['USER', 0x00f3, 2, 'current colour RAM line address'],
      ['BUF', 0x0200, 89, 'BASIC line input buffer'],
      ['KEYD', 0x0277, 10, 'keyboard queue'],
      ['MEMSTR', 0x0281, 2, 'bottom of memory'],
      ['MEMSIZ', 0x0283, 2, 'top of memory'],
      ['COLOR', 0x0286, 1, 'current text colour'],
      ['GDCOL', 0x0287, 1, 'colour under cursor'],
      ['HIBASE', 0x0288, 1, 'screen memory page'],
      ['XMAX', 0x0289, 1, 'keyboard queue size'],
      ['RPTFLG', 0x028a, 1, 'key repeat flags'],
      ['SHFLAG', 0x028d, 1, 'SHIFT/C=/CTRL flags'],
      ['MODE', 0x0291, 1, 'SHIFT+C= case switch enable'],
    ]),
  },
];

/** [name, value, register, comment] → value-only equates */
const bits = (list) => list.map(([name, value, register, comment]) => ({ name, value, register, comment }));

const equates = [
  {
    id: 'vic_ii_bits',
    title: 'VIC-II control bits',
    source: `${PRG}, Appendix G "VIC chip register map" and Appendix N`,
    values: bits([
      ['VIC_RST8', 0x80, 'SCROLY', 'raster compare bit 8'],
      ['VIC_ECM', 0x40, 'SCROLY', 'extended colour mode'],
      ['VIC_BMM', 0x20, 'SCROLY', 'bitmap mode'],
      ['VIC_DEN', 0x10, 'SCROLY', 'display enable'],
      ['VIC_RSEL', 0x08, 'SCROLY', '25 rows'],
      ['VIC_MCM', 0x10, 'SCROLX', 'multicolor mode'],
      ['VIC_CSEL', 0x08, 'SCROLX', '40 columns'],
      ['VIC_IRQ_RASTER', 0x01, 'VICIRQ', 'raster interrupt'],
      ['VIC_IRQ_SPBG', 0x02, 'VICIRQ', 'sprite-background collision'],
      ['VIC_IRQ_SPSP', 0x04, 'VICIRQ', 'sprite-sprite collision'],
      ['VIC_IRQ_LPEN', 0x08, 'VICIRQ', 'light pen'],
      ['VIC_IRQ_ANY', 0x80, 'VICIRQ', 'any enabled interrupt occurred'],
    ]),
  },
  {
    id: 'sid_bits',
    title: 'SID control bits',
    source: `${PRG}, Appendix O "6581 sound interface device (SID) chip specifications"`,
    values: bits([
      ['SID_GATE', 0x01, 'VCREG', 'start attack/decay/sustain'],
      ['SID_SYNC', 0x02, 'VCREG', 'hard sync'],
      ['SID_RING', 0x04, 'VCREG', 'ring modulation'],
      ['SID_TEST', 0x08, 'VCREG', 'test: reset oscillator'],
      ['SID_TRIANGLE', 0x10, 'VCREG', 'triangle waveform'],
      ['SID_SAWTOOTH', 0x20, 'VCREG', 'sawtooth waveform'],
      ['SID_PULSE', 0x40, 'VCREG', 'pulse waveform'],
      ['SID_NOISE', 0x80, 'VCREG', 'noise waveform'],
      ['SID_FILT1', 0x01, 'RESON', 'filter voice 1'],
      ['SID_FILT2', 0x02, 'RESON', 'filter voice 2'],
      ['SID_FILT3', 0x04, 'RESON', 'filter voice 3'],
      ['SID_FILTEX', 0x08, 'RESON', 'filter external input'],
      ['SID_LP', 0x10, 'SIGVOL', 'low-pass filter'],
      ['SID_BP', 0x20, 'SIGVOL', 'band-pass filter'],
      ['SID_HP', 0x40, 'SIGVOL', 'high-pass filter'],
      ['SID_3OFF', 0x80, 'SIGVOL', 'disconnect voice 3'],
    ]),
  },
  {
    id: 'cia_bits',
    title: 'CIA control and interrupt bits',
    source: `${PRG}, Appendix M "6526 complex interface adapter (CIA) chip specifications"`,
    values: bits([
      ['CIA_CR_START', 0x01, 'CRA/CRB', 'start timer'],
      ['CIA_CR_PBON', 0x02, 'CRA/CRB', 'timer output on port B'],
      ['CIA_CR_TOGGLE', 0x04, 'CRA/CRB', 'port B output toggles (else pulses)'],
      ['CIA_CR_ONESHOT', 0x08, 'CRA/CRB', 'one-shot mode'],
      ['CIA_CR_LOAD', 0x10, 'CRA/CRB', 'force load latch'],
      ['CIA_CRA_INCNT', 0x20, 'CRA', 'timer A counts CNT pulses'],
      ['CIA_CRA_SPOUT', 0x40, 'CRA', 'serial port output'],
      ['CIA_CRA_TOD50', 0x80, 'CRA', 'TOD clock 50 Hz'],
      ['CIA_ICR_TA', 0x01, 'ICR', 'timer A underflow'],
      ['CIA_ICR_TB', 0x02, 'ICR', 'timer B underflow'],
      ['CIA_ICR_ALRM', 0x04, 'ICR', 'TOD alarm'],
      ['CIA_ICR_SP', 0x08, 'ICR', 'serial port full/empty'],
      ['CIA_ICR_FLG', 0x10, 'ICR', 'FLAG pin'],
      ['CIA_ICR_SET', 0x80, 'ICR', 'set (1) or clear (0) the mask bits written; read: interrupt occurred'],
    ]),
  },
];

const profile = {
  format: 'retro-debug/c64-symbol-profile',
  version: VERSION,
  machine: 'c64',
  address_space: 'cpu',
  description: 'C64 platform symbols: CPU-visible addresses in the 6510 logical address space.',
  groups,
  equates,
};

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? join(here, '..', 'data', 'c64-symbol-profile.json');
writeFileSync(out, JSON.stringify(profile, null, 2) + '\n');
