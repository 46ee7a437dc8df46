/**
 * Everything the adapter tells the DAP client on its own: output lines,
 * stops, continues, breakpoint changes, invalidations, memory changes and the
 * one terminated event. Capability-gated events (invalidated, memory) are sent
 * only to clients that said they understand them.
 */
import {
  BreakpointEvent,
  ContinuedEvent,
  InvalidatedEvent,
  MemoryEvent,
  OutputEvent,
  StoppedEvent,
  TerminatedEvent,
} from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { StopInfo } from '../core/target.js';
import type { BreakpointChange, BreakpointInfo, SourceLocation } from '../session/types.js';
import { foreignBreakpointSummary, type ClientBreakpoints } from './breakpoints.js';
import { CPU_THREAD_ID } from './c-view.js';
import { dapStopReason, describeStop } from './stop-text.js';

export class DapNotifier {
  private terminatedSent = false;
  private lastForeignSummary?: string;
  /** other clients' breakpoints, kept from the session's changes */
  private readonly foreign = new Map<number, BreakpointInfo>();
  private holds = 0;
  private held: DebugProtocol.Event[] = [];

  constructor(
    private readonly send: (event: DebugProtocol.Event) => void,
    private readonly clientCaps: () => Partial<DebugProtocol.InitializeRequestArguments>,
  ) {}

  output(text: string, category: 'console' | 'stdout' | 'stderr' = 'console'): void {
    this.send(new OutputEvent(text, category));
  }

  stopped(stop: StopInfo, location: SourceLocation | undefined, hitIds: number[], mine?: ClientBreakpoints): void {
    const byInstruction = stop.reason === 'breakpoint' && mine?.hasInstructionBreakpoint(hitIds);
    const reason = byInstruction ? 'instruction breakpoint' : dapStopReason(stop.reason);
    const event = new StoppedEvent(reason, CPU_THREAD_ID) as DebugProtocol.StoppedEvent;
    event.body.description = describeStop(stop, location);
    if (stop.why) event.body.text = stop.why;
    event.body.allThreadsStopped = true;
    const ids = mine?.known(hitIds) ?? [];
    if (ids.length) event.body.hitBreakpointIds = ids;
    this.sendRunEvent(event);
  }

  /**
   * Not while this client's own continue/step is being answered: its response says the thread runs (DAP: no
   * continued event for a request that implies it), and VS Code, handed a continued and at once a stop, clears
   * the stop's details after taking it (the call stack without "Paused on ...").
   */
  continued(): void {
    if (this.holds && !this.held.length) return;
    this.sendRunEvent(new ContinuedEvent(CPU_THREAD_ID, true));
  }

  /**
   * Before a move VS Code did not ask for as a run (a custom request, the timeline's): VS Code hears the thread run
   * now, in an event of its own well ahead of the move's stop, so that stop's words replace the last stop's (VS Code
   * shows the oldest stop details it holds until a continued clears them). Never held: it must precede the stop.
   */
  continuedAhead(): void {
    this.send(new ContinuedEvent(CPU_THREAD_ID, true));
  }

  /**
   * While this client's continue/step is answered: its stops are sent after the response (which clients read as
   * "the thread runs"), in order, once the returned release is called.
   */
  holdRunEvents(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds > 0) return;
      const events = this.held;
      this.held = [];
      for (const e of events) this.send(e);
    };
  }

  private sendRunEvent(event: DebugProtocol.Event): void {
    if (this.holds) this.held.push(event);
    else this.send(event);
  }

  breakpointChanges(mine: ClientBreakpoints | undefined, changes: BreakpointChange[]): void {
    for (const change of mine?.changes(changes) ?? []) this.send(new BreakpointEvent(change.reason, change.breakpoint));
  }

  /** Other clients' breakpoints, the whole list (at configuration); their changes follow (foreignChanges). */
  foreignBreakpoints(all: BreakpointInfo[], myId: string): void {
    this.foreign.clear();
    for (const b of all) if (b.owner.id !== myId) this.foreign.set(b.id, b);
    this.tellForeign(myId);
  }

  /** Other clients' breakpoint changes; the line is told once configured. */
  foreignChanges(changes: BreakpointChange[], myId: string, configured: boolean): void {
    const theirs = changes.filter((c) => c.owner.id !== myId);
    for (const c of theirs) {
      if (c.breakpoint) this.foreign.set(c.id, c.breakpoint);
      else this.foreign.delete(c.id);
    }
    if (theirs.length && configured) this.tellForeign(myId);
  }

  /** One line about other clients' breakpoints, repeated only when it changes. */
  private tellForeign(myId: string): void {
    const summary = foreignBreakpointSummary([...this.foreign.values()], myId);
    if (summary && summary !== this.lastForeignSummary) this.output(summary);
    this.lastForeignSummary = summary;
  }

  invalidate(areas: DebugProtocol.InvalidatedAreas[]): void {
    if (this.clientCaps().supportsInvalidatedEvent) this.send(new InvalidatedEvent(areas));
  }

  memoryChanged(reference: string, length: number): void {
    if (this.clientCaps().supportsMemoryEvent) this.send(new MemoryEvent(reference, 0, length));
  }

  terminated(): void {
    if (this.terminatedSent) return;
    this.terminatedSent = true;
    this.send(new TerminatedEvent());
  }
}
