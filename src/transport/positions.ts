// Checks of transport positions against a clip (its saved in/out points and length): where a seek, a select's
// start, new in/out points or a cue point may lie; a position outside is 400 naming the valid range.
import { ApiError, notFound } from '../errors.js';
import { TRANSPORT_LIMITS } from '../limits.js';
import type { TransportSaved } from './settings.js';

export const fmt = (s: number): string => (Number.isFinite(s) ? String(Math.round(s * 1000) / 1000) : 'the end');

/** The clip's in-out span (s); an unknown length is open-ended. */
export function spanOf(s: Pick<TransportSaved, 'in' | 'out'>, durationS: number | null): { lo: number; hi: number } {
  return { lo: s.in ?? 0, hi: s.out ?? durationS ?? Number.POSITIVE_INFINITY };
}

/** The answer to a position outside the clip's in-out span: it names the span. */
export function outsideSpan(s: Pick<TransportSaved, 'in' | 'out'>, durationS: number | null): ApiError {
  const { lo, hi } = spanOf(s, durationS);
  return new ApiError('INVALID_REQUEST', `positionS must be from ${lo} to below ${fmt(hi)} s (the clip's in-out range)`);
}

/** `pos` inside the in-out span, moved no later than the last frame's start (one frame period before the out point). */
export function startPosition(s: TransportSaved, durationS: number | null, pos: number, fps: number): number {
  const { lo, hi } = spanOf(s, durationS);
  if (!(pos >= lo && pos < hi)) throw outsideSpan(s, durationS);
  return Math.max(lo, Math.min(pos, hi - 1 / fps));
}

/** Where a seek to one of `positionS`, `fraction` (of the in-out span) or `cue` lands. */
export function seekPosition(
  s: TransportSaved,
  durationS: number | null,
  to: { positionS?: number | undefined; fraction?: number | undefined; cue?: string | undefined },
  fps: number,
): number {
  const { lo, hi } = spanOf(s, durationS);
  const given = [to.positionS, to.fraction, to.cue].filter((v) => v !== undefined).length;
  if (given !== 1) throw new ApiError('INVALID_REQUEST', 'send exactly one of positionS, fraction or cue');
  if (to.positionS !== undefined) return startPosition(s, durationS, to.positionS, fps);
  let pos: number;
  if (to.cue !== undefined) {
    const at = Object.hasOwn(s.cues, to.cue) ? s.cues[to.cue] : undefined;
    if (at === undefined) throw notFound('cue', to.cue, Object.keys(s.cues));
    pos = Math.min(Math.max(at, lo), hi);
  } else {
    if (!Number.isFinite(hi)) throw new ApiError('INVALID_REQUEST', 'the clip has no known length; seek by positionS');
    pos = lo + to.fraction! * (hi - lo);
  }
  return Math.max(lo, Math.min(pos, hi - 1 / fps));
}

/** New in and out points (undefined keeps one, null clears it), at least two frames apart inside the clip. */
export function checkedInOut(
  s: TransportSaved,
  durationS: number | null,
  v: { in?: number | null | undefined; out?: number | null | undefined },
  fps: number,
): { in: number | null; out: number | null } {
  const a = v.in === undefined ? s.in : v.in;
  const b = v.out === undefined ? s.out : v.out;
  const len = durationS ?? Number.POSITIVE_INFINITY;
  const minSpan = 2 / fps;
  const lo = a ?? 0;
  const hi = b ?? len;
  if (lo < 0 || hi > len || hi - lo < minSpan)
    throw new ApiError('INVALID_REQUEST', `in and out must lie from 0 to ${fmt(len)} s with out at least ${fmt(minSpan)} s after in`);
  return { in: a, out: b };
}

/** A cue point `name` at `positionS` fits the clip and the cue limit. */
export function checkCue(s: TransportSaved, durationS: number | null, name: string, positionS: number): void {
  const len = durationS ?? Number.POSITIVE_INFINITY;
  if (!(positionS >= 0 && positionS < len)) throw new ApiError('INVALID_REQUEST', `positionS must be from 0 to below ${fmt(len)} s`);
  if (!Object.hasOwn(s.cues, name) && Object.keys(s.cues).length >= TRANSPORT_LIMITS.cuesMax)
    throw new ApiError('INVALID_REQUEST', `a clip holds at most ${TRANSPORT_LIMITS.cuesMax} cue points; remove one first`);
}
