// The tempo clock as a SharedArrayBuffer block: the audio worker writes it (tracker, tap, manual BPM, resync,
// nudge), any thread reads it under a seqlock and computes the beat position at its own instant, so the render
// worker's BEAT_* values belong to the frame's due time and no message crosses threads per beat.
//
// The clock is linear between writes: beat(t) = refBeat + (t - refTime) * bpm / 60000. Beat 0 is the first beat of a
// bar; a writer changing the tempo re-anchors refTime/refBeat at the current position first, so the beat position
// never jumps unless a resync or nudge asks for it.

const MAGIC = 0x76_6a_64_54; // "vjdT"
const HEADER_INTS = 8;
const H_MAGIC = 0;
const H_SEQ = 1;
const H_BEATS_PER_BAR = 2;
const H_SOURCE = 3;
const F_COUNT = 7;
const F_BPM = 0;
const F_REF_TIME = 1;
const F_REF_BEAT = 2;
const F_CONFIDENCE = 3;
const F_RANGE_MIN = 4;
const F_RANGE_MAX = 5;
const F_OFFSET_MS = 6;

export const TEMPO_SOURCES = ['auto', 'tap', 'manual'] as const;
export type TempoSource = (typeof TEMPO_SOURCES)[number];

export interface TempoClock {
  bpm: number;
  /** Epoch milliseconds (see clockNow) at which the beat position was `refBeat`. */
  refTime: number;
  refBeat: number;
  beatsPerBar: number;
  source: TempoSource;
  /** 0..1: how sure the tracker is (1 for tap and manual). */
  confidence: number;
  range: { min: number; max: number };
  /** config/state audio.offsetMs: readers look at the analysis and the clock this much later than a frame's due time. */
  offsetMs: number;
}

export interface BeatPosition {
  /** Beats since beat 0, fractional. */
  beats: number;
  /** Whole beats since beat 0 (BEAT_COUNT). */
  beatCount: number;
  /** 0..1 within the beat (BEAT_PHASE). */
  phase: number;
  /** Whole bars since beat 0. */
  bar: number;
  /** 1-based beat within the bar. */
  beatInBar: number;
  /** 0..1 within the bar (BAR_PHASE). */
  barPhase: number;
}

/** The one time base of the clock in every thread: epoch milliseconds with sub-millisecond resolution. */
export function clockNow(): number {
  return performance.timeOrigin + performance.now();
}

/** The beat position of `clock` at epoch-ms instant `t`. */
export function beatAt(clock: TempoClock, t: number): BeatPosition {
  const beats = clock.refBeat + ((t - clock.refTime) * clock.bpm) / 60_000;
  const beatCount = Math.floor(beats);
  const perBar = Math.max(1, clock.beatsPerBar);
  const bars = beats / perBar;
  const bar = Math.floor(bars);
  return {
    beats,
    beatCount,
    phase: beats - beatCount,
    bar,
    beatInBar: beatCount - bar * perBar + 1,
    barPhase: bars - bar,
  };
}

const READ_TRIES = 64;

export function createTempoBlock(initial: TempoClock): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(HEADER_INTS * 4 + F_COUNT * 8);
  Atomics.store(new Int32Array(sab, 0, HEADER_INTS), H_MAGIC, MAGIC);
  new TempoBlockWriter(sab).write(initial);
  return sab;
}

function views(sab: SharedArrayBuffer): { h: Int32Array; f: Float64Array } {
  const h = new Int32Array(sab, 0, HEADER_INTS);
  if (Atomics.load(h, H_MAGIC) !== MAGIC) throw new TypeError('not a tempo block');
  return { h, f: new Float64Array(sab, HEADER_INTS * 4, F_COUNT) };
}

/** After a writer died mid-write (a terminated worker), an odd sequence would hold readers off: make it even. */
export function releaseTempoBlock(sab: SharedArrayBuffer): void {
  const { h } = views(sab);
  if (Atomics.load(h, H_SEQ) % 2 !== 0) Atomics.add(h, H_SEQ, 1);
}

export class TempoBlockWriter {
  private readonly h: Int32Array;
  private readonly f: Float64Array;

  constructor(sab: SharedArrayBuffer) {
    ({ h: this.h, f: this.f } = views(sab));
  }

  write(c: TempoClock): void {
    Atomics.add(this.h, H_SEQ, 1);
    this.f[F_BPM] = c.bpm;
    this.f[F_REF_TIME] = c.refTime;
    this.f[F_REF_BEAT] = c.refBeat;
    this.f[F_CONFIDENCE] = c.confidence;
    this.f[F_RANGE_MIN] = c.range.min;
    this.f[F_RANGE_MAX] = c.range.max;
    this.f[F_OFFSET_MS] = c.offsetMs;
    Atomics.store(this.h, H_BEATS_PER_BAR, c.beatsPerBar);
    Atomics.store(this.h, H_SOURCE, TEMPO_SOURCES.indexOf(c.source));
    Atomics.add(this.h, H_SEQ, 1);
  }
}

export class TempoBlockReader {
  private readonly h: Int32Array;
  private readonly f: Float64Array;
  /** The last consistent read: returned again when the writer holds the block for longer than a few retries. */
  private last: TempoClock | null = null;

  constructor(sab: SharedArrayBuffer) {
    ({ h: this.h, f: this.f } = views(sab));
  }

  read(): TempoClock {
    for (let i = 0; i < READ_TRIES; i++) {
      const before = Atomics.load(this.h, H_SEQ);
      if (before % 2 !== 0) continue;
      const c: TempoClock = {
        bpm: this.f[F_BPM]!,
        refTime: this.f[F_REF_TIME]!,
        refBeat: this.f[F_REF_BEAT]!,
        beatsPerBar: Atomics.load(this.h, H_BEATS_PER_BAR),
        source: TEMPO_SOURCES[Atomics.load(this.h, H_SOURCE)] ?? 'auto',
        confidence: this.f[F_CONFIDENCE]!,
        range: { min: this.f[F_RANGE_MIN]!, max: this.f[F_RANGE_MAX]! },
        offsetMs: this.f[F_OFFSET_MS]!,
      };
      if (Atomics.load(this.h, H_SEQ) === before) {
        this.last = c;
        return c;
      }
    }
    if (this.last) return this.last;
    throw new Error('tempo block busy');
  }
}
