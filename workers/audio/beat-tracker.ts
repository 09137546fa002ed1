// Real-time beat tracker of one audio input: every hop's onset strength goes into a ring; a few times a second the
// tempo (within the configured range) and the phase of its beat grid are estimated from the latest seconds.
import { OnsetEnvelope } from './beat-envelope.js';
import { beatOffset } from './beat-phase.js';
import { pickPeriod } from './beat-tempo.js';

/** Seconds of envelope the estimate looks at once a tempo holds: long enough for a fine period. */
const WINDOW_S = 6;
/** No estimate before this many seconds of input. */
const MIN_HISTORY_S = 2;
/**
 * The latest seconds are checked against the tempo held: when they keep asking for another period, the music
 * changed, and the history before them is dropped instead of waiting for the window to forget it.
 */
const RECENT_S = 2.5;
/** A recent period further than this share from the held one is another tempo ... */
const CHANGE_RATIO = 0.03;
/**
 * ... when the held period's comb scores below this share of the recent best: a syncopated groove heard for less
 * than a bar often prefers another period, but the held one still scores well above this.
 */
const CHANGE_FIT = 0.2;
/** Estimates in a row that must hear the change before the history is cut. */
const CHANGE_ESTIMATES = 2;
/** Seconds of history kept at a change: mostly the new music. */
const KEEP_S = 2;
/** Confidence grows with the seconds of history behind the tempo, full from this many; the pick holds from then on. */
const FULL_CONFIDENCE_S = 4;
/** While the recent music asks for another tempo, the confidence in the held one is scaled by this. */
const DOUBT = 0.5;
/**
 * The most confidence a tempo gets while one of its slower relatives cannot yet be weighed by its bar: enough for
 * the clock to follow it, not enough to show it as sure.
 */
const UNCHECKED_CONFIDENCE = 0.5;
/** Estimates per second (the caller asks when `push` says one is due). */
const ESTIMATES_PER_S = 4;
/** A mean onset strength per hop below this over the latest seconds is silence. */
const SILENCE = 1e-4;
const SILENCE_S = 1.5;
/**
 * The strength of a hit peaks this many hops after the hit is heard: the hit needs part of the two-hop analysis
 * window before its rise is at its largest.
 */
const ONSET_DELAY_HOPS = 0.9;

/** Hop times further than this from the counted time start the count anew (a stall, a restarted input). */
const REANCHOR_MS = 250;
/** Share of a late arrival the counted time follows per hop; an early one is followed at once. */
const LATE_PULL = 0.002;

export const DEFAULT_RANGE = { min: 75, max: 150 } as const;

export interface BeatEstimate {
  bpm: number;
  /** 0..1: low in silence and on material without a steady pulse. */
  confidence: number;
  /** Epoch ms of a beat on the tracked grid (the latest one). */
  beatTime: number;
}

export class BeatTracker {
  private readonly envelope: OnsetEnvelope;
  private readonly rectified: Float64Array;
  private readonly raw: Float64Array;
  private readonly ac: Float64Array;
  /** The recent part of the envelope without its mean (the change check's input). */
  private readonly recentZ: Float64Array;
  private readonly recentHops: number;
  /** Estimates in a row whose recent music did not fit the held period. */
  private suspectCount = 0;
  private readonly hopMs: number;
  private range: { min: number; max: number } = { ...DEFAULT_RANGE };
  private sinceEstimate = 0;
  private readonly estimateEvery: number;
  private last: BeatEstimate | null = null;
  /** The period (hops) of the last estimate made on sound, kept while it still fits. */
  private period: number | null = null;
  /** Epoch ms of the latest hop as counted at the nominal hop rate (null before the first). */
  private counted: number | null = null;

  constructor(private readonly hopsPerSecond: number) {
    const capacity = Math.round(WINDOW_S * hopsPerSecond);
    this.envelope = new OnsetEnvelope(capacity, hopsPerSecond);
    this.rectified = new Float64Array(capacity);
    this.raw = new Float64Array(capacity);
    this.ac = new Float64Array(capacity);
    this.recentHops = Math.round(RECENT_S * hopsPerSecond);
    this.recentZ = new Float64Array(this.recentHops);
    this.hopMs = 1000 / hopsPerSecond;
    this.estimateEvery = Math.max(1, Math.round(hopsPerSecond / ESTIMATES_PER_S));
  }

  /** The tempo range searched (BPM); an inverted or non-finite range is ignored. */
  setRange(min: number, max: number): void {
    if (!(Number.isFinite(min) && Number.isFinite(max) && min > 0 && max > min)) return;
    this.range = { min, max };
  }

  /** One hop's onset strength and the epoch-ms time of its last sample; true when an estimate is due. */
  push(strength: number, hopTime: number): boolean {
    this.envelope.push(strength, this.countTime(hopTime));
    this.sinceEstimate++;
    if (this.sinceEstimate < this.estimateEvery) return false;
    this.sinceEstimate = 0;
    return true;
  }

