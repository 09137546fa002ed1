// The whole-picture transition of a scene recall: the last output frame is held, and for the transition's length
// the new picture (every layer and the master chain as recalled) is blended over it with a transition shader, so
// the old scene as a whole gives way to the new one whatever changed underneath. Idle, it costs nothing.
import { BLIT_VERTEX, compileProgram, type GL, type Quad } from './gl-util.js';
import type { IsfFrame } from './isf-program.js';
import { MixStage } from './mix-stage.js';
import type { CompileResult, ProgramPool } from './program-pool.js';
import { createTarget, type RenderTarget } from './targets.js';
import type { IsfDescriptor } from '../../src/shared/isf-types.js';

const COPY = `
precision mediump float;
varying vec2 uv;
uniform sampler2D src;
void main() {
  gl_FragColor = vec4(texture2D(src, uv).rgb, 1.0);
}`;

export class PictureStage {
  private readonly mix: MixStage;
  private readonly copy: WebGLProgram;
  private readonly uSrc: WebGLUniformLocation | null;
  /** The old picture, at render size; made on the first recall with a transition and kept. */
  private held: RenderTarget | null = null;
  private active = false;

  constructor(
    private readonly gl: GL,
    private readonly quad: Quad,
    private width: number,
    private height: number,
    transitions: ProgramPool,
  ) {
    this.mix = new MixStage(gl, quad, width, height, undefined, transitions);
    this.copy = compileProgram(gl, BLIT_VERTEX, COPY);
    this.uSrc = gl.getUniformLocation(this.copy, 'src');
  }

  setTransitions(descs: IsfDescriptor[]): CompileResult[] {
    return this.mix.setTransitions(descs);
  }

  /** Holds `picture` (the output as it is now) and starts `transition` over `durationMs` from the next frame. */
  start(picture: WebGLTexture, transition: string, durationMs: number): void {
    const held = (this.held ??= createTarget(this.gl, this.width, this.height));
    this.blit(picture, held);
    this.mix.command({ op: 'take', transition, durationMs });
    this.active = true;
  }

  /** This frame's progress, or null when no transition runs (the frame draws as usual). */
  progress(now: number): number | null {
    if (!this.active) return null;
    const p = this.mix.progress(now);
    if (p === null || p >= 1) {
      this.mix.finish();
      this.active = false;
      return null;
    }
    return p;
  }

  /** Blends the held picture into `picture` at `progress`, into `target`. */
  draw(target: RenderTarget, ctx: IsfFrame, progress: number, picture: RenderTarget): void {
    this.mix.draw(
      target,
      ctx,
      progress,
      (t) => this.blit(this.held!.texture, t),
      (t) => this.blit(picture.texture, t),
    );
  }

  private blit(src: WebGLTexture, dst: RenderTarget): void {
    const gl = this.gl;
    gl.bindFramebuffer(gl.FRAMEBUFFER, dst.framebuffer);
    gl.viewport(0, 0, dst.width, dst.height);
    gl.useProgram(this.copy);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, src);
    gl.uniform1i(this.uSrc, 0);
    this.quad.draw();
  }

  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
    this.mix.resize(width, height);
    this.held?.destroy();
    this.held = null;
    this.active = false;
  }

  destroy(): void {
    this.mix.destroy();
    this.held?.destroy();
    this.held = null;
    this.gl.deleteProgram(this.copy);
  }
}
