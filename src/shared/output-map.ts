// An output's map: which part of the program it shows (slice), where that lands on the output (a corner-pin or a
// bilinear mesh), soft edges for overlapping projectors and a test card. Coordinates are shares of the picture,
// origin top-left. Read by the routes (schema, refusals) and by the render worker (the corner-pin's inverse).
import Type, { type Static } from 'typebox';
import { OUTPUT_MAP_LIMITS as L } from '../limits.js';

const Share = Type.Number({ minimum: 0, maximum: 1 });
const Point = Type.Tuple([
  Type.Number({ minimum: L.point.min, maximum: L.point.max }),
  Type.Number({ minimum: L.point.min, maximum: L.point.max }),
]);
const Width = Type.Number({ minimum: L.blendWidth.min, maximum: L.blendWidth.max });

export const OutputMapSchema = Type.Object(
  {
    slice: Type.Optional(
      Type.Object(
        { x: Share, y: Share, w: Type.Number({ exclusiveMinimum: 0, maximum: 1 }), h: Type.Number({ exclusiveMinimum: 0, maximum: 1 }) },
        { additionalProperties: false, description: 'The part of the program shown (default: all of it)' },
      ),
    ),
    corners: Type.Optional(
      Type.Array(Point, {
        minItems: 4,
        maxItems: 4,
        description: "Where the slice's top-left, top-right, bottom-right and bottom-left land",
      }),
    ),
    mesh: Type.Optional(
      Type.Object(
        {
          cols: Type.Integer({ minimum: L.meshCells.min, maximum: L.meshCells.max }),
          rows: Type.Integer({ minimum: L.meshCells.min, maximum: L.meshCells.max }),
          points: Type.Array(Point, {
            maxItems: (L.meshCells.max + 1) ** 2,
            description: '(cols + 1) × (rows + 1) points, row by row from the top-left',
          }),
        },
        { additionalProperties: false },
      ),
    ),
    blend: Type.Optional(
      Type.Object(
        {
          left: Type.Optional(Width),
          right: Type.Optional(Width),
          top: Type.Optional(Width),
          bottom: Type.Optional(Width),
          gamma: Type.Optional(Type.Number({ minimum: L.blendGamma.min, maximum: L.blendGamma.max })),
        },
        { additionalProperties: false, description: 'Soft edges: a ramp over this share of the slice on each side' },
      ),
    ),
    testCard: Type.Optional(Type.Boolean({ description: 'A grid, circles and edge markers instead of the program' })),
  },
  { additionalProperties: false },
);
export type OutputMap = Static<typeof OutputMapSchema>;

/** The soft edge's gamma when the map names none (a typical projector's). */
export const BLEND_GAMMA = L.blendGamma.default;

/** 3×3 matrix, row-major. */
export type Mat3 = [number, number, number, number, number, number, number, number, number];

/** The first rule a map breaks, naming its field; null when it can be drawn. */
export function outputMapProblem(m: OutputMap): { field: string; message: string } | null {
  const s = m.slice;
  if (s && (s.x + s.w > 1 + 1e-9 || s.y + s.h > 1 + 1e-9))
    return { field: 'slice', message: 'the slice must lie inside the program (x + w ≤ 1, y + h ≤ 1)' };
  if (m.corners && m.mesh) return { field: 'mesh', message: 'a map has corners or a mesh, not both' };
  if (m.corners && !convex(m.corners as Array<[number, number]>))
    return {
      field: 'corners',
      message: 'the four corners must form a convex quadrilateral, in order top-left, top-right, bottom-right, bottom-left',
    };
  if (m.mesh && m.mesh.points.length !== (m.mesh.cols + 1) * (m.mesh.rows + 1))
    return { field: 'mesh.points', message: `a ${m.mesh.cols}×${m.mesh.rows} mesh has ${(m.mesh.cols + 1) * (m.mesh.rows + 1)} points` };
  const b = m.blend;
  if (b && (b.left ?? 0) + (b.right ?? 0) > 1) return { field: 'blend', message: 'left and right soft edges overlap' };
  if (b && (b.top ?? 0) + (b.bottom ?? 0) > 1) return { field: 'blend', message: 'top and bottom soft edges overlap' };
  return null;
}

