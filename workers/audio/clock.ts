// The one tempo clock: tap, manual BPM, resync, nudge, half/double and the tracker's estimates change it here, in
// the audio worker, and every change is written into the tempo block that the other threads read.
import { beatAt, type TempoClock, TempoBlockWriter, type TempoSource } from '../../src/shared/tempo-block.js';
import type { TempoCommand, TempoInit } from '../../src/shared/protocol/audio.js';

/** What the beat tracker reports: its tempo, how sure it is (0..1), and an instant (epoch ms) it heard a beat at. */
export interface TempoEstimate {
  bpm: number;
  confidence: number;
  beatTime: number;
}

/** Below this confidence an estimate is not followed: the clock free-wheels at its last tempo. */
export const FOLLOW_MIN_CONFIDENCE = 0.3;
/** Time constant of the glide of the tempo toward a confident estimate. */
const BPM_GLIDE_MS = 500;
/**
 * An estimate further than this share from the clock's tempo is a new tempo, taken at once: a glide would show a
 * tempo between the old and the new one for seconds. Nearer ones glide, so a locked tempo does not wobble.
 */
const JUMP_RATIO = 0.03;
/** Time constant of the glide of the phase toward the estimate's beats. */
const PHASE_GLIDE_MS = 300;
/** The phase correction never exceeds this share of the beats elapsed, so the beat position never runs backwards. */
const PHASE_SLEW = 0.5;
/** How far half/double may move the tracker's answer (it searches its range; this rescales what it finds). */
const AUTO_FACTOR_MIN = 0.25;
const AUTO_FACTOR_MAX = 4;

export class Clock {
  private c: TempoClock;
  private readonly writer: TempoBlockWriter;
  /** The BPM the `manual` source plays (the last one set, or the clock's when none was). */
  private manualBpm: number;
  private lastTap: number | null = null;
  /** Recent tap intervals (ms), oldest first; bounded so any burst of taps costs bounded work. */
  private intervals: number[] = [];
  /** Half/double applied to the tracker's tempo while the source is `auto`. */
  private autoFactor = 1;
  private lastFollow: number | null = null;

  constructor(
    block: SharedArrayBuffer,
    start: TempoClock,
    private readonly init: TempoInit,
  ) {
    this.writer = new TempoBlockWriter(block);
    this.c = { ...start, range: { ...start.range } };
    this.manualBpm = init.manualBpm ?? start.bpm;
    this.publish();
  }

  /** The clock as last written. */
  get state(): Readonly<TempoClock> {
    return this.c;
  }

  /** Applies one command taken at instant `at` (epoch ms, stamped on the main thread when the request arrived). */
  apply(cmd: TempoCommand, at: number): void {
    switch (cmd.op) {
      case 'tap':
        return this.tap(at);
      case 'bpm':
        this.manualBpm = this.clampBpm(cmd.bpm);
        this.c.source = 'manual';
        this.setTempo(this.manualBpm, at, 1);
        return;
      case 'resync': {
        this.anchor(at);
        // Beat 0 of the next bar from here: the beat count never runs backwards.
        const perBar = Math.max(1, this.c.beatsPerBar);
        this.c.refBeat = Math.ceil(this.c.refBeat / perBar) * perBar;
        return this.publish();
      }
      case 'nudge':
        this.anchor(at);
        this.c.refTime += cmd.ms;
        return this.publish();
      case 'multiply':
        return this.multiply(cmd.factor, at);
      case 'source':
        return this.setSource(cmd.source, at);
      case 'range':
        this.c.range = { min: cmd.min, max: cmd.max };
        // A new range asks the tracker anew: an earlier half/double no longer applies.
        this.autoFactor = 1;
        return this.publish();
      case 'offset':
        this.c.offsetMs = cmd.ms;
        return this.publish();
      case 'lock':
        // The leader's grid as it is: boxes with synchronised wall clocks then share every beat instant.
        this.manualBpm = this.clampBpm(cmd.bpm);
        this.c = { ...this.c, source: 'manual', bpm: this.manualBpm, refTime: cmd.refTime, refBeat: cmd.refBeat, confidence: 1 };
        if (Number.isInteger(cmd.beatsPerBar) && cmd.beatsPerBar >= 1) this.c.beatsPerBar = cmd.beatsPerBar;
        return this.publish();
    }
  }

