// Step sequences: one normalised value per period of the rate, looping; `glide` slides into the next value over
// that last fraction of each step.
import type { StepsModulator } from '../../../src/shared/modulation.js';

export function stepsSignal(mod: StepsModulator, c: number): number {
  const v = mod.values;
  const n = v.length;
  const whole = Math.floor(c);
  const k = ((whole % n) + n) % n;
  const here = v[k]!;
  const glide = mod.glide ?? 0;
  const f = c - whole;
  if (glide <= 0 || f < 1 - glide) return here;
  const t = (f - (1 - glide)) / glide;
  return here + (v[(k + 1) % n]! - here) * t * t * (3 - 2 * t);
}
