// One compiled fused run: a single full-screen pass computing every effect of the run, with the effects' inputs as
// per-effect uniforms set each frame from each slot's current values (no recompile when a parameter moves).
import type { IsfDescriptor, IsfInput } from '../../../src/shared/isf-types.js';
import type { GL, Quad } from '../gl-util.js';
import { builtinLocations, setBuiltins, type BuiltinLocations } from '../isf-builtins.js';
import { linkProgram } from '../isf-glsl.js';
import { IsfProgram, type IsfFrame } from '../isf-program.js';
import { uniformName } from './codegen.js';
import { GENERATED_VERTEX } from '../generated-glsl.js';
import type { InstanceClock } from '../isf-clock.js';

/** What a fused program reads per effect each frame: the slot's current input values and its instance's clock. */
export interface FusedSlot {
  inputs: Record<string, unknown>;
  /** The member's own program (a chain slot's instance): its clock gives the member's TIME and FRAMEINDEX. */
  readonly instance?: { readonly program: { readonly clock: InstanceClock } };
  /** The values of this frame when modulators move some of them; null or absent: `inputs` as set. */
  applied?: Record<string, unknown> | null;
}

type Loc = WebGLUniformLocation | null;

export class FusedProgram {
  private readonly u: BuiltinLocations & Record<'input' | 'inputSize', Loc>;
  private readonly effects: Array<{
    inputs: Array<{ input: IsfInput; loc: Loc }>;
    vars: Record<string, number>;
    clock: Record<'time' | 'timeDelta' | 'frameIndex', Loc>;
  }>;
  private readonly caps: number[];
  private destroyed = false;

  private constructor(
    private readonly gl: GL,
    private readonly program: WebGLProgram,
    private readonly quad: Quad,
    readonly descs: readonly IsfDescriptor[],
  ) {
    const at = (name: string): Loc => gl.getUniformLocation(program, name);
    this.u = {
      ...builtinLocations(gl, program),
      input: at('fx_input'),
      inputSize: at('fx_inputSize'),
    };
    this.effects = descs.map((d, i) => ({
      inputs: d.inputs.filter((x) => x.type !== 'image').map((input) => ({ input, loc: at(uniformName(i + 1, input.name)) })),
      vars: {},
      clock: {
        time: at(uniformName(i + 1, 'TIME')),
        timeDelta: at(uniformName(i + 1, 'TIMEDELTA')),
        frameIndex: at(uniformName(i + 1, 'FRAMEINDEX')),
      },
    }));
    this.caps = [gl.BLEND, gl.DEPTH_TEST, gl.SCISSOR_TEST, gl.CULL_FACE, gl.STENCIL_TEST];
  }

  /** Compiles and links `fragment`; throws IsfCompileError with GL's first error line. */
  static create(gl: GL, quad: Quad, fragment: string, descs: readonly IsfDescriptor[]): FusedProgram {
    return new FusedProgram(gl, linkProgram(gl, GENERATED_VERTEX, fragment), quad, descs);
  }

  /** Draws the run into frame.target at width × height from frame.input; slot k gives effect k its values. */
  render(frame: IsfFrame, slots: readonly FusedSlot[], width: number, height: number): void {
    if (this.destroyed) throw new Error('FusedProgram used after destroy()');
    const gl = this.gl;
    for (const cap of this.caps) gl.disable(cap);
    gl.useProgram(this.program);
    const u = this.u;
    setBuiltins(gl, u, frame);
    gl.uniform1i(u.passIndex, 0);
    gl.uniform2f(u.renderSize, width, height);
    gl.uniform2f(u.inputSize, frame.inputSize[0], frame.inputSize[1]);
    for (let k = 0; k < this.effects.length; k++) {
      const e = this.effects[k]!;
      const slot = slots[k]!;
      IsfProgram.setInputUniforms(gl, e.inputs, slot.applied ?? slot.inputs, e.vars);
      // Each member's clock ticks whether it draws fused or alone, so fusing never changes what a member reads.
      const own = slot.instance?.program.clock;
      const t = frame.instanceClock && own ? own.tick(frame.time, frame.frameIndex) : frame;
      gl.uniform1f(e.clock.time, t.time);
      gl.uniform1f(e.clock.timeDelta, t.timeDelta);
      gl.uniform1i(e.clock.frameIndex, t.frameIndex);
    }
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, frame.input);
    gl.uniform1i(u.input, 0);
    gl.bindFramebuffer(gl.FRAMEBUFFER, frame.target);
    gl.viewport(0, 0, width, height);
    this.quad.draw();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.gl.deleteProgram(this.program);
  }
}
