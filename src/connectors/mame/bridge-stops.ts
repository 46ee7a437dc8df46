/**
 * The bridge's 'stopped' events as StopInfo, and the connector's own trap breakpoints: a stop at one is no user's
 * breakpoint but an 'exception' stop that says why (bridge-load.ts's DSS trap).
 */
import type { Register, StopInfo, StopReason } from '../../core/target.js';
import type { BridgeEvent } from './bridge-client.js';

const STOP_REASONS: Record<string, StopReason> = {
  entry: 'entry',
  breakpoint: 'breakpoint',
  watchpoint: 'watchpoint',
  goto: 'goto',
  pause: 'pause',
  step: 'step',
  step_over: 'step',
  step_out: 'step',
  unknown: 'unknown',
};

export function toStopInfo(e: BridgeEvent): StopInfo {
  const stop: StopInfo = { reason: STOP_REASONS[String(e.reason)] ?? 'unknown', pc: num(e.pc) ?? 0 };
  if (typeof e.breakpoint === 'number') stop.breakpointId = e.breakpoint;
  if (typeof e.watchpoint === 'number') stop.watchpointId = e.watchpoint;
  if (Array.isArray(e.log) && e.log.length) stop.log = e.log.map(String);
  if (e.pages && typeof e.pages === 'object') stop.pages = e.pages as Record<string, number>;
  const a = e.access as Record<string, unknown> | undefined;
  if (a && typeof a.pc === 'number' && typeof a.address === 'number') {
    stop.access = { kind: String(a.kind), address: a.address, value: num(a.value) ?? 0, pc: a.pc };
  }
  return stop;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

export class StopTraps {
  /** per breakpoint id */
  private readonly traps = new Map<number, { address: number; why: (registers: Register[]) => string }>();

  at(address: number): boolean {
    return [...this.traps.values()].some((t) => t.address === address);
  }

  add(id: number, address: number, why: (registers: Register[]) => string): void {
    this.traps.set(id, { address, why });
  }

  /** A stop at a trap becomes an 'exception' stop saying why. */
  apply(stop: StopInfo, registers: Register[] | undefined): void {
    const trap = stop.breakpointId !== undefined ? this.traps.get(stop.breakpointId) : undefined;
    if (!trap) return;
    Object.assign(stop, { reason: 'exception', why: trap.why(registers ?? []) });
    delete stop.breakpointId;
  }
}
