// Bounded parsing of one shader stage with @shaderfrog/glsl-parser: refuses sources past the limits before any
// parser work, and turns every parser failure (syntax, stack, anything) into null.
import { parse } from '@shaderfrog/glsl-parser/index.js';
import type { Program } from '@shaderfrog/glsl-parser/ast/ast-types.js';
import { ISF_DIALECT_LIMITS } from '../../../src/shared/isf-dialect.js';

/** Comments out, newlines kept: the parser spends most of its time re-reading comments and whitespace. */
function withoutComments(src: string): string {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    const next = src[i + 1];
    if (c === '/' && (next === '/' || next === '*')) {
      const end = next === '/' ? src.indexOf('\n', i) : src.indexOf('*/', i + 2);
      const stop = end < 0 ? src.length : next === '/' ? end : end + 2;
      out += src.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/** The deepest ( [ { nesting of `src`. */
export function nesting(src: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 41 || c === 93 || c === 125) depth--;
  }
  return max;
}

export type Parsed = { ok: true; program: Program; source: string } | { ok: false; reason: string };

/** Parses `src` (comments blanked) within ISF_DIALECT_LIMITS; never throws. */
export function parseStage(src: string): Parsed {
  if (src.length > ISF_DIALECT_LIMITS.sourceMaxLength) return { ok: false, reason: 'source too long' };
  const source = withoutComments(src);
  if (nesting(source) > ISF_DIALECT_LIMITS.nestingMax) return { ok: false, reason: 'nested too deeply' };
  try {
    return { ok: true, program: parse(source, { quiet: true, includeLocation: true }), source };
  } catch (err) {
    return { ok: false, reason: `does not parse: ${String((err as Error)?.message ?? err).split('\n')[0]}` };
  }
}
