// Input descriptions and value rules for effect and generator parameters, shared by every control path (HTTP now,
// OSC and WebSocket later) and by the render worker, so "what a value means" is decided in one place. Pure.
import { isSamplerInput, type IsfInput } from './isf-types.js';

/** How an input is shown to clients (`GET /effects/available`, `GET /effects/{index}`, generator params). */
export interface InputDescription {
  name: string;
  label: string;
  type: IsfInput['type'];
  /** float/long: number; bool/event: boolean; color: [r,g,b,a] 0..1; point2D: [x,y]; absent on image and audio inputs. */
  default?: number | boolean | number[];
  min?: number | number[];
  max?: number | number[];
  values?: number[];
  labels?: string[];
}

/** `value` is absent where `default` is (image and audio inputs). */
export type InputState = InputDescription & { value?: number | boolean | number[] };

/** Why a value was refused: `details` name the input and what it expects (or which inputs exist). */
export interface ValueProblem {
  message: string;
  details: { input: string; expected?: string; available?: string[] };
}

export type ApplyResult = { ok: true; values: Record<string, unknown> } | { ok: false; problem: ValueProblem };

/** Inputs a client can set (image inputs are described but fed by the chain, not by values). */
export const settable = (i: IsfInput): boolean => !isSamplerInput(i);

export function describeInput(i: IsfInput): InputDescription {
  const d: InputDescription = { name: i.name, label: i.label ?? i.name, type: i.type };
  if (settable(i) && i.default !== undefined) d.default = i.default;
  if (i.min !== undefined) d.min = i.min;
  if (i.max !== undefined) d.max = i.max;
  if (i.values !== undefined) d.values = i.values;
  if (i.labels !== undefined) d.labels = i.labels;
  return d;
}

export function describeInputs(inputs: readonly IsfInput[]): InputDescription[] {
  return inputs.map(describeInput);
}

/** Descriptions plus the value each input has now (stored values are read leniently; junk shows the default). */
export function inputStates(inputs: readonly IsfInput[], stored: Readonly<Record<string, unknown>>): InputState[] {
  return inputs.map((i) => {
    const d: InputState = describeInput(i);
    const v = currentValue(i, stored[i.name]);
    if (v !== null) d.value = v;
    return d;
  });
}

/** The value an input has: the stored one when it is valid for the input, else the default. */
export function currentValue(i: IsfInput, stored: unknown): number | boolean | number[] | null {
  if (!settable(i)) return null;
  if (stored === undefined) return (i.default ?? null) as number | boolean | number[] | null;
  const r = normalize(i, stored, undefined);
  return 'value' in r ? r.value : ((i.default ?? null) as number | boolean | number[] | null);
}

/**
 * Checks every value of a request against the inputs and returns the merged stored values (inputs not named keep
 * theirs). All or nothing: one unknown name or invalid value and nothing is applied. Floats are clamped to MIN..MAX;
 * `{"delta": n}` moves a float (or steps a long through its values) from its current value.
 */
export function applyValues(
  inputs: readonly IsfInput[],
  stored: Readonly<Record<string, unknown>>,
  request: Readonly<Record<string, unknown>>,
): ApplyResult {
  const next: Record<string, unknown> = { ...stored };
  for (const [name, raw] of Object.entries(request)) {
    const input = inputs.find((i) => i.name === name);
    if (!input) {
      return {
        ok: false,
        problem: {
          message: `no input is named "${clip(name)}"`,
          details: { input: clip(name), available: inputs.filter(settable).map((i) => i.name) },
        },
      };
    }
    const r = normalize(input, raw, currentValue(input, stored[name]));
    if ('expected' in r) {
      return {
        ok: false,
        problem: { message: `input "${name}" (${input.type}) expects ${r.expected}`, details: { input: name, expected: r.expected } },
      };
    }
    next[name] = r.value;
  }
  return { ok: true, values: next };
}

/** Stored values with the named inputs (all when `names` is absent) back at their defaults. */
export function resetValues(
  inputs: readonly IsfInput[],
  stored: Readonly<Record<string, unknown>>,
  names?: readonly string[],
): ApplyResult {
  if (names === undefined) return { ok: true, values: {} };
  const next: Record<string, unknown> = { ...stored };
  for (const name of names) {
    const input = inputs.find((i) => i.name === name && settable(i));
    if (!input) {
      return {
        ok: false,
        problem: {
          message: `no input is named "${clip(name)}"`,
          details: { input: clip(name), available: inputs.filter(settable).map((i) => i.name) },
        },
      };
    }
    delete next[name];
  }
  return { ok: true, values: next };
}

/** Events fire for one frame: the inputs whose stored value is a fired event (the renderer clears them after it). */
export function firedEvents(inputs: readonly IsfInput[], stored: Readonly<Record<string, unknown>>): string[] {
  return inputs.filter((i) => i.type === 'event' && stored[i.name] === true).map((i) => i.name);
}

