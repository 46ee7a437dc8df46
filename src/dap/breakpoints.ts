/**
 * This DAP client's breakpoints in a shared session. VS Code sends the whole
 * set for one source (or all function breakpoints) each time; we replace only
 * the ones this client owns there and never touch other owners' breakpoints.
 */
import { basename, resolve } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { asRetroError } from '../core/errors.js';
import type { BreakpointChange, BreakpointInfo } from '../session/types.js';
import type { ClientSession } from '../session/client-session.js';
import type { BreakpointExtras } from '../session/bp-logic.js';
import { parseCpuReference } from '../core/memory-reference.js';
import { breakpointPlace } from '../session/breakpoint-place.js';

export interface RequestedBreakpoint {
  line?: number;
  name?: string;
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
}

/** Builds the sentence for a breakpoint the session refused (lease held, no code, …). */
export type RefusalText = (err: unknown) => Promise<string>;

export class ClientBreakpoints {
  /** source key → ids this client set there */
  private readonly bySource = new Map<string, number[]>();
  private functionIds: number[] = [];
  private readonly instructionIds = new Set<number>();
  /** last state told to the client, so changes can be announced */
  private readonly told = new Map<number, DebugProtocol.Breakpoint>();

  constructor(
    private readonly me: ClientSession,
    private readonly refusal: RefusalText,
  ) {}

  async replaceLineBreakpoints(sourcePath: string, wanted: RequestedBreakpoint[]): Promise<DebugProtocol.Breakpoint[]> {
    const key = resolve(sourcePath);
    await this.clear(this.bySource.get(key) ?? []);
    const ids: number[] = [];
    const out: DebugProtocol.Breakpoint[] = [];
    for (const bp of wanted) {
      try {
        const info = await this.me.setLineBreakpoint(key, bp.line ?? 0, bp.condition || undefined, extrasOf(bp));
        ids.push(info.id);
        out.push(this.remember(info, key));
      } catch (err) {
        out.push({ verified: false, line: bp.line, source: sourceOf(key), message: await this.refusal(err) });
      }
    }
    this.bySource.set(key, ids);
    return out;
  }

  async replaceFunctionBreakpoints(wanted: RequestedBreakpoint[]): Promise<DebugProtocol.Breakpoint[]> {
    await this.clear(this.functionIds);
    this.functionIds = [];
    const out: DebugProtocol.Breakpoint[] = [];
    for (const bp of wanted) {
      try {
        const info = await this.me.setFunctionBreakpoint(bp.name ?? '', bp.condition || undefined, extrasOf(bp));
        this.functionIds.push(info.id);
        out.push(this.remember(info));
      } catch (err) {
        out.push({ verified: false, message: await this.refusal(err) });
      }
    }
    return out;
  }

  /** Instruction breakpoints (the Disassembly view's): at CPU addresses, conditions and extras as for lines. */
  async replaceInstructionBreakpoints(
    wanted: DebugProtocol.InstructionBreakpoint[],
  ): Promise<DebugProtocol.Breakpoint[]> {
    await this.clear([...this.instructionIds]);
    this.instructionIds.clear();
    const out: DebugProtocol.Breakpoint[] = [];
    for (const bp of wanted) {
      try {
        const address = parseCpuReference(bp.instructionReference, bp.offset ?? 0);
        const extras = { hitCondition: bp.hitCondition || undefined };
        const info = await this.me.setAddressBreakpoint(address, bp.condition || undefined, extras);
        this.instructionIds.add(info.id);
        out.push(this.remember(info));
      } catch (err) {
        out.push({ verified: false, message: await this.refusal(err) });
      }
    }
    return out;
  }

  /** Whether one of `ids` is an instruction breakpoint of this client (the stop reads "instruction breakpoint"). */
  hasInstructionBreakpoint(ids: number[]): boolean {
    return ids.some((id) => this.instructionIds.has(id));
  }

  /** The ids among `ids` that this client set (the others mean nothing to it). */
  known(ids: number[]): number[] {
    return ids.filter((id) => this.told.has(id));
  }

  /** 'changed'/'removed' breakpoint events for this client's breakpoints among the session's changes */
  changes(deltas: BreakpointChange[]): { reason: 'changed' | 'removed'; breakpoint: DebugProtocol.Breakpoint }[] {
    const events: { reason: 'changed' | 'removed'; breakpoint: DebugProtocol.Breakpoint }[] = [];
    for (const delta of deltas) {
      const before = this.told.get(delta.id);
      if (!before) continue; // another client's, or one this client's own request reports
      if (!delta.breakpoint) {
        this.told.delete(delta.id);
        events.push({ reason: 'removed', breakpoint: { id: delta.id, verified: false } });
        continue;
      }
      const now = this.remember(delta.breakpoint, before.source?.path);
      if (now.verified !== before.verified || now.line !== before.line || now.message !== before.message) {
        events.push({ reason: 'changed', breakpoint: now });
      }
    }
    return events;
  }

  private remember(info: BreakpointInfo, sourcePath?: string): DebugProtocol.Breakpoint {
    const bp: DebugProtocol.Breakpoint = { id: info.id, verified: info.verified };
    if (info.line !== undefined) bp.line = info.line;
    if (sourcePath) bp.source = sourceOf(sourcePath);
    if (info.message) bp.message = info.message;
    if (info.address?.space === 'cpu') bp.instructionReference = `0x${info.address.offset.toString(16)}`;
    this.told.set(info.id, bp);
    return bp;
  }

  private async clear(ids: number[]): Promise<void> {
    for (const id of ids) {
      this.told.delete(id);
      try {
        await this.me.clearBreakpoint(id);
      } catch (err) {
        // Already gone (owner expiry, session reset): nothing left to clear.
        if (asRetroError(err).code !== 'not_found') throw err;
      }
    }
  }
}

/** One line about breakpoints other clients own, or undefined when there are none. */
export function foreignBreakpointSummary(all: BreakpointInfo[], myClientId: string): string | undefined {
  const foreign = all.filter((b) => b.owner.id !== myClientId);
  if (!foreign.length) return undefined;
  const byOwner = new Map<string, string[]>();
  for (const b of foreign) {
    const list = byOwner.get(b.owner.label) ?? [];
    list.push(breakpointPlace(b) + (b.condition ? ` if ${b.condition}` : ''));
    byOwner.set(b.owner.label, list);
  }
  const parts = [...byOwner].map(([owner, list]) => `${owner}: ${list.join(', ')}`);
  return `Breakpoints owned by other clients (shown here read-only): ${parts.join('; ')}\n`;
}

function sourceOf(path: string): DebugProtocol.Source {
  return { name: basename(path), path };
}

/** VS Code's hit condition and log message, when set (empty strings mean none). */
function extrasOf(bp: RequestedBreakpoint): BreakpointExtras {
  return { hitCondition: bp.hitCondition || undefined, logMessage: bp.logMessage || undefined };
}
