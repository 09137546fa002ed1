// Program readback for the output worker: once per frame, only while an output is active, the output target (after
// effects, dimmer and blackout) goes into the output ring in the ring's layout. I420 is packed on the GPU, upright,
// and carries 1.5 bytes a pixel instead of 4 through the readback, the ring and the encoder pipes, sparing every
// ffmpeg its colour conversion; RGBA is read as GL holds it, bottom-up (the consumers flip it), with no extra pass.
// Which one pays off depends on the GPU: chooseReadback() measures both once.
import { createFrameRing, FrameRingWriter, type PixelLayout } from '../../src/shared/frame-ring.js';
import { C_SPAN, KB, KR, programLayout, Y_OFFSET, Y_SPAN, type ReadbackSetting } from '../../src/shared/program-layout.js';
import { BLIT_VERTEX, compileProgram, FRAGMENT_PRECISION, type GL, type Quad } from './gl-util.js';
import { createTarget, type RenderTarget } from './targets.js';

const f = (x: number): string => x.toFixed(6);

/**
 * Four 8-bit samples per texel. Rows as read: the Y plane (H rows of W/4 texels), then U and V (H/4 texel rows
 * each, a texel row holding two chroma rows of W/8 texels). Chroma is the mean of its 2×2 block, one linear
 * fetch at the block's shared corner.
 */
const PACK_I420 = `${FRAGMENT_PRECISION}uniform sampler2D src;
uniform vec2 size;
float luma(vec3 c) { return dot(c, vec3(${f(KR)}, ${f(1 - KR - KB)}, ${f(KB)})); }
float yCode(vec3 c) { return (${f(Y_OFFSET)} + ${f(Y_SPAN)} * luma(c)) / 255.0; }
float uCode(vec3 c) { return (128.0 + ${f(C_SPAN)} * (c.b - luma(c)) / ${f(2 * (1 - KB))}) / 255.0; }
float vCode(vec3 c) { return (128.0 + ${f(C_SPAN)} * (c.r - luma(c)) / ${f(2 * (1 - KR))}) / 255.0; }
vec3 at(float x, float yTop) { return texture2D(src, vec2(x / size.x, 1.0 - yTop / size.y)).rgb; }
void main() {
  float col = floor(gl_FragCoord.x);
  float row = floor(gl_FragCoord.y);
  if (row < size.y) {
    float y = row + 0.5;
    float x = col * 4.0 + 0.5;
    gl_FragColor = vec4(yCode(at(x, y)), yCode(at(x + 1.0, y)), yCode(at(x + 2.0, y)), yCode(at(x + 3.0, y)));
    return;
  }
  float quarter = size.y / 4.0;
  float r = row - size.y;
  float isV = step(quarter, r);
  r -= isV * quarter;
  float chromaRow = size.x / 8.0;
  float second = step(chromaRow, col);
  float cy = (r * 2.0 + second) * 2.0 + 1.0;
  float cx = (col - second * chromaRow) * 8.0 + 1.0;
  vec3 c0 = at(cx, cy), c1 = at(cx + 2.0, cy), c2 = at(cx + 4.0, cy), c3 = at(cx + 6.0, cy);
  gl_FragColor = isV > 0.5 ? vec4(vCode(c0), vCode(c1), vCode(c2), vCode(c3)) : vec4(uCode(c0), uCode(c1), uCode(c2), uCode(c3));
}`;

export class ProgramReadback {
  private readonly writer: FrameRingWriter;
  private readonly layout: PixelLayout;
  private readonly program: WebGLProgram | null;
  private readonly uSrc: WebGLUniformLocation | null = null;
  private readonly uSize: WebGLUniformLocation | null = null;
  private packed: RenderTarget | null = null;

  constructor(
    private readonly gl: GL,
    private readonly quad: Quad,
    readonly ring: SharedArrayBuffer,
  ) {
    this.writer = new FrameRingWriter(ring);
    this.layout = this.writer.geometry.layout;
    this.program = this.layout === 'i420' ? compileProgram(gl, BLIT_VERTEX, PACK_I420) : null;
    if (this.program) {
      this.uSrc = gl.getUniformLocation(this.program, 'src');
      this.uSize = gl.getUniformLocation(this.program, 'size');
    }
  }

  /** Packs the whole target into a free ring slot and publishes it as the newest program frame. */
  read(source: RenderTarget, width: number, height: number): void {
    const gl = this.gl;
    if (!this.program) {
      const pixels = this.writer.begin(width, height);
      gl.bindFramebuffer(gl.FRAMEBUFFER, source.framebuffer);
      gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
      this.writer.commit();
      return;
    }
    const [pw, ph] = [width / 4, (height * 3) / 2];
    if (!this.packed || this.packed.width !== pw || this.packed.height !== ph) {
      this.packed?.destroy();
      this.packed = createTarget(gl, pw, ph);
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.packed.framebuffer);
    gl.viewport(0, 0, pw, ph);
    gl.useProgram(this.program);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, source.texture);
    gl.uniform1i(this.uSrc, 0);
    gl.uniform2f(this.uSize, width, height);
    this.quad.draw();
    const pixels = this.writer.begin(width, height);
    gl.readPixels(0, 0, pw, ph, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    this.writer.commit();
  }

  destroy(): void {
    this.packed?.destroy();
    this.packed = null;
    if (this.program) this.gl.deleteProgram(this.program);
  }
}

/** Frames timed per layout when choosing; the median counts. */
const TRIALS = 5;
/** I420 is chosen when packing and reading costs the render thread at most this many times a plain RGBA read. */
const PACK_WORTH = 1.5;

/**
 * The program layout for this GPU and size: the setting when it names one, else measured on `source` (a target of
 * width×height). On a software renderer a plain read is a copy while a pass is real work, so RGBA wins there and the
 * encoders convert on other cores; on a GPU the pass is nearly free and I420 shortens the read.
 */
export function chooseReadback(
  gl: GL,
  quad: Quad,
  source: RenderTarget,
  setting: ReadbackSetting,
): { layout: PixelLayout; i420Ms: number | null; rgbaMs: number | null } {
  const { width, height } = source;
  const possible = programLayout(width, height);
  if (setting !== 'auto' || possible === 'rgba') return { layout: setting === 'i420' ? possible : 'rgba', i420Ms: null, rgbaMs: null };
  const time = (layout: PixelLayout): number => {
    const r = new ProgramReadback(gl, quad, createFrameRing(width, height, 3, layout));
    const ms: number[] = [];
    for (let i = 0; i <= TRIALS; i++) {
      // Each read follows a change, as in the render loop (reading an unchanged target may cost nothing).
      gl.bindFramebuffer(gl.FRAMEBUFFER, source.framebuffer);
      gl.clearColor(i / TRIALS, 0, 0, 1);
      gl.clear(gl.COLOR_BUFFER_BIT);
      gl.finish();
      const t0 = performance.now();
      r.read(source, width, height);
      gl.finish();
      if (i > 0) ms.push(performance.now() - t0);
    }
    r.destroy();
    return ms.sort((a, b) => a - b)[TRIALS >> 1]!;
  };
  const rgbaMs = time('rgba');
  const i420Ms = time('i420');
  return { layout: i420Ms <= rgbaMs * PACK_WORTH ? 'i420' : 'rgba', i420Ms, rgbaMs };
}
