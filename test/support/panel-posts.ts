/**
 * The panel's posts as the webview sees them: a frame's rows laid into the
 * frame held before (ui/frame-delta.ts), so a test reads whole pictures.
 * The bytes are copied first, as crossing to the webview's process copies them.
 */
import { HeldFrame, frameKey } from '../../src/ui/frame-delta.js';
import type { HostMessage } from '../../src/ui/screen-messages.js';

export function wholeFrames(): (m: HostMessage) => HostMessage {
  const held = new HeldFrame();
  return (m) => {
    if (m.type !== 'raw') return m;
    const indexed = !!(m.pixels && m.palette);
    const data = indexed ? m.pixels : m.rgba;
    if (!data) return m;
    const whole = held.apply(
      new Uint8Array(data),
      m.height,
      frameKey(m.width, m.height, indexed ? m.palette : undefined),
      m.rows,
    );
    if (!whole) throw new Error(`frame ${m.frame}: rows with no frame held to patch`);
    return {
      ...m,
      rows: undefined,
      ...(indexed ? { pixels: new Uint8Array(whole) } : { rgba: new Uint8Array(whole) }),
    };
  };
}
