// Small lexical helpers over GLSL ES 1.00 source for the fusion analysis: comments out, identifiers, brackets.

/** Replaces comments by spaces, keeping newlines, so offsets and line numbers stay those of the source. */
export function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (m) => m.replace(/[^\n]/g, ' '));
}

/** Index of the bracket closing the one at `open` (any of ( [ {), or -1. */
export function matchBracket(src: string, open: number): number {
  const o = src[open]!;
  const c = o === '(' ? ')' : o === '[' ? ']' : '}';
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    if (src[i] === o) depth++;
    else if (src[i] === c && --depth === 0) return i;
  }
  return -1;
}

/** The `)` closing the `(` at `open` and the top-level comma-separated argument texts, or null. */
export function callArgs(src: string, open: number): { close: number; args: string[] } | null {
  const close = matchBracket(src, open);
  if (close < 0) return null;
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < close; i++) {
    const ch = src[i];
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      args.push(src.slice(start, i));
      start = i + 1;
    }
  }
  args.push(src.slice(start, close));
  return { close, args };
}

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/g;

export interface Ident {
  name: string;
  at: number;
  /** True after `.` (a swizzle or field): never a variable name. */
  member: boolean;
}

/** Identifiers outside numeric literals (`1.0e5` yields none). */
export function identifiers(src: string): Ident[] {
  const out: Ident[] = [];
  IDENT.lastIndex = 0;
  for (let m = IDENT.exec(src); m; m = IDENT.exec(src)) {
    const before = m.index > 0 ? src[m.index - 1]! : ' ';
    if (/[0-9]/.test(before)) continue; // an exponent or hex digits of a number
    out.push({ name: m[0], at: m.index, member: prevNonSpace(src, m.index) === '.' });
  }
  return out;
}

function prevNonSpace(src: string, at: number): string | undefined {
  for (let i = at - 1; i >= 0; i--) if (!/\s/.test(src[i]!)) return src[i];
  return undefined;
}

/** Replaces identifiers (not members) through `map`; names the map does not hold stay. */
export function renameIdentifiers(src: string, map: (name: string) => string | undefined): string {
  let out = '';
  let last = 0;
  for (const id of identifiers(src)) {
    if (id.member) continue;
    const to = map(id.name);
    if (to === undefined) continue;
    out += src.slice(last, id.at) + to;
    last = id.at + id.name.length;
  }
  return out + src.slice(last);
}

/** GLSL ES 1.00 keywords, types and qualifiers that start or shape a top-level declaration. */
export const DECL_WORDS = new Set([
  'const',
  'highp',
  'mediump',
  'lowp',
  'invariant',
  'in',
  'out',
  'inout',
  'void',
  'bool',
  'int',
  'float',
  'vec2',
  'vec3',
  'vec4',
  'bvec2',
  'bvec3',
  'bvec4',
  'ivec2',
  'ivec3',
  'ivec4',
  'mat2',
  'mat3',
  'mat4',
  'sampler2D',
  'samplerCube',
]);
