// The modulation routes as the page calls them, typed from the generated description like every other call: a
// modulator's JSON, an input's view with its modulator (per component for point2D and color) and the three calls.
import { call } from './api';
import type { Op, Success } from './api-shapes';
import type { Input } from './panels/controls';

/** What every modulate route answers: the input's new view. */
export type ModView = Success<Op<'POST', '/effects/modulate'>>;

/** One modulator as the routes answer and take it. */
export type Modulator = NonNullable<ModView['modulator']>;

/** An input's modulator as GET /effects/{index} shows it: one, one per component, or none. */
export type InputModulator = Input['modulator'];

const isModulator = (m: unknown): m is Modulator => typeof m === 'object' && m !== null && typeof (m as Modulator).kind === 'string';

/** The modulator of a whole input (`component` absent) or of one component of a point2D or color input. */
export function pickModulator(m: InputModulator, component?: string): Modulator | null {
  if (m === null || m === undefined) return null;
  if (component === undefined) return isModulator(m) ? m : null;
  if (isModulator(m)) return null;
  const one = (m as Record<string, unknown>)[component];
  return isModulator(one) ? one : null;
}

export const modulateEffect = (index: number, input: string, modulator: Modulator | null, component?: string) =>
  call('POST', '/effects/modulate', { body: { index, input, modulator, ...(component ? { component } : {}) } });

export const modulateSource = (input: string, modulator: Modulator | null, component?: string) =>
  call('POST', '/sources/modulate', { body: { input, modulator, ...(component ? { component } : {}) } });

export const freezeModulation = (enabled: boolean) => call('POST', '/modulation/freeze', { body: { enabled } });
