// MIDI clock in: a beat's worth of ticks gives the tempo, sent on only when it moved by half a BPM or more, so a
// steady clock makes one request, not one per beat.
import { TEMPO_LIMITS } from '../limits.js';

const TICKS_PER_BEAT = 24;
/** Smaller moves are clock jitter, not a tempo change. */
const MIN_CHANGE_BPM = 0.5;

export class MidiClock {
  private ticks: number[] = [];
  /** The tempo last taken from the clock; null before the first whole beat. */
  bpm: number | null = null;

  /** A transport start: the next beat starts counting afresh. */
  restart(): void {
    this.ticks = [];
  }

  /** One tick; the new tempo when a beat completed with a changed one, else null. */
  tick(now = performance.now()): number | null {
    this.ticks.push(now);
    if (this.ticks.length <= TICKS_PER_BEAT) return null;
    const span = this.ticks[TICKS_PER_BEAT]! - this.ticks[0]!;
    this.ticks = [this.ticks[TICKS_PER_BEAT]!];
    if (span <= 0) return null;
    const bpm = Math.round((60_000 / span) * 10) / 10;
    if (bpm < TEMPO_LIMITS.bpmMin || bpm > TEMPO_LIMITS.bpmMax) return null;
    if (this.bpm !== null && Math.abs(bpm - this.bpm) < MIN_CHANGE_BPM) return null;
    this.bpm = bpm;
    return bpm;
  }
}
