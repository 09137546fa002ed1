// LFO shapes and the phase of a rate: Hz rates run free (their cycles advance per frame), beat divisions take their
// phase from the clock's beat position, so a resync restarts them in phase and a tempo change retimes them.
import type { LfoShape, Rate } from '../../../src/shared/modulation.js';
import type { ModContext, ModState } from './context.js';

/** Beats of the fallback clock per ms (120 BPM) while no tempo clock is there. */
const FALLBACK_BEATS_PER_MS = 2 / 1000;

/** Advances a Hz rate's free-running phase by one frame (not called while frozen). */
export function advance(rate: Rate, st: ModState, ctx: ModContext): void {
  if (typeof rate !== 'number') return;
  // Kept small so the fraction keeps its precision over a long show.
  st.cycles = (st.cycles + (rate * ctx.dtMs) / 1000) % 1_048_576;
}

/** Cycles of a rate at this frame (the whole part counts periods, the fraction is the phase), plus `phase`. */
export function cyclesOf(rate: Rate, st: ModState, ctx: ModContext, phase: number): number {
  if (typeof rate === 'number') return st.cycles + phase;
  const beats = Number.isFinite(ctx.beats) ? ctx.beats : ctx.due * FALLBACK_BEATS_PER_MS;
  return beats / st.periodBeats + phase;
}

/** A deterministic value in 0..1 for period `n` of seed `seed`. */
export function hash01(seed: number, n: number): number {
  let h = Math.imul(seed ^ (n | 0), 2654435761) ^ Math.imul((n / 4294967296) | 0, 40503);
  h = Math.imul(h ^ (h >>> 15), 2246822519);
  h = Math.imul(h ^ (h >>> 13), 3266489917);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967295;
}

const smooth = (t: number): number => t * t * (3 - 2 * t);

/** The unipolar value (0..1) of `shape` at `c` cycles; sine and triangle start at their midpoint, rising. */
export function lfoShape(shape: LfoShape, c: number, width: number, seed: number): number {
  const n = Math.floor(c);
  const f = c - n;
  switch (shape) {
    case 'sine':
      return 0.5 + 0.5 * Math.sin(2 * Math.PI * f);
    case 'triangle':
      return 0.5 + 0.5 * (f < 0.25 ? 4 * f : f < 0.75 ? 2 - 4 * f : 4 * f - 4);
    case 'saw':
      return 1 - f;
    case 'ramp':
      return f;
    case 'square':
      return f < width ? 1 : 0;
    case 'random':
      return hash01(seed, n);
    case 'smooth': {
      const a = hash01(seed, n);
      return a + (hash01(seed, n + 1) - a) * smooth(f);
    }
  }
}
