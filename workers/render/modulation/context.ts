// What every modulator of one frame reads: the frame's due instant, the time since the last frame, the beat
// position and tempo of the clock, and the audio analysis at that instant and whether it is current (filled once per
// frame, never allocated).

export interface ModContext {
  /** The frame's due instant, epoch ms (the tempo clock's time base). */
  due: number;
  /** Milliseconds since the previous frame (0 on the first). */
  dtMs: number;
  /** Beats since beat 0 at `due`, fractional; NaN without a clock. */
  beats: number;
  bpm: number;
  /** level, bass, lowMid, highMid, high, onset at `due`, 0..1 (the AudioFrame's values vector). */
  audio: Float32Array;
  /** A new onset arrived since the previous frame. */
  onsetFresh: boolean;
  /** An analysis hop arrived shortly before `due`: false while the feed is stopped, stalled or absent. */
  audioFresh: boolean;
}

/** Per-modulator running state: free-running phase, envelope level, last onset and the signal of the last frame. */
export interface ModState {
  /** Cycles a Hz-rate modulator has run (advanced per frame, held while frozen). */
  cycles: number;
  /** Envelope level of audio modulators, 0..1. */
  env: number;
  /** Due instant of the last onset (beat modulators on onsets); -Infinity before the first. */
  lastOnset: number;
  /** Seed of random shapes, from the modulated input's key: the same key gives the same sequence. */
  seed: number;
  /** Beats per period of a division rate, or 0 for a Hz rate. */
  periodBeats: number;
  /** The unipolar signal (0..1) of the last frame evaluated: what freeze holds. */
  u: number;
  /** How much of an audio modulator's signal applies, 0..1: it closes over the release while the input is silent. */
  gate: number;
}

export function newState(key: string, periodBeats: number): ModState {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return { cycles: 0, env: 0, lastOnset: Number.NEGATIVE_INFINITY, seed: h >>> 0, periodBeats, u: 0, gate: 0 };
}
