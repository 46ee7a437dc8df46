/**
 * Messages between the screen panel's extension-host side and its webview.
 * Shared by src/ui/ and media/screen-panel.ts so both sides agree on one shape.
 */

/** Extension host → webview. */
export type HostMessage =
  | {
      type: 'frame';
      /** data:image/png;base64,… */
      dataUrl: string;
      width: number;
      height: number;
      sessionId: string;
      state: string;
      frame?: number;
      /** the CPU is stopped, so the picture may predate the current machine state */
      maybeStale: boolean;
      /** ms since epoch, when the screenshot was taken */
      takenAt: number;
    }
  | {
      type: 'status';
      sessionId?: string;
      state?: string;
      /** a sentence for people, e.g. why there is no picture */
      message: string;
    };

/** Webview → extension host. */
export type WebviewMessage = { type: 'ready' } | { type: 'refresh' };

/** Accepts only the known webview messages; anything else is ignored by the caller. */
export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const type = (raw as { type?: unknown }).type;
  return type === 'ready' || type === 'refresh' ? { type } : undefined;
}
