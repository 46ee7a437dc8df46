/**
 * A DOS guest in the debugger UI. It never stops, so instead of a CPU thread
 * with a stack: one thread per loaded program (from the MCB chain), and
 * scopes "Programs", "Profile symbols" (the loaded profile's names, live
 * values, writable with setVariable) and "BIOS data area"; `screen` evaluates
 * to the text screen. Memory references
 * are guest physical addresses. Reached through the target's 'dos' feature.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import { asRetroError, unsupported, tooLarge, badRequest, notFound } from '../../../core/errors.js';
import type { SessionApi, VariableValue } from '../../../session/types.js';
import type { DosMachine } from '../dos-machine.js';
import { DOS_FEATURE } from '../dosbox-target.js';
import type { ProfileSymbol } from '../../../machines/dos/profile.js';
import { farHex } from '../../../machines/dos/bda.js';
import { hex } from '../../../core/hex.js';
import type { ClientSession } from '../../../session/client-session.js';
import type { DebugView, DebugViewContext, SetVariableResult } from '../../../dap/debug-view.js';

/** Bytes shown for an evaluated DOS address that is no symbol. */
const PEEK_BYTES = 16;

/** The session's DOS machine, or undefined for any other target. */
export function dosOf(session: SessionApi): DosMachine | undefined {
  try {
    return session.feature(DOS_FEATURE);
  } catch {
    return undefined;
  }
}

const cpu = (physical: number) => ({ space: 'cpu' as const, offset: physical });

/** Threads: one per program; the id is its PSP segment (stable while it runs). */
export async function dosThreads(m: DosMachine): Promise<DebugProtocol.Thread[]> {
  const programs = await m.guest.programMap().then(
    (map) => map.programs,
    () => [],
  );
  if (!programs.length) return [{ id: 1, name: 'DOS guest (no program list yet)' }];
  return programs.map((p) => ({ id: p.psp, name: `${p.name} (PSP ${hex(p.psp, 4, '')}, ${p.bytes} bytes, running)` }));
}

/** The one frame a program "thread" shows: where a .COM starts, marked as running (no CPU debugger). */
export async function dosFrames(m: DosMachine, threadId: number): Promise<DebugProtocol.StackFrame[]> {
  const { programs } = await m.guest.programMap();
  const p = programs.find((x) => x.psp === threadId);
  if (!p) return [];
  return [
    {
      id: 1,
      name: `${p.name} at ${hex(p.psp, 4, '')}:0100 (running; a DOS guest has no CPU debugger)`,
      line: 0,
      column: 0,
      instructionPointerReference: hex(p.psp * 16 + 0x100, 5),
      presentationHint: 'subtle',
    },
  ];
}

export async function dosPrograms(m: DosMachine): Promise<VariableValue[]> {
  const { programs } = await m.guest.programMap();
  return programs.map((p) => ({
    name: p.name,
    type: 'program',
    value: `PSP ${hex(p.psp, 4, '')}, ${p.bytes} bytes${p.path ? `, ${p.path}` : ''}`,
    address: cpu(p.psp * 16),
    children: [
      { name: 'psp', type: 'segment', value: hex(p.psp, 4, ''), numeric: p.psp, address: cpu(p.psp * 16) },
      { name: 'bytes', type: 'size', value: String(p.bytes), numeric: p.bytes },
      {
        name: 'environment',
        type: 'segment',
        value: hex(p.environment, 4, ''),
        numeric: p.environment,
        address: cpu(p.environment * 16),
      },
      { name: 'parent', type: 'segment', value: hex(p.parent, 4, ''), numeric: p.parent },
      ...(p.path ? [{ name: 'path', type: 'string', value: p.path }] : []),
    ],
  }));
}

/** The loaded profile's symbols with their current values (empty without a profile). */
export async function dosSymbols(m: DosMachine): Promise<VariableValue[]> {
  const out: VariableValue[] = [];
  for (const [name, sym] of m.symbolEntries()) out.push(await symbolValue(m, name, sym));
  return out;
}