/** True when the map changes nothing (the output shows the program as it is). */
export function isIdentityMap(m: OutputMap): boolean {
  const s = m.slice;
  const b = m.blend;
  const full = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ];
  return (
    (!s || (s.x === 0 && s.y === 0 && s.w === 1 && s.h === 1)) &&
    (!m.corners || m.corners.every((p, i) => p[0] === full[i]![0] && p[1] === full[i]![1])) &&
    !m.mesh &&
    !m.testCard &&
    (!b || !(b.left || b.right || b.top || b.bottom))
  );
}

/** Strictly convex, every turn the same way (a self-crossing or folded quad has no sensible inside). */
function convex(p: Array<[number, number]>): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const [a, b, c] = [p[i]!, p[(i + 1) % 4]!, p[(i + 2) % 4]!];
    const cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
    if (Math.abs(cross) < 1e-9) return false;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

/** The projective map of the unit square onto the quad (0,0)→p0, (1,0)→p1, (1,1)→p2, (0,1)→p3. */
export function squareToQuad(p: ReadonlyArray<readonly [number, number]>): Mat3 {
  const [x0, y0] = p[0]!;
  const [x1, y1] = p[1]!;
  const [x2, y2] = p[2]!;
  const [x3, y3] = p[3]!;
  const sx = x0 - x1 + x2 - x3;
  const sy = y0 - y1 + y2 - y3;
  const [dx1, dx2, dy1, dy2] = [x1 - x2, x3 - x2, y1 - y2, y3 - y2];
  const den = dx1 * dy2 - dx2 * dy1;
  const g = (sx * dy2 - dx2 * sy) / den;
  const h = (dx1 * sy - sx * dy1) / den;
  return [x1 - x0 + g * x1, x3 - x0 + h * x3, x0, y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h, 1];
}

export function invert3(m: Mat3): Mat3 {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  const k = 1 / det;
  return [
    A * k,
    -(b * i - c * h) * k,
    (b * f - c * e) * k,
    B * k,
    (a * i - c * g) * k,
    -(a * f - c * d) * k,
    C * k,
    -(a * h - b * g) * k,
    (a * e - b * d) * k,
  ];
}

/** Applies a projective matrix to a point. */
export function project(m: Mat3, x: number, y: number): [number, number] {
  const w = m[6] * x + m[7] * y + m[8];
  return [(m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w];
}

/** A soft edge's level at `t` (0 at the picture's edge, 1 where the ramp ends): light that sums to 1 with the
 * neighbour's mirrored ramp, raised to 1/gamma so the projector's own curve gives that light. */
export function blendLevel(t: number, gamma: number): number {
  const u = Math.min(1, Math.max(0, t));
  const light = u < 0.5 ? 2 * u * u : 1 - 2 * (1 - u) * (1 - u);
  return light ** (1 / gamma);
}

/** Mesh cells are split this many times a side, so the bilinear warp is drawn smoothly with triangles. */
export const MESH_SPLIT = 8;

/** A mesh as triangles: per vertex [x, y] on the output and [u, v] in the slice, bilinear within each cell. */
export function meshVertices(mesh: NonNullable<OutputMap['mesh']>): Float32Array {
  const { cols, rows, points } = mesh;
  const at = (c: number, r: number) => points[r * (cols + 1) + c]!;
  const [nx, ny] = [cols * MESH_SPLIT, rows * MESH_SPLIT];
  const vertex = (gx: number, gy: number): [number, number, number, number] => {
    const c = Math.min(cols - 1, Math.floor(gx / MESH_SPLIT));
    const r = Math.min(rows - 1, Math.floor(gy / MESH_SPLIT));
    const fx = gx / MESH_SPLIT - c;
    const fy = gy / MESH_SPLIT - r;
    const [p00, p10, p01, p11] = [at(c, r), at(c + 1, r), at(c, r + 1), at(c + 1, r + 1)];
    const mix = (i: 0 | 1) => (p00[i] * (1 - fx) + p10[i] * fx) * (1 - fy) + (p01[i] * (1 - fx) + p11[i] * fx) * fy;
    return [mix(0), mix(1), gx / nx, gy / ny];
  };
  const out = new Float32Array(nx * ny * 6 * 4);
  let o = 0;
  for (let gy = 0; gy < ny; gy++)
    for (let gx = 0; gx < nx; gx++)
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 0],
        [1, 1],
        [0, 1],
      ] as const) {
        out.set(vertex(gx + dx, gy + dy), o);
        o += 4;
      }
  return out;
}
