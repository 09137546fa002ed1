// The fixture sampling pass (pixel mapping): once per frame, while a sample table and a samples block are set, one
// full-target pass draws each fixture pixel as one texel of a small target, which one readPixels copies into the
// block the pixel-out sender reads. The table rides in two RGBA8 data textures (high and low bytes of 16-bit fixed
// point), so it needs no float-texture extension; GL points would too, but cost ~40× more on Mesa through ANGLE.
import { PixelSamplesWriter } from '../../src/shared/pixel-samples.js';
import { BLIT_VERTEX, compileProgram, FRAGMENT_PRECISION, type GL, type Quad } from './gl-util.js';
import { createTarget, setFilter, uploadRgba, type RenderTarget } from './targets.js';

/** Texels per row of the sample target: pixel i at column i % COLUMNS, GL row floor(i / COLUMNS). */
export const COLUMNS = 256;
/** Floats per table row: u, v (origin top-left), du, dv (half-size of the averaged area; 0: a point). */
const STRIDE = 4;
const FIXED = 65535;

// Each texel decodes its table row, then reads the output: a point at the centre of the pixel under (u, v), so
// linear filtering returns it unmixed; an area as the mean of 4×4 taps at the cell centres of a 4×4 grid over
// (u ± du, v ± dv), each tap itself a bilinear mean.
const FRAGMENT = `${FRAGMENT_PRECISION}
uniform sampler2D src;
uniform sampler2D hi;
uniform sampler2D lo;
uniform vec2 size;
uniform vec2 grid;
vec4 at(vec2 p) { return texture2D(src, vec2(p.x, 1.0 - p.y)); }
void main() {
  vec2 t = gl_FragCoord.xy / grid;
  vec4 area = (floor(texture2D(hi, t) * 255.0 + 0.5) * 256.0 + floor(texture2D(lo, t) * 255.0 + 0.5)) / ${FIXED}.0;
  if (area.z <= 0.0 && area.w <= 0.0) {
    gl_FragColor = at((clamp(floor(area.xy * size), vec2(0.0), size - 1.0) + 0.5) / size);
    return;
  }
  vec4 sum = vec4(0.0);
  for (int j = 0; j < 4; j++) {
    for (int i = 0; i < 4; i++) {
      sum += at(area.xy + (vec2(float(i), float(j)) - 1.5) * 0.5 * area.zw);
    }
  }
  gl_FragColor = sum / 16.0;
}`;

interface Table {
  target: RenderTarget;
  hi: WebGLTexture;
  lo: WebGLTexture;
  writer: PixelSamplesWriter;
  pixels: Uint8Array;
  count: number;
}

export class PixelStage {
  private program: WebGLProgram | null = null;
  private u: Record<'src' | 'hi' | 'lo' | 'size' | 'grid', WebGLUniformLocation | null> | null = null;
  /** Null while no table (or no block) is set: the pass does nothing and holds no GL memory. */
  private table: Table | null = null;

  constructor(
    private readonly gl: GL,
    private readonly quad: Quad,
  ) {}

  /** A new table (4 floats per pixel) and block; either null (or an empty table) stops the pass. */
  set(samples: Float32Array | null, block: SharedArrayBuffer | null): void {
    this.release();
    const n = samples ? Math.floor(samples.length / STRIDE) : 0;
    if (!samples || !block || n === 0) return;
    const writer = new PixelSamplesWriter(block);
    const gl = this.gl;
    if (!this.program) {
      const p = (this.program = compileProgram(gl, BLIT_VERTEX, FRAGMENT));
      const at = (name: string): WebGLUniformLocation | null => gl.getUniformLocation(p, name);
      this.u = { src: at('src'), hi: at('hi'), lo: at('lo'), size: at('size'), grid: at('grid') };
    }
    const rows = Math.ceil(n / COLUMNS);
    // Row by row as GL stores texture rows (bottom up), the same order as the readback: no flip anywhere.
    const hiBytes = new Uint8Array(COLUMNS * rows * 4);
    const loBytes = new Uint8Array(COLUMNS * rows * 4);
    for (let k = 0; k < n * STRIDE; k++) {
      const q = Math.round(Math.min(1, Math.max(0, samples[k]!)) * FIXED);
      hiBytes[k] = q >> 8;
      loBytes[k] = q & 255;
    }
    const data = (bytes: Uint8Array): WebGLTexture => {
      const t = gl.createTexture();
      if (!t) throw new Error('createTexture failed (context lost?)');
      uploadRgba(gl, t, COLUMNS, rows, bytes);
      setFilter(gl, t, true);
      return t;
    };
    const hi = data(hiBytes);
    const lo = data(loBytes);
    const target = createTarget(gl, COLUMNS, rows);
    this.table = { target, hi, lo, writer, pixels: new Uint8Array(COLUMNS * rows * 4), count: n };
  }

  /** Samples `source` (the output texture, width×height) and publishes the samples as frame `frame`. */
  run(source: WebGLTexture, width: number, height: number, frame: number): void {
    const { gl, table, u } = this;
    if (!table || !u) return;
    const { target } = table;
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
    gl.viewport(0, 0, target.width, target.height);
    gl.disable(gl.BLEND);
    gl.disable(gl.SCISSOR_TEST);
    gl.useProgram(this.program);
    const bind = (unit: number, texture: WebGLTexture, loc: WebGLUniformLocation | null): void => {
      gl.activeTexture(gl.TEXTURE0 + unit);
      gl.bindTexture(gl.TEXTURE_2D, texture);
      gl.uniform1i(loc, unit);
    };
    bind(2, table.lo, u.lo);
    bind(1, table.hi, u.hi);
    bind(0, source, u.src);
    gl.uniform2f(u.size, width, height);
    gl.uniform2f(u.grid, target.width, target.height);
    this.quad.draw();
    gl.readPixels(0, 0, target.width, target.height, gl.RGBA, gl.UNSIGNED_BYTE, table.pixels);
    table.writer.write(table.pixels, table.count, frame);
  }

  private release(): void {
    const t = this.table;
    if (!t) return;
    this.table = null;
    t.target.destroy();
    this.gl.deleteTexture(t.hi);
    this.gl.deleteTexture(t.lo);
  }

  destroy(): void {
    this.release();
    if (this.program) this.gl.deleteProgram(this.program);
    this.program = null;
  }
}
