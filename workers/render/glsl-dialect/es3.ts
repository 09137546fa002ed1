// Finds the first GLSL ES 3.00 feature a shader uses, so a file WebGL 1 cannot run gets an error that names it
// instead of the compiler's word for the first token it did not know.
import type { AstNode, Program } from '@shaderfrog/glsl-parser/ast/ast-types.js';
import { ISF_DIALECT_LIMITS } from '../../../src/shared/isf-dialect.js';

export interface Es3Feature {
  /** What the shader uses, in words (`unsigned integers (uvec2)`). */
  feature: string;
  /** Line in the file. */
  line: number;
}

const TYPES = new Set(
  (
    'uint uvec2 uvec3 uvec4 mat2x2 mat2x3 mat2x4 mat3x2 mat3x3 mat3x4 mat4x2 mat4x3 mat4x4 sampler3D sampler2DArray ' +
    'sampler2DShadow samplerCubeShadow sampler2DArrayShadow isampler2D isampler3D isamplerCube isampler2DArray ' +
    'usampler2D usampler3D usamplerCube usampler2DArray'
  ).split(' '),
);
const FUNCTIONS = new Set(
  (
    'texture textureLod textureProj textureProjLod textureGrad textureOffset textureLodOffset texelFetch texelFetchOffset ' +
    'textureSize round roundEven trunc sinh cosh tanh asinh acosh atanh isnan isinf modf inverse transpose determinant ' +
    'outerProduct floatBitsToInt floatBitsToUint intBitsToFloat uintBitsToFloat packSnorm2x16 unpackSnorm2x16 ' +
    'packUnorm2x16 unpackUnorm2x16 packHalf2x16 unpackHalf2x16'
  ).split(' '),
);
const BIT_OPERATORS = new Set(['&', '|', '^', '<<', '>>', '~', '&=', '|=', '^=', '<<=', '>>=']);
const STORAGE = new Set(['in', 'out', 'flat', 'centroid', 'smooth']);

type Node = AstNode & Record<string, unknown>;

function describe(n: Node, userFunctions: Set<string>, top: boolean): string | null {
  switch (n.type) {
    case 'preprocessor': {
      const words = String(n.line).replace('#', ' ').trim().split(/\s+/);
      return words[0] === 'version' && words[1] !== '100' ? `#version ${words.slice(1).join(' ')}` : null;
    }
    case 'keyword':
      return TYPES.has(n.token as string)
        ? `the type ${n.token as string}${String(n.token).startsWith('u') ? ' (unsigned integers)' : ''}`
        : null;
    case 'uint_constant':
      return `unsigned integer literals (${n.token as string})`;
    case 'switch_statement':
      return 'switch statements';
    case 'layout_qualifier':
      return 'layout qualifiers';
    case 'binary':
    case 'assignment':
    case 'unary': {
      const op = (n.operator as { literal: string }).literal;
      if (BIT_OPERATORS.has(op)) return `bit operators (${op})`;
      return op === '%' || op === '%=' ? `the ${op} operator` : null;
    }
    case 'function_call': {
      const id = n.identifier as Node;
      if (id.type === 'type_specifier' && (id.quantifier as unknown[] | null)?.length) return 'array constructors';
      const spec = id.type === 'type_specifier' ? (id.specifier as Node) : id;
      const name = spec.type === 'identifier' || spec.type === 'type_name' ? (spec.identifier as string) : '';
      return FUNCTIONS.has(name) && !userFunctions.has(name) ? `the built-in function ${name}()` : null;
    }
    case 'declaration_statement': {
      if (!top) return null;
      const quals = ((n.declaration as Node).specified_type as Node | undefined)?.qualifiers as Node[] | null | undefined;
      const q = quals?.find((k) => k.type === 'keyword' && STORAGE.has(k.token as string));
      return q ? `'${q.token as string}' variables` : null;
    }
    default:
      return null;
  }
}

/** The GLSL ES 3.00 feature that comes first in the source, or null (also when the program is too big to scan). */
export function es3Feature(program: Program): Es3Feature | null {
  const userFunctions = new Set<string>();
  for (const s of program.program as Node[]) {
    if (s.type === 'function') userFunctions.add((((s.prototype as Node).header as Node).name as { identifier: string }).identifier);
  }
  let best: Es3Feature | null = null;
  let bestOffset = Number.POSITIVE_INFINITY;
  const stack: Array<[Node, boolean]> = (program.program as Node[]).map((s) => [s, true]);
  let visited = 0;
  while (stack.length > 0) {
    if (++visited > ISF_DIALECT_LIMITS.nodesMax * 4) return best;
    const [n, top] = stack.pop()!;
    const feature = describe(n, userFunctions, top);
    // Operator nodes carry no location of their own; their operator token does.
    const at = (n.location ?? (n.operator as Node | undefined)?.location ?? (n.identifier as Node | undefined)?.location)?.start;
    if (feature && at && at.offset < bestOffset) {
      best = { feature, line: at.line };
      bestOffset = at.offset;
    }
    for (const [key, v] of Object.entries(n)) {
      if (key === 'location' || v === null || typeof v !== 'object') continue;
      if (Array.isArray(v)) {
        for (const c of v) if (c && typeof c === 'object' && 'type' in c) stack.push([c as Node, false]);
      } else if ('type' in v) stack.push([v as Node, false]);
    }
  }
  return best;
}
