// The output map's pure parts: the corner-pin's projective map and its inverse, the mesh's triangles, the soft
// edge's curve and the refusals, each against values worked out by hand.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  blendLevel,
  invert3,
  isIdentityMap,
  MESH_SPLIT,
  meshVertices,
  outputMapProblem,
  project,
  squareToQuad,
} from '../../src/shared/output-map.js';

const near = (a: number[], b: number[], what: string) =>
  assert.ok(
    a.every((v, i) => Math.abs(v - b[i]!) < 1e-9),
    `${what}: ${a} want ${b}`,
  );

test('the corner-pin takes the unit square corners onto the four points, and its inverse back', () => {
  const corners: Array<[number, number]> = [
    [0.2, 0.1],
    [0.85, 0.2],
    [0.9, 0.9],
    [0.1, 0.8],
  ];
  const m = squareToQuad(corners);
  const unit: Array<[number, number]> = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ];
  unit.forEach(([u, v], i) => near(project(m, u, v), corners[i]!, `corner ${i}`));
  const inv = invert3(m);
  corners.forEach(([x, y], i) => near(project(inv, x, y), unit[i]!, `back ${i}`));
  // A rectangle is an affine case: the centre stays the centre.
  near(
    project(
      squareToQuad([
        [0.25, 0.25],
        [0.75, 0.25],
        [0.75, 0.75],
        [0.25, 0.75],
      ]),
      0.5,
      0.5,
    ),
    [0.5, 0.5],
    'centre',
  );
  // A true keystone is projective: the square's centre lands where the diagonals cross, not at the corners' mean.
  const key = squareToQuad([
    [0.4, 0],
    [0.6, 0],
    [1, 1],
    [0, 1],
  ]);
  const [cx, cy] = project(key, 0.5, 0.5);
  near([cx], [0.5], 'keystone centre x');
  // Diagonals (0.4, 0)→(1, 1) and (0.6, 0)→(0, 1) cross at y = 1/6.
  near([cy], [1 / 6], 'keystone centre y');
});

test('a mesh is drawn as split cells whose vertices follow the points bilinearly', () => {
  const points = [
    [0, 0],
    [1, 0],
    [0, 1],
    [0.5, 0.5],
  ];
  const v = meshVertices({ cols: 1, rows: 1, points: points as Array<[number, number]> });
  assert.is(v.length, MESH_SPLIT * MESH_SPLIT * 6 * 4);
  // The first triangle starts at the top-left point, slice (0, 0).
  near(Array.from(v.subarray(0, 4)), [0, 0, 0, 0], 'first vertex');
  // Somewhere inside: position = bilinear of the points at the slice point.
  for (let i = 0; i < v.length; i += 4) {
    const [x, y, u, w] = Array.from(v.subarray(i, i + 4));
    const bx = (0 * (1 - u!) + 1 * u!) * (1 - w!) + (0 * (1 - u!) + 0.5 * u!) * w!;
    const by = (0 * (1 - u!) + 0 * u!) * (1 - w!) + (1 * (1 - u!) + 0.5 * u!) * w!;
    near([x!, y!], [bx, by], `vertex ${i / 4}`);
  }
});

test('the soft edge is 0 at the edge, 1 past the ramp, and two mirrored ramps add up to full light', () => {
  assert.is(blendLevel(0, 2.2), 0);
  assert.is(blendLevel(1, 2.2), 1);
  assert.is(blendLevel(2, 2.2), 1);
  for (const t of [0.1, 0.25, 0.5, 0.8]) {
    const light = blendLevel(t, 2.2) ** 2.2 + blendLevel(1 - t, 2.2) ** 2.2;
    assert.ok(Math.abs(light - 1) < 1e-9, `light at ${t}: ${light}`);
  }
  near([blendLevel(0.25, 2)], [Math.sqrt(0.125)], 'quarter way at gamma 2');
});

test('refusals name the field; an empty or full-frame map changes nothing', () => {
  const square: Array<[number, number]> = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ];
  assert.is(outputMapProblem({ corners: square }), null);
  assert.is(outputMapProblem({ corners: [square[0]!, square[2]!, square[1]!, square[3]!] })?.field, 'corners');
  assert.is(outputMapProblem({ corners: [square[0]!, square[1]!, [2, 0], square[3]!] })?.field, 'corners', 'three in a line');
  assert.is(outputMapProblem({ corners: [...square].reverse() }), null, 'a mirrored pin (rear projection) is allowed');
  assert.is(outputMapProblem({ mesh: { cols: 2, rows: 1, points: square } })?.field, 'mesh.points');
  assert.is(outputMapProblem({ slice: { x: 0.5, y: 0, w: 0.6, h: 1 } })?.field, 'slice');
  assert.is(outputMapProblem({ blend: { top: 0.5, bottom: 0.5 } }), null);
  assert.is(outputMapProblem({ blend: { top: 0.5, bottom: 0.51 } })?.field, 'blend');
  assert.ok(isIdentityMap({}));
  assert.ok(isIdentityMap({ slice: { x: 0, y: 0, w: 1, h: 1 }, blend: { gamma: 2 } }));
  assert.ok(isIdentityMap({ corners: square }), 'corners on the output corners');
  assert.not.ok(isIdentityMap({ testCard: true }));
  assert.not.ok(isIdentityMap({ blend: { left: 0.1 } }));
});

test.run();
