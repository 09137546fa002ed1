// The compile path of an ISF program: the file as written first; only when that fails, the desktop-GLSL rewrite
// (or an error naming the GLSL ES 3.00 feature it needs). A rewrite that does not compile either gives the
// original error, whose line numbers are the operator's file's.
import type { IsfDescriptor } from '../../../src/shared/isf-types.js';
import type { GL } from '../gl-util.js';
import { buildIsfSources, IsfCompileError, linkProgram } from '../isf-glsl.js';
import { rewriteDialect } from './rewrite.js';

/** What happened on this thread so far (tests and the bench read it; a valid file touches none of it). */
export const dialectStats = { attempts: 0, rewritten: 0, es3: 0, failed: 0 };

/** Told once per descriptor whose rewrite compiled, with what the parse and rewrite cost (the render worker logs it). */
export const dialectEvents: { onRewrite: (info: { type: string; file: string; edits: number; ms: number }) => void } = {
  onRewrite: () => {},
};

// The rewritten descriptor per catalog descriptor, so later instances (spares, a second add) compile it directly.
const rewritten = new WeakMap<IsfDescriptor, IsfDescriptor>();

function link(gl: GL, desc: IsfDescriptor): WebGLProgram {
  const src = buildIsfSources(desc);
  return linkProgram(gl, src.vertex, src.fragment, src.vertexOffset, src.fragmentOffset);
}

/**
 * Compiles and links `desc`; returns the program and the descriptor it was built from (the rewritten one when the
 * rewrite was needed, which fusion then reads too). Throws IsfCompileError.
 */
export function linkIsf(gl: GL, desc: IsfDescriptor): { program: WebGLProgram; desc: IsfDescriptor } {
  const known = rewritten.get(desc);
  if (known) return { program: link(gl, known), desc: known };
  try {
    return { program: link(gl, desc), desc };
  } catch (err) {
    if (!(err instanceof IsfCompileError)) throw err;
    dialectStats.attempts++;
    const t0 = performance.now();
    const outcome = rewriteDialect(desc);
    const ms = performance.now() - t0;
    if (outcome.kind === 'es3') {
      dialectStats.es3++;
      const { feature, line } = outcome.es3;
      const where = outcome.stage === 'vertex' ? 'vertex shader line' : 'line';
      throw new IsfCompileError(
        `${where} ${line}: uses ${feature}, a GLSL ES 3.00 feature; vjd renders with WebGL 1, whose GLSL ES 1.00 cannot run it`,
        err.fullLog,
      );
    }
    if (outcome.kind === 'none') {
      dialectStats.failed++;
      throw err;
    }
    let program: WebGLProgram;
    try {
      program = link(gl, outcome.desc);
    } catch {
      dialectStats.failed++;
      throw err;
    }
    dialectStats.rewritten++;
    rewritten.set(desc, outcome.desc);
    dialectEvents.onRewrite({ type: desc.type, file: desc.file, edits: outcome.edits, ms });
    return { program, desc: outcome.desc };
  }
}
