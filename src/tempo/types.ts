// What the rest of vjd (routes, events, OSC, actions, the page) sees of the tempo clock: src/tempo/service.ts
// implements it over the audio worker, which owns the clock (src/shared/tempo-block.ts).
import type { TempoSource } from '../shared/tempo-block.js';

export type { TempoSource };

/** GET /tempo. */
export interface TempoView {
  bpm: number;
  source: TempoSource;
  /** 0..1 (1 for tap and manual). */
  confidence: number;
  /** Whole beats since beat 1 of the first bar (BEAT_COUNT). */
  beat: number;
  /** Whole bars since then. */
  bar: number;
  /** 0..1 within the current beat. */
  phase: number;
  beatsPerBar: number;
  range: { min: number; max: number };
  /** Beats since beat 1 of the first bar, fractional, at the instant `at`. */
  position: number;
  /** Epoch ms (the server's clock) at which the other fields held: a page extrapolates the beat from here. */
  at: number;
}

/** The `tempo` event, sent on every beat. */
export interface BeatEvent {
  beat: number;
  bar: number;
  bpm: number;
  confidence: number;
  source: TempoSource;
  /** As in TempoView: the fractional beat position at the server instant `at`. */
  position: number;
  at: number;
}

export interface Tempo {
  view(): TempoView;
  /** One tap: from the second tap on BPM is the median of recent intervals; the source becomes `tap`. */
  tap(): Promise<TempoView>;
  /** Manual BPM (20-300); the source becomes `manual`. */
  setBpm(bpm: number): Promise<TempoView>;
  /** This instant is beat 1 of a bar. */
  resync(): Promise<TempoView>;
  /** Shifts the phase by `ms` (positive: beats land later). */
  nudge(ms: number): Promise<TempoView>;
  multiply(factor: 0.5 | 2): Promise<TempoView>;
  setSource(source: TempoSource): Promise<TempoView>;
  setRange(min: number, max: number): Promise<TempoView>;
  /** Calls `listener` on every beat (from a timer at the clock's next beat instant); returns the unsubscribe. */
  onBeat(listener: (b: BeatEvent) => void): () => void;
  /** Takes a show leader's clock (tempo and beat grid on the shared wall clock); the source becomes `manual`. */
  lock(shared: SharedBeat): Promise<TempoView>;
  /** The clock as the tempo block holds it now. */
  clock(): { bpm: number; refTime: number; refBeat: number; beatsPerBar: number; source: TempoSource };
}

/** A box's beat grid as the show shares it: beat(t) = refBeat + (t − refTime) × bpm / 60000, t in epoch ms. */
export interface SharedBeat {
  bpm: number;
  refTime: number;
  refBeat: number;
  beatsPerBar: number;
}
