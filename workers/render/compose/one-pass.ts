// One compiled composition of a mode sequence: binds the base and every layer texture, sets the opacities and
// draws the whole stack in a single full-screen pass.
import type { GL, Quad } from '../gl-util.js';
import { builtinLocations, setBuiltins, type BuiltinLocations } from '../isf-builtins.js';
import { linkProgram } from '../isf-glsl.js';
import type { IsfFrame } from '../isf-program.js';
import type { BlendCode } from './blend-source.js';
import { BASE_SAMPLER, composeFragment, layerOpacity, layerSampler } from './codegen.js';
import { GENERATED_VERTEX } from '../generated-glsl.js';

type Loc = WebGLUniformLocation | null;

export class OnePassProgram {
  private readonly u: BuiltinLocations;
  private readonly opacity: Loc[];
  private readonly caps: number[];
  private destroyed = false;

  private constructor(
    private readonly gl: GL,
    private readonly program: WebGLProgram,
    private readonly quad: Quad,
    readonly layers: number,
  ) {
    const at = (name: string): Loc => gl.getUniformLocation(program, name);
    this.u = builtinLocations(gl, program);
    this.opacity = [];
    gl.useProgram(program);
    // The base on the first unit, each layer on the unit after its predecessor's: fixed, so only the bindings change per frame.
    gl.uniform1i(at(BASE_SAMPLER), 0);
    for (let k = 0; k < layers; k++) {
      gl.uniform1i(at(layerSampler(k)), k + 1);
      this.opacity.push(at(layerOpacity(k)));
    }
    this.caps = [gl.BLEND, gl.DEPTH_TEST, gl.SCISSOR_TEST, gl.CULL_FACE, gl.STENCIL_TEST];
  }

  /** Compiles the composition of `modes`; throws IsfCompileError when a mode's functions do not compile in it. */
  static create(gl: GL, quad: Quad, modes: readonly string[], code: ReadonlyMap<string, BlendCode>): OnePassProgram {
    return new OnePassProgram(gl, linkProgram(gl, GENERATED_VERTEX, composeFragment(modes, code)), quad, modes.length);
  }

  /** Draws `base` with `layers` (textures and opacities, as many as this program composes) into `target`. */
  render(
    target: WebGLFramebuffer | null,
    base: WebGLTexture,
    layers: ReadonlyArray<{ texture: WebGLTexture; opacity: number }>,
    frame: IsfFrame,
    width: number,
    height: number,
  ): void {
    if (this.destroyed) throw new Error('OnePassProgram used after destroy()');
    const gl = this.gl;
    for (const cap of this.caps) gl.disable(cap);
    gl.useProgram(this.program);
    setBuiltins(gl, this.u, frame);
    gl.uniform1i(this.u.passIndex, 0);
    gl.uniform2f(this.u.renderSize, width, height);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, base);
    for (let k = 0; k < this.layers; k++) {
      const l = layers[k]!;
      gl.activeTexture(gl.TEXTURE0 + 1 + k);
      gl.bindTexture(gl.TEXTURE_2D, l.texture);
      gl.uniform1f(this.opacity[k]!, clampOpacity(l.opacity));
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, target);
    gl.viewport(0, 0, width, height);
    this.quad.draw();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.gl.deleteProgram(this.program);
  }
}

/** The opacity as the blend file's own input reads it: clamped to 0..1, junk as 0. */
export function clampOpacity(v: number): number {
  return Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0;
}
