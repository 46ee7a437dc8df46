/**
 * The status-bar item that says who holds the control lease of the session the extension shows (you, an agent
 * by name, nobody); a click runs Retro Debug: Take Control, which gives it back to the user's debug session.
 * It follows the manager's current session and its lease_changed events; hidden without a session.
 */
import * as vscode from 'vscode';
import type { SessionApi, SessionManagerApi } from '../session/types.js';
import { controlStatusText } from './control-text.js';

export class ControlStatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private session?: SessionApi;
  private stopListening?: () => void;
  private readonly stopFollowing: () => void;
  private disposed = false;

  constructor(
    private readonly sessions: Pick<SessionManagerApi, 'get' | 'onSessionsChanged'>,
    command: string,
  ) {
    this.item = vscode.window.createStatusBarItem('retro.control', vscode.StatusBarAlignment.Left, 40);
    this.item.name = 'Retro Debug control';
    this.item.command = command;
    this.stopFollowing = sessions.onSessionsChanged(() => this.follow());
    this.follow();
  }

  dispose(): void {
    this.disposed = true;
    this.stopFollowing();
    this.stopListening?.();
    this.item.dispose();
  }

  private follow(): void {
    let current: SessionApi | undefined;
    try {
      current = this.sessions.get();
    } catch {
      current = undefined; // no session: nothing to show
    }
    if (current === this.session) return;
    this.stopListening?.();
    this.session = current;
    this.stopListening = current?.onEvent(({ event }) => {
      if (event.type === 'lease_changed' || event.type === 'phase') void this.update();
      if (event.type === 'exited') this.item.hide();
    });
    void this.update();
  }

  private async update(): Promise<void> {
    const session = this.session;
    if (!session || this.disposed) return this.item.hide();
    try {
      const status = await session.status();
      if (session !== this.session || this.disposed) return;
      if (status.phase === 'exited' || status.phase === 'failed') return this.item.hide();
      const { text, tooltip } = controlStatusText(status.lease?.holder);
      this.item.text = text;
      this.item.tooltip = tooltip;
      this.item.show();
    } catch {
      this.item.hide(); // the session went away meanwhile
    }
  }
}
