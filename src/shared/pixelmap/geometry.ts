// Where each fixture pixel samples the program: its centre in normalised coordinates (origin top-left) and, for area
// sampling, the half-size of the box it stands for. The render stage draws one texel per pixel from these, in
// fixture order then pixel (wiring) order, the order the sender reads the samples back in.
import type { Fixture, MatrixGeometry } from './types.js';
import type { Static } from 'typebox';

type Matrix = Static<typeof MatrixGeometry>;

/** Floats per pixel in samplePoints: u, v, du, dv. */
export const POINT_FLOATS = 4;

export function pixelCount(f: Fixture): number {
  const g = f.geometry;
  switch (g.kind) {
    case 'strip':
      return g.pixels;
    case 'matrix':
      return g.cols * g.rows;
    case 'pixel':
      return 1;
  }
}

export const totalPixels = (fixtures: readonly Fixture[]): number => fixtures.reduce((n, f) => n + pixelCount(f), 0);

/** The column and row of wiring position `k` of a matrix, after its start corner, direction and serpentine. */
export function matrixCell(g: Matrix, k: number): { col: number; row: number } {
  const byColumns = g.order === 'columns';
  const lineLength = byColumns ? g.rows : g.cols;
  const line = Math.floor(k / lineLength);
  let along = k % lineLength;
  // Serpentine: every second line runs back, as the data wire snakes through the panel.
  if (g.serpentine && line % 2 === 1) along = lineLength - 1 - along;
  let col = byColumns ? line : along;
  let row = byColumns ? along : line;
  if (g.start === 'top-right' || g.start === 'bottom-right') col = g.cols - 1 - col;
  if (g.start === 'bottom-left' || g.start === 'bottom-right') row = g.rows - 1 - row;
  return { col, row };
}

/** 4 floats per pixel (u, v, du, dv) over all fixtures in order; du = dv = 0 for point sampling. */
export function samplePoints(fixtures: readonly Fixture[]): Float32Array {
  const out = new Float32Array(totalPixels(fixtures) * POINT_FLOATS);
  let at = 0;
  const put = (u: number, v: number, du: number, dv: number): void => {
    out[at++] = u;
    out[at++] = v;
    out[at++] = du;
    out[at++] = dv;
  };
  for (const f of fixtures) {
    const area = f.sampling === 'area';
    const g = f.geometry;
    if (g.kind === 'pixel') {
      // A lone pixel stands for no area of its own: it samples its point either way.
      put(g.x, g.y, 0, 0);
    } else if (g.kind === 'strip') {
      const n = g.pixels;
      const dx = n > 1 ? (g.x2 - g.x1) / (n - 1) : 0;
      const dy = n > 1 ? (g.y2 - g.y1) / (n - 1) : 0;
      // Half the spacing along the line, and the same across it.
      const half = area ? Math.hypot(dx, dy) / 2 : 0;
      for (let i = 0; i < n; i++) put(g.x1 + dx * i, g.y1 + dy * i, half, half);
    } else {
      const cw = g.w / g.cols;
      const ch = g.h / g.rows;
      for (let k = 0; k < g.cols * g.rows; k++) {
        const { col, row } = matrixCell(g, k);
        put(g.x + (col + 0.5) * cw, g.y + (row + 0.5) * ch, area ? cw / 2 : 0, area ? ch / 2 : 0);
      }
    }
  }
  return out;
}
