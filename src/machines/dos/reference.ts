/**
 * What a DOS program's addresses and interrupt calls mean: the BIOS data area fields
 * (segment 0040h; offsets as in src/machines/dos/bda.ts), the INT 21h / INT 10h /
 * INT 16h functions by AH and the INT 33h (mouse) ones by AX. Sources: IBM PC/AT Technical Reference; MS-DOS Programmer's Reference.
 */
import { BDA } from './bda.js';

export interface BdaField {
  offset: number;
  size: number;
  name: string;
  description: string;
  bits?: { bits: string; meaning: string }[];
}

const at = (physical: number) => physical - 0x400;

export const BDA_FIELDS: BdaField[] = [
  { offset: 0x00, size: 8, name: 'COM_PORTS', description: 'I/O base addresses of COM1-COM4.' },
  { offset: 0x08, size: 6, name: 'LPT_PORTS', description: 'I/O base addresses of LPT1-LPT3.' },
  { offset: 0x10, size: 2, name: 'EQUIPMENT', description: 'Equipment list word (INT 11h).' },
  { offset: at(BDA.memKb), size: 2, name: 'MEMORY_KB', description: 'Conventional memory in KiB (INT 12h).' },
  {
    offset: 0x17,
    size: 1,
    name: 'KBD_FLAGS',
    description: 'Keyboard shift flags.',
    bits: [
      { bits: '0', meaning: 'right Shift down' },
      { bits: '1', meaning: 'left Shift down' },
      { bits: '2', meaning: 'Ctrl down' },
      { bits: '3', meaning: 'Alt down' },
      { bits: '4', meaning: 'Scroll Lock on' },
      { bits: '5', meaning: 'Num Lock on' },
      { bits: '6', meaning: 'Caps Lock on' },
      { bits: '7', meaning: 'Insert on' },
    ],
  },
  {
    offset: 0x18,
    size: 1,
    name: 'KBD_FLAGS2',
    description: 'Keyboard flags 2 (keys held: left Ctrl/Alt, SysReq, Pause…).',
  },
  {
    offset: at(BDA.kbdHead),
    size: 2,
    name: 'KBD_HEAD',
    description: 'Keyboard buffer head (offset in segment 0040h).',
  },
  {
    offset: at(BDA.kbdTail),
    size: 2,
    name: 'KBD_TAIL',
    description: 'Keyboard buffer tail (offset in segment 0040h).',
  },
  {
    offset: 0x1e,
    size: 32,
    name: 'KBD_BUFFER',
    description: 'Keyboard ring buffer: 16 words of scan code (high) and ASCII (low).',
  },
  { offset: at(BDA.videoMode), size: 1, name: 'VIDEO_MODE', description: 'Current video mode (INT 10h AH=00h).' },
  { offset: at(BDA.textColumns), size: 2, name: 'TEXT_COLUMNS', description: 'Text columns on screen.' },
  { offset: 0x4c, size: 2, name: 'PAGE_SIZE', description: 'Size of a video page in bytes.' },
  { offset: at(BDA.pageOffset), size: 2, name: 'PAGE_OFFSET', description: 'Offset of the active video page.' },
  { offset: at(BDA.cursor), size: 16, name: 'CURSOR_POS', description: 'Cursor positions of pages 0-7 (column, row).' },
  { offset: 0x62, size: 1, name: 'ACTIVE_PAGE', description: 'Active video page.' },
  { offset: 0x63, size: 2, name: 'CRTC_PORT', description: 'I/O port of the CRT controller (3B4h mono, 3D4h colour).' },
  { offset: at(BDA.ticks), size: 4, name: 'TIMER_TICKS', description: 'Timer ticks since midnight (18.2 per second).' },
  { offset: 0x70, size: 1, name: 'MIDNIGHT', description: 'Non-zero once the tick count passed midnight.' },
  { offset: 0x71, size: 1, name: 'CTRL_BREAK', description: 'Bit 7 set by Ctrl-Break.' },
  { offset: at(BDA.kbdStart), size: 2, name: 'KBD_START', description: 'Keyboard buffer start offset.' },
  { offset: at(BDA.kbdEnd), size: 2, name: 'KBD_END', description: 'Keyboard buffer end offset.' },
  { offset: at(BDA.textRows), size: 1, name: 'TEXT_ROWS', description: 'Text rows on screen minus one (EGA/VGA).' },
];

