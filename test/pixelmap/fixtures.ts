// Fixture definitions for the pixel-mapping tests: defaults that any case overrides, one geometry per builder.
import type { Fixture } from '../../src/shared/pixelmap/types.js';

type Rest = Partial<Omit<Fixture, 'geometry'>>;

const base = (id: string, rest: Rest): Omit<Fixture, 'geometry'> => ({
  id,
  name: id,
  protocol: 'artnet',
  destination: '127.0.0.1',
  universe: 0,
  address: 1,
  colorOrder: 'RGB',
  gamma: 1,
  brightness: 1,
  sampling: 'point',
  ...rest,
});

export const strip = (id: string, line: { x1: number; y1: number; x2: number; y2: number; pixels: number }, rest: Rest = {}): Fixture => ({
  ...base(id, rest),
  geometry: { kind: 'strip', ...line },
});

export const matrix = (
  id: string,
  m: Omit<Extract<Fixture['geometry'], { kind: 'matrix' }>, 'kind' | 'serpentine' | 'start'> &
    Partial<{ serpentine: boolean; start: 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right' }>,
  rest: Rest = {},
): Fixture => ({ ...base(id, rest), geometry: { kind: 'matrix', serpentine: false, start: 'top-left', ...m } });

export const pixel = (id: string, x: number, y: number, rest: Rest = {}): Fixture => ({
  ...base(id, rest),
  geometry: { kind: 'pixel', x, y },
});
