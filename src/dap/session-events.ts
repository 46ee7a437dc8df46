/** What a session event means for one DAP client. */
import type { SessionEvent } from '../session/types.js';
import type { ClientBreakpoints } from './breakpoints.js';
import type { ClientDataBreakpoints } from './data-breakpoints.js';
import type { DapNotifier } from './dap-notifier.js';
import type { VariableHandles } from './variables.js';

export interface ForwardingState {
  /** true once the client finished configuring: from then on stops and runs are forwarded */
  configured: boolean;
  myId: string;
  breakpoints?: ClientBreakpoints;
  dataBreakpoints?: ClientDataBreakpoints;
  handles: VariableHandles;
  notify: DapNotifier;
}

export function forwardSessionEvent(event: SessionEvent, s: ForwardingState): void {
  const { notify } = s;
  switch (event.type) {
    case 'phase':
      notify.output(`${event.message}\n`);
      if (s.configured && (event.phase === 'exited' || event.phase === 'failed')) notify.terminated();
      return;
    case 'stopped':
      if (!s.configured) return;
      s.handles.reset();
      notify.stopped(event.stop, event.location, event.breakpoint_ids, s.breakpoints);
      if (event.watch?.length)
        void s.dataBreakpoints
          ?.describeHit(event.watch, event.stop)
          .then((text) => text && notify.output(text))
          .catch(() => undefined);
      return;
    case 'running':
      if (!s.configured) return;
      s.handles.reset();
      notify.continued();
      return;
    case 'exited':
      notify.output(`The emulator exited: ${event.reason}\n`);
      if (s.configured) notify.terminated();
      return;
    case 'breakpoints_changed':
      notify.breakpointChanges(s.breakpoints, event.changes);
      notify.foreignChanges(event.changes, s.myId, s.configured);
      return;
    case 'owner_expired': {
      const n = event.removed_breakpoints.length;
      const lost = n ? ` and its ${n} breakpoint${n === 1 ? ' was' : 's were'} removed` : '';
      notify.output(
        event.client.id === s.myId
          ? `This debug session lost its control of the emulator${lost}.\n`
          : `${event.client.label} went away${lost}.\n`,
      );
      return;
    }
    case 'generation':
      s.handles.reset();
      if (s.configured) notify.invalidate(['all']);
      return;
    case 'output':
      notify.output(event.text.endsWith('\n') ? event.text : `${event.text}\n`, 'stdout');
      return;
  }
}
