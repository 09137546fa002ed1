// Beat phase: where on the envelope the grid of a known period fits the hits best, weighted toward the latest
// beats so a drifting or re-struck beat is followed.
import { vertex } from './beat-tempo.js';

/** Each earlier beat of the grid counts this much less than the one after it. */
const RECENCY = 0.9;
/** Beats of the grid that are weighed at most. */
const MAX_BEATS = 24;

function at(d: Float64Array, n: number, x: number): number {
  if (x < 0 || x > n - 1) return 0;
  const i = Math.floor(x);
  const f = x - i;
  return i + 1 < n ? d[i]! * (1 - f) + d[i + 1]! * f : d[i]!;
}

function gridScore(d: Float64Array, n: number, period: number, back: number): number {
  let score = 0;
  let w = 1;
  for (let j = 0; j < MAX_BEATS; j++) {
    const x = n - 1 - back - j * period;
    if (x < 0) break;
    score += w * at(d, n, x);
    w *= RECENCY;
  }
  return score;
}

/** Hops back from the latest one to the latest beat of the best-fitting grid (0 ≤ result < period). */
export function beatOffset(d: Float64Array, n: number, period: number): number {
  const slots = Math.max(1, Math.ceil(period));
  const scores = new Float64Array(slots);
  let best = 0;
  for (let b = 0; b < slots; b++) {
    scores[b] = gridScore(d, n, period, b);
    if (scores[b]! > scores[best]!) best = b;
  }
  const prev = scores[(best - 1 + slots) % slots]!;
  const next = scores[(best + 1) % slots]!;
  const back = best + vertex(prev, scores[best]!, next);
  return back < 0 ? back + period : back >= period ? back - period : back;
}