  /** The current tempo and beat grid, or null before enough input has been heard. */
  estimate(): BeatEstimate | null {
    if (this.envelope.seconds < MIN_HISTORY_S) return null;
    const d = this.rectified;
    this.envelope.read(d, this.raw);
    // Silence is judged on the latest hops only: the window still holds the music that stopped.
    const recent = Math.min(this.envelope.length, Math.round(SILENCE_S * this.hopsPerSecond));
    let quiet = 0;
    for (let i = this.envelope.length - recent; i < this.envelope.length; i++) quiet += this.raw[i]!;
    if (quiet / recent < SILENCE) return this.silent();
    const perMinute = this.hopsPerSecond * 60;
    const minLag = perMinute / this.range.max;
    const maxLag = perMinute / this.range.min;
    const doubt = this.changed(minLag, maxLag);
    // A change cut the history: what is left is read anew.
    if (doubt === null) this.envelope.read(d, this.raw);
    const n = this.envelope.length;
    // The autocorrelation wants the envelope without its mean; the phase wants the hits as they are.
    const z = this.raw;
    const mean = meanOf(d, 0, n);
    for (let i = 0; i < n; i++) z[i] = d[i]! - mean;
    // A short history is searched afresh each time: holding on to its first answer would keep a wrong one.
    const held = this.envelope.seconds >= FULL_CONFIDENCE_S ? this.period : null;
    const pick = pickPeriod(z, n, minLag, maxLag, this.ac, held);
    this.period = pick.period;
    const back = beatOffset(d, n, pick.period);
    const heard = Math.min(1, this.envelope.seconds / FULL_CONFIDENCE_S);
    const bpm = perMinute / pick.period;
    // A tempo the previous estimate did not hear is not sure yet: one estimate can flip to a relative of the beat.
    const fresh = this.last !== null && Math.abs(bpm / this.last.bpm - 1) > CHANGE_RATIO;
    const sure = pick.confidence * heard * (doubt || fresh ? DOUBT : 1);
    this.last = {
      bpm,
      confidence: pick.unchecked ? Math.min(UNCHECKED_CONFIDENCE, sure) : sure,
      beatTime: this.envelope.lastTime - (back + ONSET_DELAY_HOPS) * this.hopMs,
    };
    return this.last;
  }

  /**
   * Checks the latest seconds of the envelope (read into `rectified`) against the period held. True: they ask for
   * another period (doubt); false: they agree; null: they asked for the same other period often enough that the
   * history before them was dropped and the held period replaced by theirs.
   */
  private changed(minLag: number, maxLag: number): boolean | null {
    const n = this.envelope.length;
    const m = this.recentHops;
    if (this.period === null || n <= m) return false;
    const d = this.rectified;
    const mean = meanOf(d, n - m, n);
    for (let i = 0; i < m; i++) this.recentZ[i] = d[n - m + i]! - mean;
    const pick = pickPeriod(this.recentZ, m, minLag, maxLag, this.ac, this.period);
    const recent = pick.period;
    if (Math.abs(recent / this.period - 1) <= CHANGE_RATIO || pick.previousFit >= CHANGE_FIT) {
      this.suspectCount = 0;
      return false;
    }
    this.suspectCount++;
    if (this.suspectCount < CHANGE_ESTIMATES) return true;
    // The recent pick on its own is too short to trust for the new period: the kept history is searched afresh.
    this.envelope.keep(Math.round(KEEP_S * this.hopsPerSecond));
    this.period = null;
    this.suspectCount = 0;
    return null;
  }

  /**
   * Hops reach the worker in bursts (pipe chunks), each stamped when it is analysed: the time is counted at the
   * nominal hop rate instead and kept on the earliest arrivals, which are the least delayed.
   */
  private countTime(hopTime: number): number {
    const predicted = this.counted === null ? hopTime : this.counted + this.hopMs;
    const late = hopTime - predicted;
    if (this.counted === null || Math.abs(late) > REANCHOR_MS || late < 0) this.counted = hopTime;
    else this.counted = predicted + late * LATE_PULL;
    return this.counted;
  }

  /** Silence: the last tempo stands with no confidence (the clock free-wheels on it). */
  private silent(): BeatEstimate | null {
    if (!this.last) return null;
    this.last = { ...this.last, confidence: 0 };
    return this.last;
  }

  /** Forgets the input heard so far (another input starts from nothing). */
  reset(): void {
    this.envelope.clear();
    this.sinceEstimate = 0;
    this.last = null;
    this.period = null;
    this.counted = null;
    this.suspectCount = 0;
  }
}

function meanOf(d: Float64Array, from: number, to: number): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += d[i]!;
  return to > from ? sum / (to - from) : 0;
}
