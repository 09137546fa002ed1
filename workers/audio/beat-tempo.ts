// Tempo from the onset envelope: its autocorrelation, a comb over the first multiples of each candidate period
// inside the tempo range (the range keeps the answer out of the wrong octave) raised by its bar's repeat, then the
// period refined from the interpolated peaks at many multiples, since one hop is far too coarse a step on its own.

/** Multiples of a candidate period the comb adds up. */
const COMB_MULTIPLES = 4;
/** The comb's scan step, in hops. */
const SCAN_STEP = 0.05;
/** Peaks are refined at multiples up to this share of the envelope: beyond it too few pairs overlap. */
const REFINE_SPAN = 0.65;
/**
 * The previous period stays while its comb score is at least this share of the best: a pattern with strong
 * syncopation can otherwise flip to a neighbouring period for one estimate.
 */
const STICKINESS = 0.85;
/** Periods after which a groove that repeats by the half bar or the bar is alike again. */
const BAR_MULTIPLES = [2, 4];
/**
 * A candidate's comb is raised by how much more alike the envelope is a bar (four of its periods) later than half a
 * bar later: a groove whose kicks fall off the beat (a hip-hop one) repeats cleanly only by the bar, and without it
 * reads as its 4/3 or its double; its half tempo gains nothing, since its half bar is the groove's bar.
 */
const BAR_BEATS = 4;
const BAR_WEIGHT = 1;
/** A lag is weighed only up to this share of the envelope: beyond it too few hops overlap to tell. */
const BAR_SPAN = 0.8;
/** Tempo relatives of the pick (period ratios) that a groove is most often mistaken for. */
const RELATIVES = [0.5, 2 / 3, 0.75, 4 / 3, 1.5, 2];
/**
 * The confidence falls off while a relative's comb scores within this share of the pick's: the envelope has not yet
 * told the two apart, and the clock should not show the pick as sure.
 */
const AMBIGUITY = 0.25;
/** How far from the expected multiple a refined peak may lie, in hops. */
const REFINE_SEARCH = 2;

export interface PeriodPick {
  /** Beat period in hops. */
  period: number;
  /** 0..1: how periodic the envelope is at that period. */
  confidence: number;
  /** The comb's score of the previous period as a share of the best one's (1 without a previous period). */
  previousFit: number;
  /** A relative of the pick could not yet be weighed by its bar: the envelope is shorter than that bar needs. */
  unchecked: boolean;
}

/** `ac[lag]` for lags 0..maxLag of the first `n` values of `z`. */
export function autocorrelate(z: Float64Array, n: number, maxLag: number, ac: Float64Array): void {
  for (let lag = 0; lag <= maxLag; lag++) {
    let s = 0;
    for (let i = lag; i < n; i++) s += z[i]! * z[i - lag]!;
    ac[lag] = s;
  }
}

/** The autocorrelation between whole lags (linear), zero past the last one computed. */
function acAt(ac: Float64Array, maxLag: number, x: number): number {
  const i = Math.floor(x);
  if (i < 0 || i >= maxLag) return i === maxLag ? ac[maxLag]! : 0;
  const f = x - i;
  return ac[i]! * (1 - f) + ac[i + 1]! * f;
}

/** Vertex offset (−0.5..0.5) of the parabola through three neighbouring values around a maximum at the middle. */
export function vertex(a: number, b: number, c: number): number {
  const den = a - 2 * b + c;
  if (den >= 0) return 0;
  const d = (0.5 * (a - c)) / den;
  return Math.min(0.5, Math.max(-0.5, d));
}

/**
 * The comb's best period between `minLag` and `maxLag` hops. The plain (not length-normalised) autocorrelation
 * fades with the lag, so of two periods an octave apart that fit equally well the shorter wins, while a period whose
 * half finds no hits (a slow pulse) keeps its own.
 */
