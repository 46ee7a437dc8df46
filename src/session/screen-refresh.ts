/**
 * The refresh rate a user chooses for a frame source whose every frame halts
 * the machine (a real VICE: its monitor stops the C64 for each command). The
 * screen feed polls at that rate while the machine runs (0: frames only at
 * stops); an explicit screenshot while running stops the machine at most as
 * often, else the last frame is given again with its age. Push sources (the
 * built-in C64, MAME, DOS) stop nothing and have no such rate.
 */
import { badRequest, unsupported } from '../core/errors.js';
import type { FrameSourceInfo } from '../core/target.js';

/**
 * 1 frame/s unless the user says otherwise: a picture that moves while the
 * program runs is what a person opening the screen expects (a frozen one was
 * issue 13's complaint), and one stop of a few ms a second is under 1 % of
 * VICE's wall-clock time; the C64 itself cannot see a stop (its clock does
 * not advance meanwhile). Off stays one choice away.
 */
export const DEFAULT_REFRESH_FPS = 1;

/** The user's choice, checked against the source's rates; undefined: the default. */
export function checkRefreshFps(source: FrameSourceInfo, fps: number | undefined, session: string): number {
  if (!source.rates)
    throw unsupported(
      `${session}'s frames cost the machine no stop (${source.cost}), so there is no refresh rate to choose.`,
    );
  const chosen = fps ?? DEFAULT_REFRESH_FPS;
  if (!source.rates.includes(chosen))
    throw badRequest(
      `The screen refresh rate must be one of ${source.rates.join(', ')} frames/s (0: only at stops), not ${fps}.`,
    );
  return chosen;
}

/** Frames a second the feed polls at while running: the viewers' highest ask, within the source's and the user's bounds. */
export function pollFps(source: FrameSourceInfo, refreshFps: number, asked: number): number {
  const bound = source.rates ? Math.min(source.maxFps, refreshFps) : source.maxFps;
  return Math.max(0, Math.min(bound, asked));
}

/** How old a frame taken while running may be to serve a screenshot instead of another stop (none without rates). */
export function screenshotReuseMs(source: FrameSourceInfo, refreshFps: number): number {
  return source.rates ? 1000 / Math.max(1, refreshFps) : 0;
}

/** The sentence the panel and watch_screen show: from the measured stops when there are some. */
export function refreshCost(source: FrameSourceInfo, refreshFps: number): string {
  if (!source.rates) return source.cost;
  const rate = refreshFps
    ? `refresh ${refreshFps} frame${refreshFps > 1 ? 's' : ''}/s`
    : 'refresh off (frames at stops)';
  const m = source.measured;
  if (!m) return `${rate}; each frame while running stops the C64 for one display read (not measured yet)`;
  return `${rate}; each frame stops the C64 ~${m.stopMs.toFixed(1)} ms; ${m.stopsPerSecond.toFixed(1)} stops/s`;
}
