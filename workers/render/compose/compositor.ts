// Interim compositor: one pass per layer with the mode as a uniform (replaced by the generated one-pass compositor).
import type { IsfDescriptor } from '../../../src/shared/isf-types.js';
import { BLIT_VERTEX, compileProgram, type GL, type Quad } from '../gl-util.js';
import type { IsfFrame } from '../isf-program.js';
import type { CompileResult } from '../program-pool.js';
import { createTarget, type RenderTarget } from '../targets.js';

export interface ComposeLayer {
  texture: WebGLTexture;
  opacity: number;
  blend: string;
}

const MODES = ['normal', 'add', 'screen', 'multiply', 'overlay', 'difference', 'lighten', 'darken', 'alpha'];

const FRAGMENT = `precision mediump float;
varying vec2 uv;
uniform sampler2D base;
uniform sampler2D top;
uniform float opacity;
uniform int mode;
vec3 blendOf(vec3 b, vec3 t) {
  if (mode == 1) return min(b + t, 1.0);
  if (mode == 2) return 1.0 - (1.0 - b) * (1.0 - t);
  if (mode == 3) return b * t;
  if (mode == 4) return mix(2.0 * b * t, 1.0 - 2.0 * (1.0 - b) * (1.0 - t), step(0.5, b));
  if (mode == 5) return abs(b - t);
  if (mode == 6) return max(b, t);
  if (mode == 7) return min(b, t);
  return t;
}
void main() {
  vec4 b = texture2D(base, uv);
  vec4 t = texture2D(top, uv);
  float w = mode == 8 ? t.a : 1.0;
  gl_FragColor = vec4(mix(b.rgb, blendOf(b.rgb, t.rgb), opacity * w), 1.0);
}`;

export class Compositor {
  private readonly program: WebGLProgram;
  private ping: [RenderTarget, RenderTarget] | null = null;
  private passes = 0;
  private black: RenderTarget | null = null;

  constructor(
    private readonly gl: GL,
    private readonly quad: Quad,
    private width: number,
    private height: number,
  ) {
    this.program = compileProgram(gl, BLIT_VERTEX, FRAGMENT);
  }

  setBlends(_descs: IsfDescriptor[]): CompileResult[] {
    return [];
  }

  modes(): string[] {
    return MODES;
  }

  draw(target: WebGLFramebuffer | null, base: WebGLTexture | null, layers: readonly ComposeLayer[], _ctx: IsfFrame): void {
    const gl = this.gl;
    const ping = (this.ping ??= [createTarget(gl, this.width, this.height), createTarget(gl, this.width, this.height)]);
    if (!this.black) {
      this.black = createTarget(gl, 1, 1);
      gl.bindFramebuffer(gl.FRAMEBUFFER, this.black.framebuffer);
      gl.clearColor(0, 0, 0, 1);
      gl.clear(gl.COLOR_BUFFER_BIT);
    }
    if (layers.length === 0) {
      gl.bindFramebuffer(gl.FRAMEBUFFER, target);
      gl.clearColor(0, 0, 0, 1);
      gl.clear(gl.COLOR_BUFFER_BIT);
      this.passes = 1;
      return;
    }
    let below = base ?? this.black.texture;
    gl.useProgram(this.program);
    gl.uniform1i(gl.getUniformLocation(this.program, 'base'), 0);
    gl.uniform1i(gl.getUniformLocation(this.program, 'top'), 1);
    for (let i = 0; i < layers.length; i++) {
      const l = layers[i]!;
      const out = i === layers.length - 1 ? target : ping[i % 2]!.framebuffer;
      gl.bindFramebuffer(gl.FRAMEBUFFER, out);
      gl.viewport(0, 0, this.width, this.height);
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, below);
      gl.activeTexture(gl.TEXTURE0 + 1);
      gl.bindTexture(gl.TEXTURE_2D, l.texture);
      gl.uniform1f(gl.getUniformLocation(this.program, 'opacity'), l.opacity);
      gl.uniform1i(gl.getUniformLocation(this.program, 'mode'), Math.max(0, MODES.indexOf(l.blend)));
      this.quad.draw();
      below = ping[i % 2]!.texture;
    }
    gl.activeTexture(gl.TEXTURE0);
    this.passes = layers.length;
  }

  lastPasses(): number {
    return this.passes;
  }

  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
    if (this.ping) for (const t of this.ping) t.destroy();
    this.ping = null;
  }

  destroy(): void {
    if (this.ping) for (const t of this.ping) t.destroy();
    this.ping = null;
    this.black?.destroy();
    this.gl.deleteProgram(this.program);
  }
}
