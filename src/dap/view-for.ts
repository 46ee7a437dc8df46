/**
 * The one place the adapter learns which DebugView a session's target has.
 * Until each connector's descriptor carries its `debugView` (the connector
 * registry), the choice is made here: a DOS guest gets the DOS view, every
 * other target the C view of a stopped CPU.
 */
import type { DebugView, DebugViewContext } from './debug-view.js';
import { CDebugView } from './c-view.js';
import { dosDebugView } from '../connectors/dosbox/front/dap-view.js';

export function viewFor(ctx: DebugViewContext): DebugView {
  return dosDebugView(ctx) ?? new CDebugView(ctx);
}
