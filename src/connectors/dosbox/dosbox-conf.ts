/**
 * The DOSBox configuration we launch with: no sound devices, no serial ports,
 * no window decorations that need a desktop; the program's folder mounted as
 * C: and, before the program, a calibration line printed at row 0 of a clear
 * screen so the text buffer can be found in any emulator build.
 */

/** Printed by autoexec at row 0, column 0 right before the program starts. */
export const CALIBRATION_TEXT = 'RDCAL-SCREEN-0';

/**
 * A .COM that clears the screen by setting text mode 3 through INT 10h
 * (mov ax,0003h / int 10h / int 20h). The embedded DOSBox-X aborts now and
 * then inside its shell's CLS ("RuntimeError: unreachable" in
 * device_CON::Write under DOS_Shell::CMD_CLS, seen in about 1 boot in 4 while
 * a client reads memory), so the wasm backend clears with this instead.
 */
export const CLEAR_SCREEN_COM = Uint8Array.of(0xb8, 0x03, 0x00, 0xcd, 0x10, 0xcd, 0x20);
export const CLEAR_SCREEN_NAME = 'RDCLS.COM';

/**
 * Autoexec lines that show the calibration text on a clear screen and hold
 * there (PAUSE) until the launcher, having located the VGA buffer, puts a key
 * in the BIOS ring; then the screen is cleared for the program. `clear` is
 * the command that clears the screen (default the shell's CLS).
 */
export function calibrationAutoexec(clear = 'cls'): string[] {
  return ['@echo off', clear, `echo ${CALIBRATION_TEXT}`, 'pause', clear];
}

export interface ConfOptions {
  /** host folder mounted as C: */
  folder: string;
  /** program file name inside the folder (8.3), or none for a bare prompt */
  program?: string;
  args?: string;
  memsizeMb?: number;
  machine?: string;
  cycles?: string;
  /** the emulator's key bindings (DOSBox mapper file) */
  mapperFile?: string;
  /** folder the emulator's recorders write into (screenshots, video, audio) */
  captures?: string;
  /** extra autoexec lines before the program */
  autoexec?: string[];
}

export function buildConf(o: ConfOptions): string {
  const run = o.program ? [`${o.program}${o.args ? ' ' + o.args : ''}`] : [];
  return [
    '[sdl]',
    'output=surface',
    'autolock=false',
    'waitonerror=false',
    'usescancodes=false',
    ...(o.mapperFile ? [`mapperfile=${o.mapperFile}`] : []),
    '[dosbox]',
    `machine=${o.machine ?? 'svga_s3'}`,
    `memsize=${o.memsizeMb ?? 16}`,
    ...(o.captures ? [`captures=${o.captures}`] : []),
    '[cpu]',
    'core=auto',
    `cycles=${o.cycles ?? 'auto'}`,
    '[mixer]',
    'nosound=true',
    '[speaker]',
    'pcspeaker=false',
    'tandy=off',
    'disney=false',
    '[sblaster]',
    'sbtype=none',
    '[gus]',
    'gus=false',
    '[midi]',
    'mpu401=none',
    '[serial]',
    'serial1=disabled',
    'serial2=disabled',
    'serial3=disabled',
    'serial4=disabled',
    '[dos]',
    'keyboardlayout=none',
    '[autoexec]',
    `mount c "${o.folder}"`,
    'c:',
    ...calibrationAutoexec(),
    ...(o.autoexec ?? []),
    ...run,
    '',
  ].join('\n');
}