  /**
   * The tracker's estimate at instant `now`, used while the source is `auto`. A confident one takes a new tempo at
   * once and glides a near one toward its BPM, and glides the phase toward its beats (never a jump: the beat position moves on at between half and one
   * and a half times the tempo); null or one below FOLLOW_MIN_CONFIDENCE leaves the clock free-wheeling at its last
   * tempo and phase, reporting the low confidence.
   */
  follow(estimate: TempoEstimate | null, now: number): void {
    if (this.c.source !== 'auto') return;
    const dt = this.lastFollow === null ? 0 : Math.max(0, now - this.lastFollow);
    this.lastFollow = now;
    const usable =
      estimate !== null &&
      Number.isFinite(estimate.bpm) &&
      Number.isFinite(estimate.beatTime) &&
      estimate.bpm > 0 &&
      estimate.confidence >= FOLLOW_MIN_CONFIDENCE;
    const confidence = estimate && Number.isFinite(estimate.confidence) ? Math.min(1, Math.max(0, estimate.confidence)) : 0;
    if (!usable || dt === 0) {
      if (confidence !== this.c.confidence) {
        this.c.confidence = confidence;
        this.publish();
      }
      return;
    }
    this.anchor(now);
    const target = this.clampBpm(estimate.bpm * this.autoFactor);
    if (Math.abs(target / this.c.bpm - 1) > JUMP_RATIO) this.c.bpm = target;
    else this.c.bpm += (target - this.c.bpm) * (1 - Math.exp(-dt / BPM_GLIDE_MS));
    // Where the estimate's beat falls on this clock: its distance to the nearest whole beat is the phase error.
    const at = beatAt(this.c, estimate.beatTime).beats;
    const error = at - Math.round(at);
    const elapsed = (dt * this.c.bpm) / 60_000;
    const step = error * (1 - Math.exp(-dt / PHASE_GLIDE_MS));
    const limit = elapsed * PHASE_SLEW;
    this.c.refBeat -= Math.max(-limit, Math.min(limit, step));
    this.c.confidence = confidence;
    this.publish();
  }

  private tap(at: number): void {
    const last = this.lastTap;
    this.lastTap = at;
    if (last === null || at - last > this.init.limits.tapResetMs || at < last) {
      // A new sequence: this tap sets the phase only; the tempo comes from the next one.
      this.intervals = [];
    } else {
      this.intervals.push(at - last);
      if (this.intervals.length > this.init.limits.tapIntervals) this.intervals.shift();
    }
    this.c.source = 'tap';
    this.c.confidence = 1;
    this.anchor(at);
    if (this.intervals.length > 0) this.c.bpm = this.clampBpm(60_000 / Math.max(1e-3, median(this.intervals)));
    // The tap instant is a beat: the nearest one, so a tap a little early or late does not skip a count.
    this.c.refBeat = Math.round(this.c.refBeat);
    this.publish();
  }

  private multiply(factor: 0.5 | 2, at: number): void {
    if (this.c.source === 'auto') this.autoFactor = Math.min(AUTO_FACTOR_MAX, Math.max(AUTO_FACTOR_MIN, this.autoFactor * factor));
    // The next tap goes on from the new tempo rather than the one tapped.
    this.intervals = this.intervals.map((i) => i / factor);
    const bpm = this.clampBpm(this.c.bpm * factor);
    if (this.c.source === 'manual') this.manualBpm = bpm;
    this.setTempo(bpm, at, this.c.confidence);
  }

  private setSource(source: TempoSource, at: number): void {
    if (source === this.c.source) return;
    this.c.source = source;
    this.lastFollow = null;
    if (source === 'manual') return this.setTempo(this.manualBpm, at, 1);
    if (source === 'auto') {
      this.autoFactor = 1;
      // Free-wheels at the current tempo until the tracker is sure of one.
      this.c.confidence = 0;
    } else {
      this.c.confidence = 1;
      this.lastTap = null;
      this.intervals = [];
    }
    this.publish();
  }

  /** Changes the tempo at `at` without moving the beat position there. */
  private setTempo(bpm: number, at: number, confidence: number): void {
    this.anchor(at);
    this.c.bpm = bpm;
    this.c.confidence = confidence;
    this.publish();
  }

  /** Moves the reference to `at` (the same line, so the beat position does not change). */
  private anchor(at: number): void {
    this.c.refBeat = beatAt(this.c, at).beats;
    this.c.refTime = at;
  }

  private clampBpm(bpm: number): number {
    const { bpmMin, bpmMax } = this.init.limits;
    return Number.isFinite(bpm) ? Math.min(bpmMax, Math.max(bpmMin, bpm)) : this.c.bpm;
  }

  private publish(): void {
    this.writer.write(this.c);
  }
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
