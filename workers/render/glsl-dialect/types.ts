// GLSL ES 1.00 value types for the dialect rewrite: base and size of a type, operator results, built-in return types.

/** A GLSL type name (`float`, `ivec3`, `mat2`, a struct name; `T[]` for an array of T), or null when unknown. */
export type Ty = string | null;

export type Base = 'float' | 'int' | 'bool';

const VECTOR: Record<string, [Base, number]> = {
  float: ['float', 1],
  int: ['int', 1],
  bool: ['bool', 1],
  vec2: ['float', 2],
  vec3: ['float', 3],
  vec4: ['float', 4],
  ivec2: ['int', 2],
  ivec3: ['int', 3],
  ivec4: ['int', 4],
  bvec2: ['bool', 2],
  bvec3: ['bool', 3],
  bvec4: ['bool', 4],
};
const MATRIX: Record<string, number> = { mat2: 2, mat3: 3, mat4: 4 };

/** Scalar and vector types: their component base and count; null for anything else. */
export function vector(t: Ty): [Base, number] | null {
  return t === null ? null : (VECTOR[t] ?? null);
}

export const matrixSize = (t: Ty): number => (t === null ? 0 : (MATRIX[t] ?? 0));

/** The component base of a scalar, vector or (float) matrix type. */
export function baseOf(t: Ty): Base | null {
  if (matrixSize(t) > 0) return 'float';
  return vector(t)?.[0] ?? null;
}

/** The type with `base` components and the same count (`ivec3` → `vec3`). */
export function withBase(t: Ty, base: Base): Ty {
  const v = vector(t);
  if (!v) return null;
  if (v[1] === 1) return base;
  return `${base === 'float' ? '' : base[0]}vec${v[1]}`;
}

export const isType = (name: string): boolean => name in VECTOR || name in MATRIX || name === 'void';

/** Result of `a op b` for + - * / once both sides have the same base; null when the shapes do not combine. */
export function arithmetic(op: string, a: Ty, b: Ty): Ty {
  if (a === null || b === null) return null;
  if (a === b) return a;
  const va = vector(a);
  const vb = vector(b);
  const ma = matrixSize(a);
  const mb = matrixSize(b);
  if (va?.[1] === 1 && (vb || mb)) return b;
  if (vb?.[1] === 1 && (va || ma)) return a;
  if (op === '*' && ma && vb && vb[1] === ma) return b;
  if (op === '*' && mb && va && va[1] === mb) return a;
  return null;
}

/** The type `t.sel` selects: a swizzle of a vector (struct fields are looked up by the caller). */
export function swizzle(t: Ty, sel: string): Ty {
  const v = vector(t);
  if (!v || sel.length < 1 || sel.length > 4) return null;
  return sel.length === 1 ? v[0] : withBase(`vec${sel.length}`, v[0]);
}

/** The type `t[i]` gives: an array's element, a vector's component, a matrix's column. */
export function indexed(t: Ty): Ty {
  if (t === null) return null;
  if (t.endsWith('[]')) return t.slice(0, -2);
  const m = matrixSize(t);
  if (m) return `vec${m}`;
  const v = vector(t);
  return v && v[1] > 1 ? v[0] : null;
}

// Built-ins whose every argument is a float genType (GLSL ES 1.00 has no int overloads) and whose result has the
// type of their widest argument.
const COMPONENTWISE = new Set(
  (
    'radians degrees sin cos tan asin acos atan pow exp log exp2 log2 sqrt inversesqrt abs sign floor ceil fract mod min max ' +
    'clamp mix step smoothstep normalize faceforward reflect refract matrixCompMult dFdx dFdy fwidth'
  ).split(' '),
);
const TO_FLOAT = new Set(['length', 'distance', 'dot']);
const RELATIONAL = new Set(['lessThan', 'lessThanEqual', 'greaterThan', 'greaterThanEqual', 'equal', 'notEqual']);
const TEXTURE = new Set(['texture2D', 'texture2DProj', 'texture2DLod', 'texture2DProjLod', 'textureCube', 'textureCubeLod']);
/** ISF's and vjd's functions that every shader may call undeclared. */
const ISF_FUNCTIONS: Record<string, string> = {
  IMG_PIXEL: 'vec4',
  IMG_NORM_PIXEL: 'vec4',
  IMG_THIS_PIXEL: 'vec4',
  IMG_THIS_NORM_PIXEL: 'vec4',
  IMG_SIZE: 'vec2',
  PALETTE_COLOR: 'vec3',
};

export interface BuiltinCall {
  /** Which arguments must have a float base (int ones are converted); `from` = first such argument. */
  floatArgs: { from: number } | null;
  result: (args: Ty[]) => Ty;
}

function widest(args: Ty[]): Ty {
  let best: Ty = null;
  let size = 0;
  for (const a of args) {
    const n = matrixSize(a) ? 16 : (vector(a)?.[1] ?? -1);
    if (n < 0) return null;
    if (n > size) [best, size] = [a, n];
  }
  return withBase(best, 'float') ?? best;
}

/** What the rewrite knows of a built-in function, or null when `name` is not one. */
export function builtin(name: string): BuiltinCall | null {
  if (COMPONENTWISE.has(name)) return { floatArgs: { from: 0 }, result: widest };
  if (TO_FLOAT.has(name)) return { floatArgs: { from: 0 }, result: () => 'float' };
  if (name === 'cross') return { floatArgs: { from: 0 }, result: () => 'vec3' };
  if (TEXTURE.has(name)) return { floatArgs: { from: 1 }, result: () => 'vec4' };
  if (RELATIONAL.has(name)) return { floatArgs: null, result: (a) => withBase(a[0] ?? null, 'bool') };
  if (name === 'any' || name === 'all') return { floatArgs: null, result: () => 'bool' };
  if (name === 'not') return { floatArgs: null, result: (a) => a[0] ?? null };
  const isf = ISF_FUNCTIONS[name];
  return isf ? { floatArgs: null, result: () => isf } : null;
}