function combPeak(
  ac: Float64Array,
  acMax: number,
  n: number,
  minLag: number,
  maxLag: number,
  previous: number | null,
): { lag: number; previousFit: number; rival: number; unchecked: boolean } {
  const comb = (lag: number): number => {
    let score = 0;
    for (let k = 1; k <= COMB_MULTIPLES; k++) score += acAt(ac, acMax, k * lag);
    const bar = BAR_BEATS * lag;
    if (bar > BAR_SPAN * n || !(ac[0]! > 0)) return score;
    // Each lag's correlation over its own overlap, as a share of the envelope's energy.
    const half = bar / 2;
    const repeat = ((acAt(ac, acMax, bar) / (n - bar) - acAt(ac, acMax, half) / (n - half)) * n) / ac[0]!;
    return score * (1 + BAR_WEIGHT * Math.max(0, repeat));
  };
  let best = minLag;
  let bestScore = Number.NEGATIVE_INFINITY;
  const steps = Math.max(1, Math.round((maxLag - minLag) / SCAN_STEP));
  for (let s = 0; s <= steps; s++) {
    const lag = minLag + ((maxLag - minLag) * s) / steps;
    const score = comb(lag);
    if (score > bestScore) {
      bestScore = score;
      best = lag;
    }
  }
  let rival = 0;
  let unchecked = false;
  if (bestScore > 0) {
    for (const ratio of RELATIVES) {
      const lag = best * ratio;
      if (lag < minLag || lag > maxLag) continue;
      rival = Math.max(rival, comb(lag) / bestScore);
      if (BAR_BEATS * lag > BAR_SPAN * n) unchecked = true;
    }
  }
  if (previous === null || !(bestScore > 0)) return { lag: best, previousFit: 1, rival, unchecked };
  const previousFit = previous >= minLag && previous <= maxLag ? Math.max(0, comb(previous) / bestScore) : 0;
  return { lag: previousFit >= STICKINESS ? previous : best, previousFit, rival, unchecked };
}

/** The period from the interpolated autocorrelation peaks near its multiples (least squares through zero). */
function refine(ac: Float64Array, acMax: number, n: number, coarse: number): number {
  let num = 0;
  let den = 0;
  for (let k = 1; k * coarse <= REFINE_SPAN * n && k * coarse + REFINE_SEARCH < acMax; k++) {
    const centre = Math.round(k * coarse);
    let j = centre;
    for (let x = centre - REFINE_SEARCH; x <= centre + REFINE_SEARCH; x++) if (x > 0 && ac[x]! > ac[j]!) j = x;
    // A maximum at the edge of the search is another peak's slope, not this multiple's peak.
    if (j <= 0 || Math.abs(j - centre) >= REFINE_SEARCH || ac[j]! <= 0) continue;
    const peak = j + vertex(ac[j - 1]!, ac[j]!, ac[j + 1]!);
    num += k * peak;
    den += k * k;
  }
  if (den === 0) return coarse;
  const period = num / den;
  return Math.abs(period - coarse) < 1 ? period : coarse;
}

/** Triangular smoothing of the autocorrelation around a lag (symmetric at zero). */
const SMOOTH = [1, 2, 3, 2, 1];
function smoothAt(ac: Float64Array, acMax: number, x: number): number {
  let s = 0;
  for (let j = 0; j < SMOOTH.length; j++) s += SMOOTH[j]! * acAt(ac, acMax, Math.abs(x + j - 2));
  return s;
}

/**
 * How alike the envelope is to itself one period later (and two), each as a correlation of the overlapping part.
 * Smoothed over a few hops: a hit quantised to a hop earlier or later is still the same hit. A groove that repeats
 * by the half bar or the bar rather than by the beat (a syncopated kick) is as steady: two or four periods later
 * count on their own once the envelope holds them (BAR_SPAN).
 */
function periodicity(ac: Float64Array, acMax: number, n: number, period: number): number {
  const energy = smoothAt(ac, acMax, 0);
  if (!(energy > 0)) return 0;
  const r = (k: number): number => (smoothAt(ac, acMax, k * period) / energy) * (n / (n - k * period));
  let sum = 0;
  let count = 0;
  for (let k = 1; k <= 2 && k * period + 2 < acMax && k * period < n; k++) {
    sum += r(k);
    count++;
  }
  let best = count > 0 ? sum / count : 0;
  for (const k of BAR_MULTIPLES) if (k * period + 2 < acMax && k * period <= BAR_SPAN * n) best = Math.max(best, r(k));
  return Math.min(1, Math.max(0, best));
}

/**
 * The beat period (hops) of an envelope with its mean removed (`z`, `n` values), searched between `minLag` and
 * `maxLag` hops, preferring the `previous` pick while it still fits; `ac` is scratch space.
 */
export function pickPeriod(
  z: Float64Array,
  n: number,
  minLag: number,
  maxLag: number,
  ac: Float64Array,
  previous: number | null = null,
): PeriodPick {
  const acMax = Math.min(n - 1, ac.length - 1, Math.ceil(Math.max(COMB_MULTIPLES * maxLag, REFINE_SPAN * n)) + REFINE_SEARCH + 1);
  autocorrelate(z, n, acMax, ac);
  const coarse = combPeak(ac, acMax, n, minLag, maxLag, previous);
  const period = refine(ac, acMax, n, coarse.lag);
  const sure = Math.min(1, Math.max(0, (1 - coarse.rival) / AMBIGUITY));
  return { period, confidence: periodicity(ac, acMax, n, period) * sure, previousFit: coarse.previousFit, unchecked: coarse.unchecked };
}