/** Stored values as they persist: a fired event is not saved (it belongs to the frame it fired in). */
export function persistable(inputs: readonly IsfInput[], stored: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(stored)) {
    if (inputs.find((i) => i.name === k)?.type !== 'event') out[k] = v;
  }
  return out;
}

type Normalized = { value: number | boolean | number[] } | { expected: string };

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const clampTo = (v: number, lo: unknown, hi: unknown): number =>
  Math.min(finite(hi) ? hi : Infinity, Math.max(finite(lo) ? lo : -Infinity, v));
const isDelta = (v: unknown): v is { delta: unknown } =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && 'delta' in v;

/** `current` is the input's value now (for deltas); undefined when reading stored values (no deltas there). */
function normalize(i: IsfInput, v: unknown, current: number | boolean | number[] | null | undefined): Normalized {
  switch (i.type) {
    case 'float': {
      const range = rangeText(i);
      if (isDelta(v) && current !== undefined) {
        if (!finite(v.delta)) return { expected: `{"delta": <finite number>}` };
        return { value: clampTo((current as number) + v.delta, i.min, i.max) };
      }
      if (!finite(v)) return { expected: `a finite number${range} or {"delta": n}` };
      return { value: clampTo(v, i.min, i.max) };
    }
    case 'long':
      return normalizeLong(i, v, current);
    case 'bool':
      return typeof v === 'boolean' ? { value: v } : { expected: 'true or false' };
    case 'event':
      // Only a firing makes sense from a client; a stored false (not fired) reads back as false.
      if (v === true) return { value: true };
      if (v === false && current === undefined) return { value: false };
      return { expected: 'true (fires for one frame)' };
    case 'color':
      return normalizeColor(i, v);
    case 'point2D': {
      if (!Array.isArray(v) || v.length !== 2 || !v.every(finite)) return { expected: '[x, y] (two finite numbers)' };
      const lo = i.min as number[] | undefined;
      const hi = i.max as number[] | undefined;
      return { value: v.map((x: number, k) => clampTo(x, lo?.[k], hi?.[k])) };
    }
    default:
      return { expected: 'nothing: image and audio inputs are textures fed by the renderer and cannot be set' };
  }
}

function normalizeLong(i: IsfInput, v: unknown, current: number | boolean | number[] | null | undefined): Normalized {
  const values = i.values;
  if (values) {
    const expected = `one of ${values.join(', ')}${i.labels ? ` or a label (${i.labels.join(', ')})` : ''}, or {"delta": n} to step`;
    if (isDelta(v) && current !== undefined) {
      if (!finite(v.delta) || !Number.isInteger(v.delta)) return { expected: `{"delta": <integer>}` };
      const at = Math.max(0, values.indexOf(current as number));
      return { value: values[Math.min(values.length - 1, Math.max(0, at + v.delta))]! };
    }
    if (finite(v) && values.includes(v)) return { value: v };
    if (typeof v === 'string' && i.labels) {
      const at = i.labels.findIndex((l) => l.trim().toLowerCase() === v.trim().toLowerCase());
      if (at >= 0) return { value: values[at]! };
    }
    return { expected };
  }
  if (isDelta(v) && current !== undefined) {
    if (!finite(v.delta) || !Number.isInteger(v.delta)) return { expected: `{"delta": <integer>}` };
    return { value: clampTo((current as number) + v.delta, i.min, i.max) };
  }
  if (!finite(v) || !Number.isInteger(v)) return { expected: `an integer${rangeText(i)} or {"delta": n}` };
  return { value: clampTo(v, i.min, i.max) };
}

const HEX = /^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

function normalizeColor(i: IsfInput, v: unknown): Normalized {
  const expected = '"#RRGGBB", "#RRGGBBAA" or [r, g, b, a] with components 0..1';
  let rgba: number[];
  if (typeof v === 'string' && HEX.test(v)) {
    rgba = (v.slice(1).match(/../g) ?? []).map((h) => Math.round((Number.parseInt(h, 16) / 255) * 10000) / 10000);
    if (rgba.length === 3) rgba.push(1);
  } else if (Array.isArray(v) && (v.length === 4 || v.length === 3) && v.every((x) => finite(x) && x >= 0 && x <= 1)) {
    rgba = v.length === 3 ? [...(v as number[]), 1] : [...(v as number[])];
  } else return { expected };
  const lo = i.min as number[] | undefined;
  const hi = i.max as number[] | undefined;
  return { value: rgba.map((x, k) => clampTo(x, lo?.[k], hi?.[k])) };
}

function rangeText(i: IsfInput): string {
  const lo = finite(i.min) ? i.min : undefined;
  const hi = finite(i.max) ? i.max : undefined;
  if (lo !== undefined && hi !== undefined) return ` (clamped to ${lo}..${hi})`;
  if (lo !== undefined) return ` (at least ${lo})`;
  if (hi !== undefined) return ` (at most ${hi})`;
  return '';
}

/** A client's name as quoted back in a problem: long names are cut so an answer stays small. */
export function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
