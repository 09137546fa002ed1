// The fixture form's draft: every field as typed (numbers as text, so a half-typed value is not rewritten), made
// from a fixture to edit it, and turned into the request body. Ranges are the server's to check: it names the field.
import type { Fixture, FixtureBody, Geometry } from './pixelmap-api';

export type Kind = Geometry['kind'];
type Matrix = Extract<Geometry, { kind: 'matrix' }>;

export interface Draft {
  name: string;
  kind: Kind;
  /** The kind's number fields by key (`x1`, `cols`, …). */
  g: Record<string, string>;
  serpentine: boolean;
  start: Matrix['start'];
  order: NonNullable<Matrix['order']>;
  protocol: Fixture['protocol'];
  destination: string;
  universe: string;
  address: string;
  colorOrder: Fixture['colorOrder'];
  gamma: string;
  brightness: string;
  sampling: Fixture['sampling'];
}

/** Each kind's number fields with their labels, and what a new one starts at (on the middle of the program). */
export const GEOMETRY: Record<Kind, Array<[key: string, label: string, start: string]>> = {
  strip: [
    ['x1', 'Start x', '0.1'],
    ['y1', 'Start y', '0.5'],
    ['x2', 'End x', '0.9'],
    ['y2', 'End y', '0.5'],
    ['pixels', 'Pixels', '30'],
  ],
  matrix: [
    ['x', 'Left', '0.25'],
    ['y', 'Top', '0.25'],
    ['w', 'Width', '0.5'],
    ['h', 'Height', '0.5'],
    ['cols', 'Columns', '8'],
    ['rows', 'Rows', '8'],
  ],
  pixel: [
    ['x', 'x', '0.5'],
    ['y', 'y', '0.5'],
  ],
};

export const startOf = (kind: Kind): Record<string, string> => Object.fromEntries(GEOMETRY[kind].map(([k, , v]) => [k, v]));

export function newDraft(destination: string): Draft {
  return {
    name: '',
    kind: 'strip',
    g: startOf('strip'),
    serpentine: true,
    start: 'top-left',
    order: 'rows',
    protocol: 'artnet',
    destination,
    universe: '0',
    address: '1',
    colorOrder: 'RGB',
    gamma: '1',
    brightness: '1',
    sampling: 'point',
  };
}

export function draftOf(f: Fixture): Draft {
  const g = f.geometry;
  const numbers = Object.fromEntries(GEOMETRY[g.kind].map(([k]) => [k, String((g as Record<string, unknown>)[k])]));
  const m = g.kind === 'matrix' ? g : null;
  return {
    name: f.name,
    kind: g.kind,
    g: numbers,
    serpentine: m?.serpentine ?? true,
    start: m?.start ?? 'top-left',
    order: m?.order ?? 'rows',
    protocol: f.protocol,
    destination: f.destination,
    universe: String(f.universe),
    address: String(f.address),
    colorOrder: f.colorOrder,
    gamma: String(f.gamma),
    brightness: String(f.brightness),
    sampling: f.sampling,
  };
}

/** Text as a number; an empty field is NaN, which JSON sends as null and the server refuses by name. */
const num = (s: string | undefined): number => (s === undefined || s.trim() === '' ? Number.NaN : Number(s));

function geometryOf(d: Draft): Geometry {
  const n = (k: string) => num(d.g[k]);
  if (d.kind === 'strip') return { kind: 'strip', x1: n('x1'), y1: n('y1'), x2: n('x2'), y2: n('y2'), pixels: n('pixels') };
  if (d.kind === 'pixel') return { kind: 'pixel', x: n('x'), y: n('y') };
  const { serpentine, start, order } = d;
  return { kind: 'matrix', x: n('x'), y: n('y'), w: n('w'), h: n('h'), cols: n('cols'), rows: n('rows'), serpentine, start, order };
}

export function bodyOf(d: Draft): FixtureBody {
  return {
    name: d.name.trim(),
    geometry: geometryOf(d),
    protocol: d.protocol,
    destination: d.destination,
    universe: num(d.universe),
    address: num(d.address),
    colorOrder: d.colorOrder,
    gamma: num(d.gamma),
    brightness: num(d.brightness),
    sampling: d.sampling,
  };
}
