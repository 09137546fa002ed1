// Audio and beat envelopes: an audio modulator follows a band (gain, threshold) with attack and release in ms, and
// its gate closes over the release while the input is silent or stopped, so it then leaves the set value alone; a
// beat modulator fires every N beats of the clock (timed from the beat position itself, so it lands on the beat
// whatever the frame rate) or on each onset, rising over attackMs and decaying over decayMs.
import { SILENCE_FLOOR, type AudioModulator, type BeatModulator } from '../../../src/shared/modulation.js';
import type { ModContext, ModState } from './context.js';

const SOURCE_INDEX = { level: 0, bass: 1, lowMid: 2, highMid: 3, high: 4, onset: 5 } as const;

/** The band's envelope 0..1; also moves the gate (`st.gate`) the signal is scaled by. */
export function audioSignal(mod: AudioModulator, st: ModState, ctx: ModContext): number {
  const attackMs = mod.attackMs ?? 10;
  const releaseMs = mod.releaseMs ?? 200;
  const heard = ctx.audioFresh && (ctx.audio[SOURCE_INDEX.level] ?? 0) >= SILENCE_FLOOR;
  const thr = mod.threshold ?? 0;
  let x = heard ? (ctx.audio[SOURCE_INDEX[mod.source]] ?? 0) * (mod.gain ?? 1) : 0;
  x = x <= thr ? 0 : thr >= 1 ? 1 : (x - thr) / (1 - thr);
  if (!(x > 0)) x = 0;
  if (x > 1) x = 1;
  const ms = x > st.env ? attackMs : releaseMs;
  const k = ms <= 0 ? 1 : 1 - Math.exp(-ctx.dtMs / ms);
  st.env += (x - st.env) * k;
  // Linear, so the set value is reached within the release however the envelope decays.
  if (heard) st.gate = attackMs <= 0 ? 1 : Math.min(1, st.gate + ctx.dtMs / attackMs);
  else st.gate = releaseMs <= 0 ? 0 : Math.max(0, st.gate - ctx.dtMs / releaseMs);
  return st.env;
}

export function beatSignal(mod: BeatModulator, st: ModState, ctx: ModContext): number {
  let since: number;
  if (mod.every === 'onset') {
    if (ctx.onsetFresh) st.lastOnset = ctx.due;
    since = ctx.due - st.lastOnset;
  } else {
    const every = mod.every ?? 1;
    if (!Number.isFinite(ctx.beats) || !(ctx.bpm > 0)) return 0;
    const p = ctx.beats / every;
    since = (p - Math.floor(p)) * every * (60_000 / ctx.bpm);
  }
  return envelope(since, mod.attackMs ?? 0, mod.decayMs ?? 250, mod.curve ?? 'exp');
}

/** The envelope `since` ms after its trigger. */
export function envelope(since: number, attackMs: number, decayMs: number, curve: 'linear' | 'exp'): number {
  if (!(since >= 0)) return 0;
  if (since < attackMs) return since / attackMs;
  const d = (since - attackMs) / Math.max(1, decayMs);
  if (d >= 1) return 0;
  return curve === 'linear' ? 1 - d : Math.exp(-5 * d);
}