async function symbolValue(m: DosMachine, name: string, sym: ProfileSymbol): Promise<VariableValue> {
  const r = await m.readSymbol(name);
  return {
    name,
    type: `${sym.type} @ ${r.address.label}`,
    value: r.value,
    numeric: r.numeric,
    address: cpu(r.address.physical),
    bytes: Buffer.from(r.bytes).toString('hex'),
  };
}

export async function dosBios(m: DosMachine): Promise<VariableValue[]> {
  const b = await m.guest.bda();
  const v = (name: string, value: string, numeric?: number): VariableValue => ({ name, type: 'bda', value, numeric });
  return [
    v('video mode', `0x${b.videoMode.toString(16).padStart(2, '0')} (${b.columns}x${b.rows})`, b.videoMode),
    v('timer ticks', String(b.ticks), b.ticks),
    v('keys queued', `${b.ring.queued} of ${b.ring.capacity}`, b.ring.queued),
    v('conventional memory', `${b.conventionalKb} KiB`, b.conventionalKb),
    v('INT 21h', farHex(b.int21)),
    v('INT 9', farHex(b.int9)),
    v('INT 16h', farHex(b.int16)),
    v('INT 33h', farHex(b.int33)),
  ];
}

/** The text screen read from video memory: the cursor row as the value, every row as a child. */
export async function dosScreen(m: DosMachine): Promise<VariableValue> {
  const t = await (await m.screen()).text();
  const rows = t.lines.map((line, i) => ({
    name: String(i).padStart(2, '0'),
    type: 'row',
    value: JSON.stringify(line.trimEnd()),
  }));
  return {
    name: 'screen',
    type: `text ${t.columns}x${t.rows}, mode ${t.mode}`,
    value: t.lines[t.cursor.row]?.trimEnd() ?? '',
    children: rows,
  };
}

/**
 * "screen" (the text screen), a profile symbol (its value) or any DOS address
 * form ("0192:01D2", "ds:10", "0x1D2C7": 16 bytes); undefined if none of these.
 */
export async function evaluateDos(m: DosMachine, expression: string): Promise<VariableValue | undefined> {
  if (expression === 'screen' && !m.profile?.symbols.screen) return dosScreen(m);
  const sym = m.profile?.symbols[expression];
  if (sym) return symbolValue(m, expression, sym);
  let at;
  try {
    at = m.resolve(expression);
  } catch {
    return undefined;
  }
  const bytes = await m.guest.read(at.physical, at.size ?? PEEK_BYTES);
  return {
    name: expression,
    type: `bytes @ ${at.label}`,
    value: Buffer.from(bytes)
      .toString('hex')
      .toUpperCase()
      .replace(/(..)(?!$)/g, '$1 '),
    address: cpu(at.physical),
  };
}

/** Writes a profile symbol from the text a person typed; returns the bytes and where. */
export function encodeSymbol(m: DosMachine, name: string, text: string): { physical: number; bytes: Uint8Array } {
  const sym = m.profile?.symbols[name];
  if (!sym)
    throw unsupported(
      `Only profile symbols can be set in a DOS guest; "${name}" is not one (write memory in the memory view instead).`,
    );
  const physical = m.resolve(name).physical;
  const t = text.trim();
  if (sym.type === 'cstring') {
    const s = /^".*"$/.test(t) ? (JSON.parse(t) as string) : t;
    const bytes = Buffer.from(s + '\0', 'latin1');
    if (bytes.length > sym.size) throw tooLarge(`"${name}" holds ${sym.size - 1} characters at most.`);
    return { physical, bytes };
  }
  if (sym.type === 'bytes') {
    const hex = t.replace(/\s+/g, '');
    if (!/^([0-9a-f]{2})+$/i.test(hex) || hex.length / 2 > sym.size)
      throw badRequest(`"${name}" takes up to ${sym.size} bytes as hex, e.g. "01 02".`);
    return { physical, bytes: Buffer.from(hex, 'hex') };
  }
  const n = /^-?0x[0-9a-f]+$/i.test(t) ? parseInt(t, 16) : /^-?\d+$/.test(t) ? parseInt(t, 10) : NaN;
  const [min, max] = { u8: [0, 0xff], u16: [0, 0xffff], i16: [-0x8000, 0x7fff], u32: [0, 0xffffffff] }[sym.type];
  if (!Number.isInteger(n) || n < min || n > max)
    throw badRequest(
      `"${name}" is ${sym.type}: give a whole number from ${min} to ${max} (decimal or 0x hex), not "${text}".`,
    );
  return { physical, bytes: Uint8Array.from({ length: sym.size }, (_, i) => (n >>> (8 * i)) & 0xff) };
}

