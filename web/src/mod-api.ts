// The modulation routes as the page calls them: a modulator's JSON, an input's view with its modulator and live
// value, and the three calls (an effect input, a generator input, freeze), typed after the interface specification.
import { postLoose, type Answer } from './api';
import type { Input } from './panels/controls';

interface Common {
  amount: number;
  polarity?: 'bipolar' | 'unipolar';
}
export type Modulator = Common &
  (
    | { kind: 'lfo'; shape: string; rate: number | string; phase?: number; width?: number }
    | { kind: 'audio'; source: string; gain?: number; threshold?: number; attackMs?: number; releaseMs?: number }
    | { kind: 'beat'; every?: number | 'onset'; attackMs?: number; decayMs?: number; curve?: 'linear' | 'exp' }
    | { kind: 'steps'; values: number[]; rate: number | string; glide?: number }
  );

/** An input as GET /effects/{index} shows it, with its modulator (null: none) and the applied value of a recent frame. */
export type ModInput = Input & { modulator?: Modulator | null; live?: unknown };

/** What every modulate route answers: the input's new view. */
export interface ModView {
  input: string;
  component?: string;
  value: unknown;
  modulator: Modulator | null;
  live: unknown;
}

export const modulateEffect = (index: number, input: string, modulator: Modulator | null) =>
  postLoose('/effects/modulate', { index, input, modulator }) as Promise<Answer<ModView>>;

export const modulateSource = (input: string, modulator: Modulator | null) =>
  postLoose('/sources/modulate', { input, modulator }) as Promise<Answer<ModView>>;

export const freezeModulation = (enabled: boolean) => postLoose('/modulation/freeze', { enabled }) as Promise<Answer<{ frozen: boolean }>>;
