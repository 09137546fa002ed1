// Where a modulator puts an input: the polarity turns the kind's 0..1 value into a signed signal, and the amount moves
// the set value by a share of the whole range (`range`, clamped) or of the room toward the end it moves to
// (`headroom`, which never reaches an end while |amount| stays below 1).
import type { AmountOf, Polarity } from '../../../src/shared/modulation.js';

/** The signed signal of a 0..1 value `u`: bipolar −1..1 around the set value, up 0..1, down −1..0. */
export function polar(polarity: Polarity | undefined, u: number): number {
  if (polarity === 'up') return u;
  if (polarity === 'down') return -u;
  return 2 * u - 1;
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/** The applied value of `set` in lo..hi for signal `m` (−1..1) and `amount` (−1..1). */
export function move(set: number, lo: number, hi: number, amount: number, amountOf: AmountOf | undefined, m: number): number {
  const d = amount * m;
  if (amountOf !== 'headroom') return clamp(set + d * (hi - lo), lo, hi);
  // A set value outside the range (an older state, a narrowed input) is moved from the nearest end.
  const base = clamp(set, lo, hi);
  return clamp(base + d * (d >= 0 ? hi - base : base - lo), lo, hi);
}

/** A hue (0..1, a circle) moved by `amount` of a full turn for signal `m`, wrapped: red past its end is red again. */
export function turn(hue: number, amount: number, m: number): number {
  const h = (hue + amount * m) % 1;
  return h < 0 ? h + 1 : h;
}
