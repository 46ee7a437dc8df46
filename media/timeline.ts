/**
 * The timeline under the screen panel's picture: a slider over the recorded frames with the recorded stops as
 * marks, the "time travel — read-only" badge in the past, and what resuming there does (the recorded future is
 * discarded). Dragging asks the host for frames as the thumb moves (the host keeps only the newest while a move
 * runs), so the picture follows; shown only when the machine records a history.
 */
import type { HostMessage, WebviewMessage } from '../src/ui/screen-messages.js';

type Timeline = Extract<HostMessage, { type: 'timeline' }>;

export function timelineView(post: (m: WebviewMessage) => void): (m: Timeline) => void {
  const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
  const section = byId<HTMLElement>('timeline');
  const slider = byId<HTMLInputElement>('time-slider');
  const marks = byId<HTMLDivElement>('time-marks');
  const badge = byId<HTMLSpanElement>('time-badge');
  const field = byId<HTMLSpanElement>('time-frame');
  const present = byId<HTMLButtonElement>('time-present');
  const note = byId<HTMLParagraphElement>('time-note');
  let dragging = false;
  let asked: number | undefined;

  const ask = () => {
    const frame = Number(slider.value);
    if (frame === asked) return;
    asked = frame;
    post({ type: 'go-to-frame', frame });
  };
  slider.addEventListener('pointerdown', () => (dragging = true));
  slider.addEventListener('input', ask);
  slider.addEventListener('change', () => {
    dragging = false;
    ask();
  });
  present.addEventListener('click', () => post({ type: 'go-to-present' }));

  return (m) => {
    section.hidden = !m.available;
    if (!m.available || m.startFrame === undefined || m.endFrame === undefined || m.nowFrame === undefined) return;
    const span = Math.max(1, m.endFrame - m.startFrame);
    slider.min = String(m.startFrame);
    slider.max = String(m.endFrame);
    if (!dragging) slider.value = String(m.nowFrame);
    asked = m.nowFrame;
    slider.disabled = !m.stopped;
    section.dataset.inPast = String(!!m.inPast);
    badge.hidden = !m.inPast;
    present.hidden = !m.inPast;
    field.textContent = m.inPast ? `frame ${m.nowFrame} of ${m.endFrame}` : `frames ${m.startFrame}-${m.endFrame}`;
    note.textContent = !m.stopped
      ? 'Pause to travel in time.'
      : m.inPast
        ? `${m.noPicture ? `${m.noPicture} ` : ''}Resuming or stepping here discards the recorded future (frames ${m.nowFrame + 1}-${m.endFrame}); "Back to present" returns exactly.`
        : '';
    marks.replaceChildren(
      ...(m.marks ?? []).map((s) => {
        const mark = document.createElement('span');
        mark.className = `mark ${s.reason}`;
        mark.style.left = `${(100 * (s.frame - m.startFrame!)) / span}%`;
        mark.title = `${s.reason} at frame ${s.frame}`;
        return mark;
      }),
    );
    marks.dataset.count = String(m.marks?.length ?? 0);
  };
}