/** The BDA field covering offset `offset` of segment 0040h. */
export function bdaField(offset: number): BdaField | undefined {
  return BDA_FIELDS.find((f) => offset >= f.offset && offset < f.offset + f.size);
}

export interface InterruptFunction {
  name: string;
  description: string;
}

export const INT21_FUNCTIONS: Record<number, InterruptFunction> = {
  0x00: { name: 'TERMINATE', description: 'Terminate the program (CS = PSP).' },
  0x01: { name: 'READ_CHAR_ECHO', description: 'Read a character from standard input with echo; AL = character.' },
  0x02: { name: 'WRITE_CHAR', description: 'Write the character in DL to standard output.' },
  0x06: { name: 'DIRECT_CONSOLE_IO', description: 'DL = FFh: read a character if ready (ZF = 0, AL); else write DL.' },
  0x07: { name: 'READ_CHAR_RAW', description: 'Read a character without echo or Ctrl-C check; AL = character.' },
  0x08: { name: 'READ_CHAR', description: 'Read a character without echo; AL = character.' },
  0x09: { name: 'WRITE_STRING', description: "Write the '$'-terminated string at DS:DX to standard output." },
  0x0a: {
    name: 'BUFFERED_INPUT',
    description: 'Read a line into the buffer at DS:DX (byte 0: size, byte 1: length read).',
  },
  0x0b: { name: 'INPUT_STATUS', description: 'AL = FFh if a character is ready on standard input, else 00h.' },
  0x0c: { name: 'FLUSH_AND_READ', description: 'Flush the keyboard buffer, then run the input function in AL.' },
  0x0e: { name: 'SELECT_DRIVE', description: 'Select the default drive DL (0 = A:); AL = number of drives.' },
  0x19: { name: 'CURRENT_DRIVE', description: 'AL = default drive (0 = A:).' },
  0x1a: { name: 'SET_DTA', description: 'Set the disk transfer area to DS:DX.' },
  0x25: { name: 'SET_VECTOR', description: 'Set interrupt vector AL to DS:DX.' },
  0x2a: { name: 'GET_DATE', description: 'CX = year, DH = month, DL = day, AL = weekday.' },
  0x2c: { name: 'GET_TIME', description: 'CH = hour, CL = minute, DH = second, DL = 1/100 s.' },
  0x30: { name: 'GET_VERSION', description: 'AL = major, AH = minor DOS version.' },
  0x31: { name: 'KEEP', description: 'Terminate and stay resident: AL = exit code, DX = paragraphs to keep.' },
  0x35: { name: 'GET_VECTOR', description: 'ES:BX = interrupt vector AL.' },
  0x39: { name: 'MKDIR', description: 'Create the directory named at DS:DX.' },
  0x3a: { name: 'RMDIR', description: 'Remove the directory named at DS:DX.' },
  0x3b: { name: 'CHDIR', description: 'Change the current directory to DS:DX.' },
  0x3c: { name: 'CREATE', description: 'Create or truncate the file named at DS:DX (CX = attributes); AX = handle.' },
  0x3d: { name: 'OPEN', description: 'Open the file named at DS:DX (AL = access mode); AX = handle.' },
  0x3e: { name: 'CLOSE', description: 'Close file handle BX.' },
  0x3f: { name: 'READ', description: 'Read CX bytes from handle BX into DS:DX; AX = bytes read.' },
  0x40: { name: 'WRITE', description: 'Write CX bytes from DS:DX to handle BX; AX = bytes written.' },
  0x41: { name: 'DELETE', description: 'Delete the file named at DS:DX.' },
  0x42: {
    name: 'SEEK',
    description: 'Move the file pointer of handle BX by CX:DX from AL (0 start, 1 current, 2 end).',
  },
  0x43: { name: 'ATTRIBUTES', description: 'Get (AL = 0) or set (AL = 1, CX) the attributes of the file at DS:DX.' },
  0x44: { name: 'IOCTL', description: 'Device I/O control, subfunction in AL.' },
  0x47: { name: 'GETCWD', description: 'Current directory of drive DL into the 64-byte buffer at DS:SI.' },
  0x48: { name: 'ALLOC', description: 'Allocate BX paragraphs; AX = segment.' },
  0x49: { name: 'FREE', description: 'Free the memory block at segment ES.' },
  0x4a: { name: 'RESIZE', description: 'Resize the memory block at ES to BX paragraphs.' },
  0x4b: { name: 'EXEC', description: 'Load and run the program named at DS:DX with the parameter block at ES:BX.' },
  0x4c: { name: 'EXIT', description: 'Terminate with exit code AL.' },
  0x4d: { name: 'EXIT_CODE', description: 'AL = exit code of the last child program.' },
  0x4e: { name: 'FIND_FIRST', description: 'Find the first file matching DS:DX (CX = attributes) into the DTA.' },
  0x4f: { name: 'FIND_NEXT', description: 'Find the next matching file into the DTA.' },
  0x56: { name: 'RENAME', description: 'Rename the file at DS:DX to ES:DI.' },
  0x62: { name: 'GET_PSP', description: 'BX = segment of the current PSP.' },
};

