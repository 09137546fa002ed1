// The output stage: applies dimmer and blackout to the end of the chain and owns the output framebuffer,
// the one every readback (samples, thumbnails) reads from.
import { BLIT_VERTEX, compileProgram, type GL, type Quad } from './gl-util.js';
import { createTarget, type RenderTarget } from './targets.js';

const GRADE = `
precision mediump float;
varying vec2 uv;
uniform sampler2D src;
uniform float level;
void main() {
  gl_FragColor = vec4(texture2D(src, uv).rgb * level, 1.0);
}`;

export class OutputStage {
  readonly target: RenderTarget;
  private readonly program: WebGLProgram;
  private readonly uLevel: WebGLUniformLocation | null;
  private readonly uSrc: WebGLUniformLocation | null;
  blackout = false;
  dimmer = 1;
  /** This frame's modulated dimmer, or null: `dimmer` as set. */
  applied: number | null = null;

  private level(): number {
    return this.applied ?? this.dimmer;
  }

  constructor(
    private readonly gl: GL,
    private readonly quad: Quad,
    readonly width: number,
    readonly height: number,
  ) {
    this.target = createTarget(gl, width, height);
    this.program = compileProgram(gl, BLIT_VERTEX, GRADE);
    this.uLevel = gl.getUniformLocation(this.program, 'level');
    this.uSrc = gl.getUniformLocation(this.program, 'src');
  }

  /** True when the output equals its input (no dimming, no blackout), so the grading pass can be skipped. */
  passThrough(): boolean {
    return !this.blackout && this.level() >= 1;
  }

  /** Draws `source` (a render-size texture) through the dimmer and blackout into the output target. */
  draw(source: WebGLTexture): void {
    const gl = this.gl;
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.target.framebuffer);
    gl.viewport(0, 0, this.width, this.height);
    gl.useProgram(this.program);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, source);
    gl.uniform1i(this.uSrc, 0);
    gl.uniform1f(this.uLevel, this.blackout ? 0 : Math.min(1, Math.max(0, this.level())));
    this.quad.draw();
  }

  /** RGBA of the output at normalized points (origin top-left, as images are read). */
  sample(points: ReadonlyArray<[number, number]>): Array<[number, number, number, number]> {
    const gl = this.gl;
    const px = new Uint8Array(4);
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.target.framebuffer);
    return points.map(([nx, ny]) => {
      const x = Math.min(this.width - 1, Math.max(0, Math.floor(nx * this.width)));
      const yTop = Math.min(this.height - 1, Math.max(0, Math.floor(ny * this.height)));
      gl.readPixels(x, this.height - 1 - yTop, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
      return [px[0]!, px[1]!, px[2]!, px[3]!];
    });
  }

  destroy(): void {
    this.gl.deleteProgram(this.program);
    this.target.destroy();
  }
}
