/**
 * This DAP client's data breakpoints ("Break on Value Change" on a Variables
 * row, or an expression): a C lvalue located by the session in the selected
 * frame (a global, a local's slot, `arr[3]`, `s.f`, `*p`), watched by the
 * session's watchpoints for its size and the access asked for; a write watch
 * stops only when the value changed. The session judges each stop (old → new,
 * the accessing instruction and its C line: session/watch-hits.ts); this
 * prints it.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import { asRetroError, badRequest, unsupported } from '../core/errors.js';
import { hex } from '../core/hex.js';
import type { CType } from '../debuginfo/model.js';
import type { StopInfo, WatchKind } from '../core/target.js';
import type { ClientSession } from '../session/client-session.js';
import type { SourceLocation, WatchHit } from '../session/types.js';
import { rowExpression, type VariableHandles } from './variables.js';
import type { RefusalText } from './breakpoints.js';

/** What a dataId stands for (VS Code hands it back verbatim in setDataBreakpoints). */
interface DataTarget {
  expression: string;
  address: number;
  length: number;
  type: string;
}

interface Armed extends DataTarget {
  watchpointId: number;
}

const ACCESS: Record<DebugProtocol.DataBreakpointAccessType, WatchKind> = {
  read: 'read',
  write: 'write',
  readWrite: 'readwrite',
};

export class ClientDataBreakpoints {
  private armed: Armed[] = [];

  constructor(
    private readonly me: ClientSession,
    private readonly refusal: RefusalText,
  ) {}

  /** dataBreakpointInfo: a Variables row (its C expression) or an expression typed by the person. */
  async info(
    handles: VariableHandles,
    args: DebugProtocol.DataBreakpointInfoArguments,
  ): Promise<DebugProtocol.DataBreakpointInfoResponse['body']> {
    try {
      const { expression, frameIndex } = rowExpression(handles, args);
      const at = await this.me.session.locateLvalue(expression, frameIndex);
      const target: DataTarget = { expression, ...at };
      return {
        dataId: JSON.stringify(target),
        description: `${expression} (${at.type}, ${at.length} byte${at.length === 1 ? '' : 's'} at ${hex(at.address)})`,
        accessTypes: ['write', 'read', 'readWrite'],
        canPersist: false,
      };
    } catch (err) {
      return { dataId: null, description: await this.refusal(err) };
    }
  }

  /** setDataBreakpoints: replaces this client's whole set. */
  async replace(wanted: DebugProtocol.DataBreakpoint[]): Promise<DebugProtocol.Breakpoint[]> {
    for (const a of this.armed.splice(0)) {
      await this.me.clearWatchpoint(a.watchpointId).catch((err) => {
        if (asRetroError(err).code !== 'not_found') throw err;
      });
    }
    const out: DebugProtocol.Breakpoint[] = [];
    for (const bp of wanted) {
      try {
        if (bp.condition || bp.hitCondition)
          throw unsupported('Conditions and hit counts on data breakpoints are not supported; set a plain one.');
        const target = parseDataId(bp.dataId);
        const kind = ACCESS[bp.accessType ?? 'write'] ?? 'write';
        const wp = await this.me.setWatchpoint({
          address: { space: 'cpu', offset: target.address },
          length: target.length,
          kind,
          expression: target.expression,
          ctype: await this.typeOf(target),
          // "Break on Value Change": a write that leaves the value as it was is no change
          changeOnly: kind === 'write',
        });
        this.armed.push({ ...target, watchpointId: wp.id });
        // no id: DAP ids are shared with line breakpoints, whose numbers the session counts separately
        out.push({ verified: true, message: `${kind} watch on ${target.expression}` });
      } catch (err) {
        out.push({ verified: false, message: await this.refusal(err) });
      }
    }
    return out;
  }

  /** The sentence for a stop on this client's data breakpoints (undefined when none of them fired). */
  async describeHit(watch: WatchHit[], stop: StopInfo): Promise<string | undefined> {
    const lines: string[] = [];
    for (const w of watch) {
      const a = this.armed.find((x) => x.watchpointId === w.id);
      if (!a) continue;
      const change = w.old !== undefined && w.changed ? `${w.old} → ${w.new}` : (w.new ?? 'unreadable');
      lines.push(`Data breakpoint ${a.expression}: ${change}${await this.accessor(w, stop)}\n`);
    }
    return lines.length ? lines.join('') : undefined;
  }

  /** Who accessed: the instruction the session found (MAME names it; on a 6502, the one that ends at the stop). */
  private async accessor(w: WatchHit, stop: StopInfo): Promise<string> {
    const session = this.me.session;
    if (w.access_pc === undefined) return ` stopped at ${hex(stop.pc)}${where(session.locationAt(stop.pc))}`;
    const ins = (await session.disassemble(w.access_pc, 0, 1).catch(() => undefined))?.lines[0];
    const what = ins?.address === w.access_pc ? ins.text : w.access;
    return ` by ${what} at ${hex(w.access_pc)}${where(w.location)}`;
  }

  /** The C type of the watched object, to show its values (undefined: they show as bytes). */
  private async typeOf(t: DataTarget): Promise<CType | undefined> {
    return (await this.me.session.locateLvalue(`*(${t.type} *)${hex(t.address)}`).catch(() => undefined))?.ctype;
  }
}

function where(loc: SourceLocation | undefined): string {
  return loc ? ` (${loc.function ? `${loc.function}, ` : ''}${loc.file}:${loc.line})` : '';
}

function parseDataId(dataId: string): DataTarget {
  try {
    const t = JSON.parse(dataId) as DataTarget;
    if (Number.isInteger(t.address) && Number.isInteger(t.length) && typeof t.expression === 'string') return t;
  } catch {
    // not ours
  }
  throw badRequest(`"${dataId}" is not a data breakpoint this debugger gave out; ask dataBreakpointInfo again.`);
}
