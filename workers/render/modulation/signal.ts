// One modulator's signal for the frame: the value 0..1 of its kind, and the signed signal m it applies (see
// move.ts for the polarities); an audio modulator's is scaled by its gate, so silence leaves the set value.
// Frozen modulators repeat their last value.
import { divisionBeats, type Modulator } from '../../../src/shared/modulation.js';
import { newState, type ModContext, type ModState } from './context.js';
import { audioSignal, beatSignal } from './envelopes.js';
import { advance, cyclesOf, lfoShape } from './lfo.js';
import { polar } from './move.js';
import { stepsSignal } from './steps.js';

export function stateFor(key: string, mod: Modulator): ModState {
  const rate = mod.kind === 'lfo' || mod.kind === 'steps' ? mod.rate : 0;
  return newState(key, typeof rate === 'string' ? (divisionBeats(rate) ?? 1) : 0);
}

/** The signed signal m of `mod` at this frame. */
export function signal(mod: Modulator, st: ModState, ctx: ModContext, frozen: boolean): number {
  if (!frozen) st.u = unipolar(mod, st, ctx);
  const m = polar(mod.polarity, st.u);
  return mod.kind === 'audio' ? m * st.gate : m;
}

function unipolar(mod: Modulator, st: ModState, ctx: ModContext): number {
  switch (mod.kind) {
    case 'lfo':
      advance(mod.rate, st, ctx);
      return lfoShape(mod.shape, cyclesOf(mod.rate, st, ctx, mod.phase ?? 0), mod.width ?? 0.5, st.seed);
    case 'steps':
      advance(mod.rate, st, ctx);
      return stepsSignal(mod, cyclesOf(mod.rate, st, ctx, 0));
    case 'audio':
      return audioSignal(mod, st, ctx);
    case 'beat':
      return beatSignal(mod, st, ctx);
  }
}