export const INT10_FUNCTIONS: Record<number, InterruptFunction> = {
  0x00: { name: 'SET_MODE', description: 'Set video mode AL (03h 80×25 text, 13h 320×200×256).' },
  0x01: { name: 'SET_CURSOR_SHAPE', description: 'Cursor start line CH, end line CL.' },
  0x02: { name: 'SET_CURSOR', description: 'Move the cursor of page BH to row DH, column DL.' },
  0x03: { name: 'GET_CURSOR', description: 'Cursor of page BH: DH row, DL column, CX shape.' },
  0x06: {
    name: 'SCROLL_UP',
    description: 'Scroll the window CH,CL–DH,DL up by AL lines (0 = clear) with attribute BH.',
  },
  0x07: { name: 'SCROLL_DOWN', description: 'Scroll the window CH,CL–DH,DL down by AL lines with attribute BH.' },
  0x08: { name: 'READ_CHAR_ATTR', description: 'Character (AL) and attribute (AH) at the cursor of page BH.' },
  0x09: { name: 'WRITE_CHAR_ATTR', description: 'Write AL with attribute BL CX times at the cursor of page BH.' },
  0x0e: { name: 'TELETYPE', description: 'Write AL as a teletype character (advances the cursor).' },
  0x0f: { name: 'GET_MODE', description: 'AL = video mode, AH = columns, BH = active page.' },
};

export const INT16_FUNCTIONS: Record<number, InterruptFunction> = {
  0x00: { name: 'READ_KEY', description: 'Wait for a key: AH = scan code, AL = ASCII.' },
  0x01: { name: 'KEY_READY', description: 'ZF = 0 and AX = the key if one is waiting (not removed).' },
  0x02: { name: 'SHIFT_FLAGS', description: 'AL = shift flags (the byte at 0040:0017).' },
  0x10: { name: 'READ_KEY_EXT', description: 'Wait for a key from the enhanced keyboard: AH = scan code, AL = ASCII.' },
  0x11: { name: 'KEY_READY_EXT', description: 'Enhanced keyboard: ZF = 0 and AX = the key if one is waiting.' },
};

/**
 * The Microsoft mouse driver (INT 33h), by AX. Positions are in virtual pixels: 640 wide in text modes
 * (a text column is 8), and in 320-wide modes x is doubled. Source: Microsoft Mouse Programmer's Reference.
 */
