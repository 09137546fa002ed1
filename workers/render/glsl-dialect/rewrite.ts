// The desktop-GLSL rewrite of one ISF descriptor: parse each stage, name a GLSL ES 3.00 feature if it uses one,
// else convert ints where desktop GLSL would and generate the source again (same lines, comments blanked).
import { generate } from '@shaderfrog/glsl-parser/index.js';
import type { IsfDescriptor } from '../../../src/shared/isf-types.js';
import type { Edits } from './convert.js';
import { es3Feature, type Es3Feature } from './es3.js';
import { TooBig, Typer } from './expressions.js';
import { parseStage } from './parse.js';
import { isfScope } from './scope.js';
import { Walker } from './statements.js';

export type DialectOutcome =
  /** The rewritten descriptor and how many conversions it holds. */
  | { kind: 'rewritten'; desc: IsfDescriptor; edits: number }
  /** The file needs GLSL ES 3.00. */
  | { kind: 'es3'; es3: Es3Feature; stage: 'fragment' | 'vertex' }
  /** Nothing to convert, or the file is past a bound or does not parse: the original error stands. */
  | { kind: 'none'; reason: string };

type StageOutcome = { source: string; edits: number } | { es3: Es3Feature } | { reason: string };

function stage(src: string, desc: IsfDescriptor): StageOutcome {
  const parsed = parseStage(src);
  if (!parsed.ok) return { reason: parsed.reason };
  const es3 = es3Feature(parsed.program);
  if (es3) return { es3 };
  const edits: Edits = { count: 0 };
  try {
    new Walker(new Typer(edits)).program(parsed.program, isfScope(desc));
    return { source: edits.count > 0 ? generate(parsed.program) : src, edits: edits.count };
  } catch (err) {
    return { reason: err instanceof TooBig ? 'too big to type' : `typing failed: ${(err as Error)?.message ?? err}` };
  }
}

/** Rewrites the stages of `desc`; never throws. */
export function rewriteDialect(desc: IsfDescriptor): DialectOutcome {
  const frag = stage(desc.fragment, desc);
  if ('es3' in frag) return { kind: 'es3', es3: frag.es3, stage: 'fragment' };
  const vert = desc.vertex !== undefined ? stage(desc.vertex, desc) : null;
  if (vert && 'es3' in vert) return { kind: 'es3', es3: vert.es3, stage: 'vertex' };
  const edits = ('edits' in frag ? frag.edits : 0) + (vert && 'edits' in vert ? vert.edits : 0);
  if (edits === 0) {
    const reason = 'reason' in frag ? frag.reason : vert && 'reason' in vert ? vert.reason : 'nothing to convert';
    return { kind: 'none', reason };
  }
  const out: IsfDescriptor = { ...desc, fragment: 'source' in frag ? frag.source : desc.fragment };
  if (vert && 'source' in vert) out.vertex = vert.source;
  return { kind: 'rewritten', desc: out, edits };
}
