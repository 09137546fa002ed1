// The modulation editor's fields and how they map to and from a modulator's JSON (rates as a beat division with
// its feel, or Hz; steps typed as a list). A new modulator moves by a share of the headroom, so it never clamps;
// an audio or beat one moves upward from the set value, so a quiet room leaves the set value.
import type { Modulator } from './mod-api';

export const SHAPES = ['sine', 'triangle', 'saw', 'ramp', 'square', 'random', 'smooth'] as const;
export const DIVISIONS = ['1/64', '1/32', '1/16', '1/8', '1/4', '1/2', '1', '2', '4', '8', '16', '32'] as const;
export const FEELS = [
  ['', 'straight'],
  ['d', 'dotted'],
  ['t', 'triplet'],
] as const;
export const SOURCES = ['level', 'bass', 'lowMid', 'highMid', 'high', 'onset'] as const;
export type Kind = Modulator['kind'];
export const POLARITIES = [
  ['bipolar', 'Around the value'],
  ['up', 'Up from the value'],
  ['down', 'Down from the value'],
] as const;
export type Polarity = (typeof POLARITIES)[number][0];
export const AMOUNTS_OF = [
  ['headroom', 'Headroom (no clamping)'],
  ['range', 'Whole range (may clamp)'],
] as const;
export type AmountOf = (typeof AMOUNTS_OF)[number][0];

/** The polarity a new modulator of `kind` starts with: envelopes (audio, beat) rise from the set value. */
export const defaultPolarity = (kind: Kind): Polarity => (kind === 'audio' || kind === 'beat' ? 'up' : 'bipolar');

/** The editor's fields; a modulator is built from them on apply. */
export interface Draft {
  kind: Kind;
  shape: (typeof SHAPES)[number];
  /** A beat division (`1/4`), or `hz` for a rate in Hz. */
  division: string;
  feel: string;
  hz: number;
  source: (typeof SOURCES)[number];
  /** Beat: beats between triggers, unless it fires on each audio onset (`every: "onset"`). */
  every: number;
  onset: boolean;
  /** Steps as typed (normalised positions). */
  steps: string;
  amount: number;
  polarity: Polarity;
  amountOf: AmountOf;
  /** Audio: band gain, threshold, attack and release (ms); beat: decay (ms). */
  gain: number;
  threshold: number;
  attackMs: number;
  releaseMs: number;
  decayMs: number;
  /** The modulator the draft was made from: fields the editor does not show are kept from it. */
  from: Modulator | null;
}

export function draftOf(m: Modulator | null | undefined): Draft {
  const d: Draft = {
    kind: 'lfo',
    shape: 'sine',
    division: '1/4',
    feel: '',
    hz: 1,
    source: 'level',
    every: 1,
    onset: false,
    steps: '0, 0.5, 1, 0.5',
    amount: 0.5,
    polarity: 'bipolar',
    amountOf: 'headroom',
    gain: 1,
    threshold: 0,
    attackMs: 10,
    releaseMs: 200,
    decayMs: 250,
    from: null,
  };
  if (!m) return d;
  d.from = m;
  d.kind = m.kind;
  d.amount = m.amount;
  // What the server reads for absent fields: around the value, a share of the whole range.
  d.polarity = m.polarity === 'up' || m.polarity === 'unipolar' ? 'up' : m.polarity === 'down' ? 'down' : 'bipolar';
  d.amountOf = m.amountOf ?? 'range';
  if (typeof m.gain === 'number') d.gain = m.gain;
  if (typeof m.threshold === 'number') d.threshold = m.threshold;
  if (typeof m.attackMs === 'number') d.attackMs = m.attackMs;
  if (typeof m.releaseMs === 'number') d.releaseMs = m.releaseMs;
  if (typeof m.decayMs === 'number') d.decayMs = m.decayMs;
  if (typeof m.rate === 'number') {
    d.division = 'hz';
    d.hz = m.rate;
  } else if (typeof m.rate === 'string') {
    d.feel = /[dt]$/.test(m.rate) ? m.rate.slice(-1) : '';
    d.division = d.feel ? m.rate.slice(0, -1) : m.rate;
  }
  const shape = SHAPES.find((s) => s === m.shape);
  if (shape) d.shape = shape;
  const source = SOURCES.find((s) => s === m.source);
  if (source) d.source = source;
  if (typeof m.every === 'number') d.every = m.every;
  d.onset = m.every === 'onset';
  if (m.values) d.steps = m.values.join(', ');
  return d;
}

/** The step list as typed: numbers separated by commas or spaces; the server checks count and range. */
const stepsOf = (text: string): number[] =>
  text
    .split(/[\s,]+/)
    .filter((t) => t !== '')
    .map(Number);

export function modulatorOf(d: Draft): Modulator {
  const kept = d.from?.kind === d.kind ? d.from : {};
  const common = { amount: d.amount, polarity: d.polarity, amountOf: d.amountOf };
  if (d.kind === 'audio') {
    const { gain, threshold, attackMs, releaseMs } = d;
    return { ...kept, kind: 'audio', source: d.source, ...common, gain, threshold, attackMs, releaseMs };
  }
  // A beat's attack is the one the server had (or its default): the editor shows the decay.
  if (d.kind === 'beat') return { ...kept, kind: 'beat', every: d.onset ? 'onset' : d.every, ...common, decayMs: d.decayMs };
  const rate = d.division === 'hz' ? d.hz : `${d.division}${d.feel}`;
  if (d.kind === 'steps') return { ...kept, kind: 'steps', values: stepsOf(d.steps), rate, ...common };
  return { ...kept, kind: 'lfo', shape: d.shape, rate, ...common };
}
