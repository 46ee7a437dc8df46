/**
 * This DAP client's data breakpoints ("Break on Value Change" on a Variables
 * row, or an expression): a C lvalue located by the session in the selected
 * frame (a global, a local's slot, `arr[3]`, `s.f`, `*p`), watched by the
 * emulator's own watchpoints for its size and the access asked for. A stop
 * on one prints the expression with its old and new value and the
 * accessing PC with its C line.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import { asRetroError, badRequest, notFound, unsupported } from '../core/errors.js';
import { hex, hexBytes } from '../core/hex.js';
import type { StopInfo, WatchKind } from '../core/target.js';
import type { ClientSession } from '../session/client-session.js';
import type { SessionApi } from '../session/types.js';
import { evaluateNameOf, type VariableHandles } from './variables.js';
import { frameIndexOf } from './adapter-parts.js';
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
  /** the value as last seen (at set time, then at each hit), to show old → new */
  last?: string;
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
      const { expression, frameIndex } = this.expressionOf(handles, args);
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
        });
        const armed: Armed = { ...target, watchpointId: wp.id, last: await this.valueOf(target) };
        this.armed.push(armed);
        // no id: DAP ids are shared with line breakpoints, whose numbers the session counts separately
        out.push({ verified: true, message: `${kind} watch on ${target.expression}` });
      } catch (err) {
        out.push({ verified: false, message: await this.refusal(err) });
      }
    }
    return out;
  }

  /** The sentence for a stop on this client's data breakpoints (undefined when none of them fired). */
  async describeHit(watchpointIds: number[], stop: StopInfo): Promise<string | undefined> {
    const hits = this.armed.filter((a) => watchpointIds.includes(a.watchpointId));
    if (!hits.length) return undefined;
    const by = await this.accessor(stop);
    const lines: string[] = [];
    for (const a of hits) {
      const now = await this.valueOf(a);
      const change = a.last !== undefined && now !== a.last ? `${a.last} → ${now}` : (now ?? 'unreadable');
      a.last = now;
      lines.push(`Data breakpoint ${a.expression}: ${change}${by}\n`);
    }
    return lines.join('');
  }

  /**
   * Who accessed: MAME names the instruction; VICE's protocol only where the CPU
   * stopped, just after it, so the accessor is the instruction that ends there.
   */
  private async accessor(stop: StopInfo): Promise<string> {
    const session = this.me.session;
    if (stop.access) return ` by ${stop.access.kind} at ${hex(stop.access.pc)}${where(session, stop.access.pc)}`;
    const before = await session.disassemble(stop.pc, -1, 1).catch(() => undefined);
    const ins = before?.lines[0];
    if (!ins || ins.address + ins.length !== stop.pc) return ` stopped at ${hex(stop.pc)}${where(session, stop.pc)}`;
    return ` by ${ins.text} at ${hex(ins.address)}${where(session, ins.address)}`;
  }

  /** The C expression of a row (and the frame its scope belongs to), or the expression as typed. */
  private expressionOf(
    handles: VariableHandles,
    args: DebugProtocol.DataBreakpointInfoArguments,
  ): { expression: string; frameIndex: number } {
    const name = String(args?.name ?? '').trim();
    if (!name) throw badRequest('Name the variable or C lvalue to watch.');
    const frameIndex = frameIndexOf(args.frameId);
    if (args.variablesReference === undefined) return { expression: name, frameIndex };
    const container = handles.get(args.variablesReference);
    if (!container) throw notFound('That Variables row is from before the CPU last moved; select it again.');
    if (container.kind === 'scope') {
      if (container.scope === 'registers') throw unsupported('Registers are not memory; watch a C variable.');
      return { expression: name, frameIndex: container.frameIndex };
    }
    if (container.parent?.startsWith('$')) throw unsupported('Registers are not memory; watch a C variable.');
    // fields and elements: their C expression; the frame is the one selected (VS Code sends it)
    return { expression: evaluateNameOf(name, container.parent), frameIndex };
  }

  /** The object's value as the C engine shows it, or its bytes when its type cannot be cast to. */
  private async valueOf(t: DataTarget): Promise<string | undefined> {
    const session = this.me.session;
    try {
      return (await session.readVariable(`*(${t.type} *)${hex(t.address)}`)).value;
    } catch {
      try {
        return hexBytes(await session.readMemory({ space: 'cpu', offset: t.address }, t.length));
      } catch {
        return undefined;
      }
    }
  }
}

function where(session: SessionApi, pc: number): string {
  const loc = session.locationAt(pc);
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
