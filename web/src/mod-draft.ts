// The modulation editor's fields and how they map to and from a modulator's JSON (rates as a beat division with
// its feel, or Hz; steps typed as a list).
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

/** The editor's fields; a modulator is built from them on apply. */
export interface Draft {
  kind: Kind;
  shape: (typeof SHAPES)[number];
  /** A beat division (`1/4`), or `hz` for a rate in Hz. */
  division: string;
  feel: string;
  hz: number;
  source: (typeof SOURCES)[number];
  every: number;
  /** Steps as typed (normalised positions). */
  steps: string;
  amount: number;
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
    steps: '0, 0.5, 1, 0.5',
    amount: 0.5,
  };
  if (!m) return d;
  d.kind = m.kind;
  d.amount = m.amount;
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
  if (d.kind === 'audio') return { kind: 'audio', source: d.source, amount: d.amount };
  if (d.kind === 'beat') return { kind: 'beat', every: d.every, amount: d.amount };
  const rate = d.division === 'hz' ? d.hz : `${d.division}${d.feel}`;
  if (d.kind === 'steps') return { kind: 'steps', values: stepsOf(d.steps), rate, amount: d.amount };
  return { kind: 'lfo', shape: d.shape, rate, amount: d.amount };
}
