// Where fixture pixels sample the program (src/pixelmap/geometry.ts): strips end to end, matrix wiring from each
// start corner, by rows or columns, serpentine or not, and the half-sizes area sampling averages over.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pixelCount, samplePoints, totalPixels } from '../../src/shared/pixelmap/geometry.js';
import { matrix, pixel, strip } from './fixtures.js';

/** The (u, v, du, dv) of pixel `i`, rounded so Float32 storage compares with decimal expectations. */
const at = (points: Float32Array, i: number): number[] => [...points.subarray(i * 4, i * 4 + 4)].map((x) => Math.round(x * 1e5) / 1e5);
const r = (x: number): number => Math.round(x * 1e5) / 1e5;

test('pixel counts: a strip its pixels, a matrix cols × rows, a pixel one', () => {
  const fs = [
    strip('s', { x1: 0, y1: 0, x2: 1, y2: 0, pixels: 7 }),
    matrix('m', { x: 0, y: 0, w: 1, h: 1, cols: 4, rows: 3 }),
    pixel('p', 0.5, 0.5),
  ];
  assert.equal(fs.map(pixelCount), [7, 12, 1]);
  assert.is(totalPixels(fs), 20);
  assert.is(samplePoints(fs).length, 80);
});

test('a strip runs from (x1, y1) to (x2, y2) inclusive; one pixel sits at its start', () => {
  const p = samplePoints([strip('s', { x1: 0.1, y1: 0.5, x2: 0.9, y2: 0.5, pixels: 3 })]);
  assert.equal(
    [at(p, 0), at(p, 1), at(p, 2)],
    [
      [0.1, 0.5, 0, 0],
      [0.5, 0.5, 0, 0],
      [0.9, 0.5, 0, 0],
    ],
  );
  assert.equal(at(samplePoints([strip('s', { x1: 0.2, y1: 0.3, x2: 0.9, y2: 0.9, pixels: 1 })]), 0), [0.2, 0.3, 0, 0]);
  const back = samplePoints([strip('s', { x1: 1, y1: 1, x2: 0, y2: 0, pixels: 5 })]);
  assert.equal(at(back, 1), [0.75, 0.75, 0, 0], 'a strip wired the other way runs backwards');
});

test('area sampling: a strip half its spacing along and across, a matrix half a cell, a lone pixel none', () => {
  const s = samplePoints([strip('s', { x1: 0, y1: 0.5, x2: 0.8, y2: 0.5, pixels: 5 }, { sampling: 'area' })]);
  assert.equal(at(s, 2), [0.4, 0.5, 0.1, 0.1]);
  const diag = samplePoints([strip('d', { x1: 0, y1: 0, x2: 0.3, y2: 0.4, pixels: 2 }, { sampling: 'area' })]);
  assert.equal(at(diag, 0), [0, 0, 0.25, 0.25], 'the spacing is the distance between pixels');
  const m = samplePoints([matrix('m', { x: 0.5, y: 0, w: 0.5, h: 0.2, cols: 4, rows: 2 }, { sampling: 'area' })]);
  assert.equal(at(m, 0), [0.5625, 0.05, 0.0625, 0.05]);
  assert.equal(at(samplePoints([pixel('p', 0.25, 0.75, { sampling: 'area' })]), 0), [0.25, 0.75, 0, 0]);
  assert.equal(at(samplePoints([matrix('m', { x: 0, y: 0, w: 1, h: 1, cols: 2, rows: 2 })]), 0), [0.25, 0.25, 0, 0], 'point: no area');
});

/** Wiring order of a 3 × 2 matrix over the whole program, as (col, row) per position. */
function wiring(opts: Parameters<typeof matrix>[1]): string {
  const p = samplePoints([matrix('m', opts)]);
  const cells: string[] = [];
  for (let k = 0; k < 6; k++) cells.push(`${Math.floor(p[k * 4]! * 3)}${Math.floor(p[k * 4 + 1]! * 2)}`);
  return cells.join(' ');
}

test('matrix wiring: each start corner, rows or columns, serpentine', () => {
  const m = { x: 0, y: 0, w: 1, h: 1, cols: 3, rows: 2 };
  assert.is(wiring({ ...m }), '00 10 20 01 11 21');
  assert.is(wiring({ ...m, serpentine: true }), '00 10 20 21 11 01');
  assert.is(wiring({ ...m, start: 'top-right' }), '20 10 00 21 11 01');
  assert.is(wiring({ ...m, start: 'bottom-left' }), '01 11 21 00 10 20');
  assert.is(wiring({ ...m, start: 'bottom-right', serpentine: true }), '21 11 01 00 10 20');
  assert.is(wiring({ ...m, order: 'columns' }), '00 01 10 11 20 21');
  assert.is(wiring({ ...m, order: 'columns', serpentine: true }), '00 01 11 10 20 21');
  assert.is(wiring({ ...m, order: 'columns', serpentine: true, start: 'bottom-right' }), '21 20 10 11 01 00');
  const p = samplePoints([matrix('m', { x: 0.2, y: 0.4, w: 0.6, h: 0.2, cols: 3, rows: 2 })]);
  assert.equal(at(p, 4), [0.5, r(0.55), 0, 0], 'cell centres inside the placed rectangle');
});

test('fixtures follow each other in order', () => {
  const p = samplePoints([pixel('a', 0.1, 0.1), strip('b', { x1: 0, y1: 1, x2: 1, y2: 1, pixels: 2 }), pixel('c', 0.9, 0.9)]);
  assert.equal([at(p, 0)[0], at(p, 1)[0], at(p, 2)[0], at(p, 3)[0]], [0.1, 0, 1, 0.9]);
});

test.run();
