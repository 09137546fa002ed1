// The tempo clock driven offline as the audio worker drives it: drum tracks switched in sequence, each hop analysed
// and pushed to the beat tracker at its sample-clock instant, each due estimate handed to the clock, faster than real
// time. The modules are passed in, so a bench can run an earlier build's beside this one's.
import { median } from './beat-patterns.js';
import { drums, GROOVE_OF } from './drums.js';
import type { Analyser } from '../../workers/audio/analysis.js';
import type { BeatTracker } from '../../workers/audio/beat-tracker.js';
import type { Clock } from '../../workers/audio/clock.js';
import type { createTempoBlock } from '../../src/shared/tempo-block.js';
import { TEMPO_LIMITS } from '../../src/limits.js';

export const SAMPLE_RATE = 48_000;
export const HOP = 512;

export interface TrackerModules {
  Analyser: typeof Analyser;
  BeatTracker: typeof BeatTracker;
  Clock: typeof Clock;
  createTempoBlock: typeof createTempoBlock;
}

/** How the tracks follow one another: `cut` on one input (the music changes), `select` another input each time. */
export type ChangeMode = 'cut' | 'select';

export interface Segment {
  bpm: number;
  /** The BPM the clock should reach: the track's tempo folded into the search range. */
  target: number;
  /** Seconds from the change until the clock's BPM is within 1 BPM and stays there to the segment's end. */
  lockS: number | null;
  /** Seconds from the change until the confidence first reaches 0.6 with the BPM within 1 BPM. */
  confidentS: number | null;
  /**
   * The median confidence reported while the BPM was more than 1 BPM off, from a second after the change on (no
   * tracker can know sooner); 0 when it never was.
   */
  offConfidence: number;
  /** The highest confidence reported while the BPM was off, from two seconds after the change on; 0 when never. */
  lateOffConfidence: number;
  /** The median confidence over the segment's second half. */
  lockedConfidence: number;
  /** Clock BPM minus target over the segment's second half. */
  lockedErrors: number[];
}

/** A range that holds all three tempos, and also the double of 90 and the half of 174 (the tracker must not take them). */
export const BENCH_RANGE = { min: 80, max: 180 };

/** A tempo folded by octaves into the range (the tracker's answer for a track outside it). */
export function fold(bpm: number, range: { min: number; max: number }): number {
  let b = bpm;
  while (b > range.max) b /= 2;
  while (b < range.min) b *= 2;
  return b;
}

/** Deterministic pseudo-random offsets, so each run starts every track at the same place in its bar. */
function offsets(n: number): number[] {
  let s = 12_345;
  return Array.from({ length: n }, () => {
    s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0;
    return s / 2 ** 32;
  });
}

/**
 * Plays `tempos` one after another, `seconds` each, through the modules: every hop is analysed and pushed to the
 * tracker at its sample-clock instant; each estimate the tracker says is due is handed to the clock (source auto),
 * whose BPM and confidence are what GET /tempo would answer. Returns one segment per track.
 */
export function play(m: TrackerModules, tempos: number[], seconds: number, mode: ChangeMode, range = BENCH_RANGE): Segment[] {
  const hopsPerSecond = SAMPLE_RATE / HOP;
  const hopMs = 1000 / hopsPerSecond;
  const t0 = 1_700_000_000_000;
  const block = m.createTempoBlock({
    bpm: 120,
    refTime: t0,
    refBeat: 0,
    beatsPerBar: 4,
    source: 'auto',
    confidence: 0,
    range,
    offsetMs: 0,
  });
  const limits = { bpmMin: TEMPO_LIMITS.bpmMin, bpmMax: TEMPO_LIMITS.bpmMax, tapResetMs: TEMPO_LIMITS.tapResetMs, tapIntervals: 8 };
  const clock = new m.Clock(
    block,
    { bpm: 120, refTime: t0, refBeat: 0, beatsPerBar: 4, source: 'auto', confidence: 0, range, offsetMs: 0 },
    { limits, manualBpm: null },
  );
  const analyser = new m.Analyser(SAMPLE_RATE, HOP);
  const tracker = new m.BeatTracker(hopsPerSecond);
  tracker.setRange(range.min, range.max);
  const starts = offsets(tempos.length);
  const out: Segment[] = [];
  let hop = 0;
  tempos.forEach((bpm, k) => {
    const barSamples = ((60 / bpm) * 4 * SAMPLE_RATE) | 0;
    const pcm = drums(GROOVE_OF[bpm] ?? 'house', bpm, seconds, SAMPLE_RATE, Math.round(starts[k]! * barSamples));
    const target = fold(bpm, range);
    const changeAt = t0 + hop * hopMs;
    if (mode === 'select' && k > 0) {
      analyser.reset();
      tracker.reset();
      clock.follow(null, changeAt);
    }
    const readings: Array<{ s: number; bpm: number; confidence: number }> = [];
    for (let i = 0; (i + 1) * HOP <= pcm.length; i++, hop++) {
      const r = analyser.analyse(pcm.subarray(i * HOP, (i + 1) * HOP), null);
      const now = t0 + (hop + 1) * hopMs;
      if (!tracker.push(r.strength, now)) continue;
      clock.follow(tracker.estimate(), now);
      readings.push({ s: (now - changeAt) / 1000, bpm: clock.state.bpm, confidence: clock.state.confidence });
    }
    let lock: number | null = null;
    let confident: number | null = null;
    const off: number[] = [];
    let lateOff = 0;
    for (const r of readings) {
      const on = Math.abs(r.bpm - target) <= 1;
      if (!on) lock = null;
      else if (lock === null) lock = r.s;
      if (on && confident === null && r.confidence >= 0.6) confident = r.s;
      if (!on && r.s >= 1) off.push(r.confidence);
      if (!on && r.s >= 2) lateOff = Math.max(lateOff, r.confidence);
    }
    const late = readings.filter((r) => r.s >= seconds / 2);
    out.push({
      bpm,
      target,
      lockS: lock,
      confidentS: confident,
      offConfidence: off.length > 0 ? median(off) : 0,
      lateOffConfidence: lateOff,
      lockedConfidence: median(late.map((r) => r.confidence)),
      lockedErrors: late.map((r) => r.bpm - target),
    });
  });
  return out;
}