/** A DOS guest in the debugger UI: programs as threads, live values, never paused. */
export class DosDebugView implements DebugView {
  readonly freeRunning = true;
  readonly capabilities = { supportsSetVariable: true };

  constructor(
    private readonly ctx: DebugViewContext,
    private readonly dos: DosMachine,
  ) {}

  threads(): Promise<DebugProtocol.Thread[]> {
    return dosThreads(this.dos);
  }

  async stackTrace(args: DebugProtocol.StackTraceArguments): Promise<DebugProtocol.StackTraceResponse['body']> {
    const stackFrames = await dosFrames(this.dos, args?.threadId ?? 0);
    return { stackFrames, totalFrames: stackFrames.length };
  }

  /** Its values are live, so older handles are dropped on each listing. */
  async scopes(): Promise<DebugProtocol.Scope[]> {
    const { handles } = this.ctx;
    handles.reset();
    const scope = (name: string, children: VariableValue[]): DebugProtocol.Scope => ({
      name,
      expensive: false,
      variablesReference: handles.create({ kind: 'children', children }),
    });
    const scopes = [scope('Programs', await dosPrograms(this.dos))];
    const symbols = await dosSymbols(this.dos);
    if (symbols.length) scopes.push(scope('Profile symbols', symbols));
    scopes.push(scope('BIOS data area', await dosBios(this.dos)));
    return scopes;
  }

  async evaluate(expression: string): Promise<VariableValue> {
    const value = await evaluateDos(this.dos, expression);
    if (value) return value;
    throw notFound(
      `"${expression}" is neither "screen", a profile symbol nor a DOS address (e.g. 0192:0100, ds:10, 0x1D2C7).`,
    );
  }

  /** Profile symbols are set by value, through the client's lease. */
  async setVariable(control: () => ClientSession, name: string, value: string): Promise<SetVariableResult> {
    const { physical, bytes } = encodeSymbol(this.dos, name, value);
    await control().writeMemory(cpu(physical), bytes);
    const now = await evaluateDos(this.dos, name);
    return { value: now?.value ?? '', type: now?.type, written: { reference: hex(physical, 5), length: bytes.length } };
  }

  async announce(): Promise<{ text: string; threads: number[] }> {
    const intro = `DOS guest running in ${this.dos.backend.description} (no CPU debugger: it is never paused).`;
    try {
      const threads = await dosThreads(this.dos);
      return {
        text: `${intro} Programs: ${threads.map((t) => t.name).join('; ')}\n`,
        threads: threads.map((t) => t.id),
      };
    } catch (err) {
      return {
        text: `DOS guest running; its program list is not readable yet: ${asRetroError(err).message}\n`,
        threads: [],
      };
    }
  }
}

/** The DOS view when the session's target is a DOS guest. */
export function dosDebugView(ctx: DebugViewContext): DosDebugView | undefined {
  const dos = dosOf(ctx.session);
  return dos && new DosDebugView(ctx, dos);
}