export const INT33_FUNCTIONS: Record<number, InterruptFunction> = {
  0x00: { name: 'RESET', description: 'Reset the driver: AX = FFFFh if installed (else 0), BX = number of buttons.' },
  0x01: { name: 'SHOW_CURSOR', description: 'Show the mouse cursor (one step of the hide counter).' },
  0x02: { name: 'HIDE_CURSOR', description: 'Hide the mouse cursor.' },
  0x03: {
    name: 'GET_POSITION',
    description: 'BX = buttons down (bit 0 left, 1 right, 2 middle), CX = x, DX = y.',
  },
  0x04: { name: 'SET_POSITION', description: 'Move the cursor to CX = x, DX = y.' },
  0x05: {
    name: 'BUTTON_PRESSES',
    description: 'Button BX: AX = buttons down, BX = presses since last call, CX/DX = where last pressed.',
  },
  0x06: {
    name: 'BUTTON_RELEASES',
    description: 'Button BX: AX = buttons down, BX = releases since last call, CX/DX = where last released.',
  },
  0x07: { name: 'SET_X_RANGE', description: 'Limit x to CX (minimum) .. DX (maximum).' },
  0x08: { name: 'SET_Y_RANGE', description: 'Limit y to CX (minimum) .. DX (maximum).' },
  0x09: {
    name: 'SET_GRAPHICS_CURSOR',
    description: 'Graphics cursor: hot spot BX, CX; screen and cursor masks at ES:DX.',
  },
  0x0a: {
    name: 'SET_TEXT_CURSOR',
    description: 'Text cursor: BX = 0 software (CX screen mask, DX cursor mask), 1 hardware (CX, DX scan lines).',
  },
  0x0b: { name: 'READ_MOTION', description: 'CX, DX = mickeys moved since the last call (signed).' },
  0x0c: { name: 'SET_HANDLER', description: 'Call the handler at ES:DX on the events in mask CX.' },
  0x0f: { name: 'SET_MICKEY_RATIO', description: 'Mickeys per 8 pixels: CX horizontal, DX vertical.' },
  0x10: { name: 'CONDITIONAL_HIDE', description: 'Hide the cursor while it is in the rectangle CX,DX - SI,DI.' },
  0x13: { name: 'SET_DOUBLE_SPEED', description: 'Speed above DX mickeys per second doubles the motion.' },
  0x14: { name: 'SWAP_HANDLER', description: 'Install the handler at ES:DX for mask CX; the old one in ES:DX, CX.' },
  0x15: { name: 'STATE_SIZE', description: 'BX = bytes needed to save the driver state.' },
  0x1a: { name: 'SET_SENSITIVITY', description: 'BX horizontal, CX vertical speed, DX double-speed threshold.' },
  0x1b: { name: 'GET_SENSITIVITY', description: 'BX horizontal, CX vertical speed, DX double-speed threshold.' },
  0x21: { name: 'SOFT_RESET', description: 'Reset the software state: AX = FFFFh if installed, BX = buttons.' },
  0x24: { name: 'GET_VERSION', description: 'BH.BL = driver version, CH = mouse type, CL = IRQ.' },
};

export interface DosInterrupt {
  title: string;
  /** the register that selects the function */
  selector: 'AH' | 'AX';
  functions: Record<number, InterruptFunction>;
}

export const DOS_INTERRUPTS: Record<number, DosInterrupt> = {
  0x10: { title: 'BIOS video', selector: 'AH', functions: INT10_FUNCTIONS },
  0x16: { title: 'BIOS keyboard', selector: 'AH', functions: INT16_FUNCTIONS },
  0x21: { title: 'DOS', selector: 'AH', functions: INT21_FUNCTIONS },
  0x33: { title: 'Mouse driver', selector: 'AX', functions: INT33_FUNCTIONS },
};
