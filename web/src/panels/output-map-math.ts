// The corner-pin's geometry for the page: the projective map of the unit square onto the four corners, and the CSS
// matrix3d() that puts the (sliced) preview picture exactly on them. The server draws the same map on the GPU; this is
// only the operator's picture of it, so it is written here rather than shared with the render worker.

export type Point = [number, number];
export type Quad = [Point, Point, Point, Point];
/** 3×3, row-major, acting on [x, y, 1]. */
type Mat3 = [number, number, number, number, number, number, number, number, number];

/** The four corners of the whole output: top-left, top-right, bottom-right, bottom-left. */
export const UNIT: Quad = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
];
/** Where a corner may lie, in shares of the output (the server's limit: a picture pinned larger than the screen). */
export const POINT_MIN = -1;
export const POINT_MAX = 2;

export const clampPoint = (v: number): number => Math.min(POINT_MAX, Math.max(POINT_MIN, Math.round(v * 10000) / 10000));

/** (0,0)→q0, (1,0)→q1, (1,1)→q2, (0,1)→q3; null for a degenerate quad (three corners on a line). */
export function squareToQuad(q: Quad): Mat3 | null {
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = q;
  const sx = x0 - x1 + x2 - x3;
  const sy = y0 - y1 + y2 - y3;
  const den = (x1 - x2) * (y3 - y2) - (x3 - x2) * (y1 - y2);
  if (Math.abs(den) < 1e-12) return null;
  // The perspective terms; both 0 when the quad is a parallelogram (an affine map).
  const g = (sx * (y3 - y2) - (x3 - x2) * sy) / den;
  const h = ((x1 - x2) * sy - sx * (y1 - y2)) / den;
  return [x1 - x0 + g * x1, x3 - x0 + h * x3, x0, y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h, 1];
}

function mul(a: Mat3, b: Mat3): Mat3 {
  const r = new Array<number>(9);
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) r[i * 3 + j] = a[i * 3]! * b[j]! + a[i * 3 + 1]! * b[3 + j]! + a[i * 3 + 2]! * b[6 + j]!;
  return r as Mat3;
}

/** Strictly convex with every turn the same way, as the server asks; a folded quad has no sensible picture. */
export function convex(q: Quad): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const [a, b, c] = [q[i]!, q[(i + 1) % 4]!, q[(i + 2) % 4]!];
    const cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
    if (Math.abs(cross) < 1e-9 || (sign !== 0 && Math.sign(cross) !== sign)) return false;
    sign = Math.sign(cross);
  }
  return true;
}

export interface Slice {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * The CSS transform for an element laid out over the whole stage (`w`×`h` px, transform-origin 0 0) showing the
 * program: its `slice` goes to the unit square, which the corner-pin sends to `corners` (shares), scaled to pixels.
 */
export function matrix3d(corners: Quad, slice: Slice, w: number, h: number): string | null {
  const pin = squareToQuad(corners.map(([x, y]) => [x * w, y * h]) as Quad);
  if (!pin) return null;
  const toUnit: Mat3 = [1 / (w * slice.w), 0, -slice.x / slice.w, 0, 1 / (h * slice.h), -slice.y / slice.h, 0, 0, 1];
  const [a, b, c, d, e, f, g, hh, i] = mul(pin, toUnit);
  // matrix3d is column-major 4×4; z passes through untouched.
  return `matrix3d(${[a, d, 0, g, b, e, 0, hh, 0, 0, 1, 0, c, f, 0, i].map((v) => +v.toPrecision(10)).join(',')})`;
}

/** clip-path keeping only the slice of an element that shows the whole program. */
export function sliceClip(s: Slice): string {
  const pc = (v: number): string => `${+(v * 100).toFixed(4)}%`;
  return `inset(${pc(s.y)} ${pc(1 - s.x - s.w)} ${pc(1 - s.y - s.h)} ${pc(s.x)})`;
}
