// Value scaling every desk shares: a fader's 0..1 (an OSC float, a DMX level, a MIDI controller) becomes the value
// an effect input takes, read from the input's type and range as the chain has it now.
import type { OscArg } from './addresses/args.js';

export interface InputInfo {
  name: string;
  type: string;
  min?: number | number[];
  max?: number | number[];
  value?: unknown;
  /** The input's modulator (GET /effects/{index}), null or absent when it has none. */
  modulator?: unknown;
}

/** A button's release on an event input: nothing to fire. */
export const RELEASE = Symbol('release');

/** A fader's 0..1 float spans a float input's MIN..MAX; other arguments are passed on for the route to check. */
export function inputValue(item: unknown, name: string, a: OscArg): unknown | typeof RELEASE {
  const inputs = ((item as { inputs?: InputInfo[] } | null)?.inputs ?? []) as InputInfo[];
  const input = inputs.find((i) => i.name === name);
  const isFloatArg = a.type === 'f' || a.type === 'd';
  if (a.type === 'T') return true;
  if (a.type === 'F') return input?.type === 'event' ? RELEASE : false;
  if (!input) return a.value;
  if (
    input.type === 'float' &&
    isFloatArg &&
    typeof input.min === 'number' &&
    typeof input.max === 'number' &&
    typeof a.value === 'number'
  ) {
    return input.min + a.value * (input.max - input.min);
  }
  if (input.type === 'event' && typeof a.value === 'number') return a.value !== 0 ? true : RELEASE;
  if (input.type === 'bool' && typeof a.value === 'number') return isFloatArg ? a.value >= 0.5 : a.value !== 0;
  if (input.type === 'long' && isFloatArg && typeof a.value === 'number') return Math.round(a.value);
  return a.value;
}
