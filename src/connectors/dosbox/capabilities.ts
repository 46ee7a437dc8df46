/**
 * What this host allows us to do to another process's memory, so a refusal
 * explains itself (ptrace policy, uid, permissions) instead of a bare EPERM.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';

export interface AccessReport {
  platform: NodeJS.Platform;
  /** Yama ptrace_scope (0..3), or null when the kernel has no Yama */
  ptrace_scope: number | null;
  uid: number | null;
  root: boolean;
  /** one sentence per fact, for people */
  notes: string[];
  /** backends usable here */
  backends: { native_launch: boolean; native_attach: string; wasm: string };
}

export function ptraceScope(): number | null {
  try {
    return Number(readFileSync('/proc/sys/kernel/yama/ptrace_scope', 'utf8').trim());
  } catch {
    return null;
  }
}

export function accessReport(wasmAvailable: boolean): AccessReport {
  const platform = process.platform;
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  const root = uid === 0;
  const scope = platform === 'linux' ? ptraceScope() : null;
  const notes: string[] = [];
  let attach = 'unsupported';
  if (platform === 'linux') {
    notes.push(
      'Guest memory of a native emulator is read and written through /proc/PID/mem (needs ptrace-attach rights).',
    );
    if (scope === null)
      notes.push('This kernel has no Yama: any process of the same user can be attached (root: any process).');
    else notes.push(`kernel.yama.ptrace_scope = ${scope}: ${SCOPE_TEXT[scope] ?? 'unknown level'}`);
    attach = root
      ? 'yes (root)'
      : scope === null || scope === 0
        ? 'same-user processes'
        : scope === 1
          ? 'only emulators we launch (descendants); use dosbox_launch'
          : 'no: needs CAP_SYS_PTRACE or a lower ptrace_scope';
  } else if (platform === 'win32') {
    notes.push(
      'Windows: OpenProcess + Read/WriteProcessMemory is designed (docs/dos.md) but not implemented here; use the wasm backend.',
    );
  } else {
    notes.push(`${platform}: no native backend (macOS would need task_for_pid); use the wasm backend.`);
  }
  notes.push(
    wasmAvailable
      ? 'The embedded wasm DOSBox/DOSBox-X (npm "emulators", GPL-2.0, optional) is installed.'
      : 'The optional npm package "emulators" (embedded wasm DOSBox, GPL-2.0) is not installed: npm install emulators.',
  );
  return {
    platform,
    ptrace_scope: scope,
    uid,
    root,
    notes,
    backends: {
      native_launch: platform === 'linux',
      native_attach: attach,
      wasm: wasmAvailable ? 'available' : 'not installed',
    },
  };
}

const SCOPE_TEXT: Record<number, string> = {
  0: 'classic: any process of the same user may be attached.',
  1: 'restricted: only descendants may be attached, so launch the emulator through dosbox_launch instead of attaching by PID.',
  2: 'admin-only: attaching needs CAP_SYS_PTRACE (root).',
  3: "no attach: nobody may read another process's memory; only the wasm backend works.",
};

/** A sentence for an EPERM/EACCES on /proc/PID/mem. */
export function explainAccessDenied(pid: number, err: NodeJS.ErrnoException): string {
  const scope = ptraceScope();
  let owner = '';
  try {
    owner = ` (owned by uid ${statSync(`/proc/${pid}`).uid}, we are uid ${process.getuid?.()})`;
  } catch {
    /* gone */
  }
  const why =
    scope === null
      ? 'it belongs to another user or is not dumpable'
      : `kernel.yama.ptrace_scope is ${scope}: ${SCOPE_TEXT[scope] ?? ''}`;
  return `Cannot open the memory of process ${pid}${owner} (${err.code}): ${why}`;
}

/** Alive and not a zombie (a killed child keeps its /proc entry until reaped). */
export function processExists(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X' && existsSync(`/proc/${pid}/mem`);
  } catch {
    return false;
  }
}

export interface RecorderRow {
  backend: string;
  screenshot: string;
  video: string;
  audio: string;
  window_capture: string;
}

/** Which recorders each backend really has (and what this host lacks for them). */
export function recorderReport(wasmAvailable: boolean): RecorderRow[] {
  const missing = ['Xvfb', 'xdotool', 'xwd'].filter((t) => !onPath(t));
  const x = missing.length
    ? `not here: ${missing.join(', ')} missing (apt-get install xvfb xdotool x11-apps)`
    : undefined;
  return [
    {
      backend: 'native DOSBox 0.74 (Debian), isolation "xvfb"',
      screenshot: x ?? 'yes: Ctrl+F5 through XTEST → PNG',
      video:
        x ?? 'yes: ZMBV AVI, bound to Ctrl+F2 by our mapper file (the default Ctrl+Alt+F5 does not arrive via XTEST)',
      audio: x ?? 'yes: Ctrl+F6 → WAV (the mixer runs without a sound device)',
      window_capture: x ?? 'yes: xwd of its window, reduced by its integer scaler',
    },
    {
      backend: 'native DOSBox-X / DOSBox Staging, isolation "xvfb"',
      screenshot: 'untested: not installable here (Debian 12 has only DOSBox 0.74); the same hotkeys are sent',
      video: 'untested (same)',
      audio: 'untested (same)',
      window_capture: x ?? 'expected to work (any X window); untested',
    },
    {
      backend: 'native, isolation "dummy" or attached by PID',
      screenshot: 'no: no private display to press hotkeys on (a desktop window is never touched)',
      video: 'no (same)',
      audio: 'no (same)',
      window_capture: 'no (same)',
    },
    {
      backend: 'embedded wasm DOSBox-X / DOSBox',
      screenshot: wasmAvailable ? "yes: the library's screenshot() → PNG" : 'not installed (npm "emulators")',
      video: 'no: the library has no video recorder call',
      audio: wasmAvailable ? "yes: the library's sound stream → WAV (mono)" : 'not installed (npm "emulators")',
      window_capture: 'no window (use capture source "emulator")',
    },
  ];
}

function onPath(tool: string): boolean {
  return (process.env.PATH ?? '/usr/bin').split(':').some((d) => d && existsSync(`${d}/${tool}`));
}
