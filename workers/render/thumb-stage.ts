// The thumbnail stage: area-averaged downscales of the output, an ingest ring frame, an off-screen generator or an
// effect over the test card (effect-thumb.ts), read back into a slot.
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import type { ThumbJob, ThumbReply } from '../../src/shared/protocol/render.js';
import { failure } from '../../src/shared/protocol/common.js';
import { thumbExpired } from './thumb-schedule.js';
import { FrameRingReader } from '../../src/shared/frame-ring.js';
import { BLIT_VERTEX, compileProgram, FRAGMENT_PRECISION, type GL, type Quad } from './gl-util.js';
import type { IsfProgram } from './isf-program.js';
import { isfDate } from './isf-builtins.js';
import { createTarget, uploadRgba, type RenderTarget } from './targets.js';
import { ProgramLoadError, type ProgramPool } from './program-pool.js';
import { EffectThumbs } from './effect-thumb.js';

/** Taps per axis in one pass; each tap averages 2 texels, so one pass reduces by up to 2×MAX_TAPS. */
const MAX_TAPS = 8;
const MAX_RATIO = 2 * MAX_TAPS;
/** Readback targets kept between jobs (thumbnail sizes repeat: the UI asks for a few fixed boxes). */
const MAX_CACHED = 8;

// Box filter from bilinear taps: downscaling snaps every tap to a texel corner, where one bilinear fetch is the exact
// mean of a 2×2 block, so fine patterns (a 1-px checkerboard) average to grey instead of aliasing. Upscaling axes
// (snap = 0) sample the footprint centre. highp: texel coordinates of a 1920-wide source exceed mediump's precision.
// N taps per axis is a compile-time constant: llvmpipe unrolls constant loops, and a uniform-bounded loop with a
// break ran 3.5× slower (1280×720 → 512×288: 12.9 ms against 3.7 ms).
const downscaleShader = (n: number): string => `
${FRAGMENT_PRECISION}uniform sampler2D src;
uniform vec2 srcSize;
uniform vec2 scale;
uniform vec2 snap;
uniform vec2 lo;
uniform vec2 hi;
uniform float flipSrc;
uniform float flipDst;
uniform float dstH;
float tap(float start, float stride, float k, float s, float l, float h) {
  float p = start + (k + 0.5) * stride;
  return mix(p, clamp(floor(p + 0.5), l, h), s);
}
void main() {
  vec2 p = gl_FragCoord.xy;
  p.y = mix(p.y, dstH - p.y, flipDst);
  vec2 start = (p - 0.5) * scale;
  vec2 stride = scale / ${n}.0;
  vec4 sum = vec4(0.0);
  for (int j = 0; j < ${n}; j++) {
    float y = tap(start.y, stride.y, float(j), snap.y, lo.y, hi.y);
    y = mix(y, srcSize.y - y, flipSrc);
    for (int i = 0; i < ${n}; i++) {
      float x = tap(start.x, stride.x, float(i), snap.x, lo.x, hi.x);
      sum += texture2D(src, vec2(x, y) / srcSize);
    }
  }
  gl_FragColor = sum / ${n * n}.0;
}`;

/** What the engine lends a job: its output, output frame number, generator catalog and palette. */
export interface ThumbContext {
  output: RenderTarget;
  outputFrame: number;
  /** A `layer` job's picture: the layer's own target, drawn in the last frame or just now. */
  layer?: { target: RenderTarget } | null;
  generators: readonly IsfDescriptor[];
  /** The effect catalog (`effect` jobs); absent: none installed. */
  effects?: readonly IsfDescriptor[];
  palette: { rgb: Float32Array; count: number };
}

interface Source {
  /** Null only after context loss (createTexture failed); drawing it then shows nothing. */
  texture: WebGLTexture | null;
  width: number;
  height: number;
  /** Rows are top-down (CPU uploads), not GL's bottom-up. */
  topDown: boolean;
}

type Uniform = 'src' | 'srcSize' | 'scale' | 'snap' | 'lo' | 'hi' | 'flipSrc' | 'flipDst' | 'dstH';
const UNIFORMS: readonly Uniform[] = ['src', 'srcSize', 'scale', 'snap', 'lo', 'hi', 'flipSrc', 'flipDst', 'dstH'];

interface Downscaler {
  program: WebGLProgram;
  u: Record<Uniform, WebGLUniformLocation | null>;
}

export class ThumbStage {
  /** By taps per axis (1..MAX_TAPS), compiled on first use: at most MAX_TAPS small programs. */
  private readonly programs = new Map<number, Downscaler>();
  private readonly targets = new Map<string, RenderTarget>();
  private readonly readers = new WeakMap<SharedArrayBuffer, FrameRingReader>();
  private ringTexture: WebGLTexture | null = null;
  private generatorTarget: RenderTarget | null = null;
  private readonly effects: EffectThumbs;
  private readonly maxSize: number;

  constructor(
    private readonly gl: GL,
    private readonly quad: Quad,
    private readonly pool: ProgramPool,
    private readonly renderWidth: number,
    private readonly renderHeight: number,
  ) {
    this.maxSize = Math.min(4096, Number(gl.getParameter(gl.MAX_TEXTURE_SIZE)) || 4096);
    this.effects = new EffectThumbs(gl, quad, pool, renderWidth, renderHeight);
    this.warm();
  }

  /**
   * Compiles every downscaler and draws it once, while the worker starts. Mesa JIT-compiles a shader at its first
   * draw, and that first draw cost 100-530 ms per tap count here (cold shader cache, 2 loaded cores): enough to push
   * the first preview of a new size past its 500 ms budget. Each warm pass picks its tap count from its own scale
   * (sources of 6n texels onto 3), from an NPOT texture like the real sources.
   */
  private warm(): void {
    const gl = this.gl;
    const dst = createTarget(gl, 3, 3);
    try {
      for (let n = 1; n <= MAX_TAPS; n++) {
        const src = createTarget(gl, 6 * n, 6 * n);
        try {
          this.pass({ texture: src.texture, width: src.width, height: src.height, topDown: false }, dst, true);
        } finally {
          src.destroy();
        }
      }
      // The effect thumbnails' test card never changes: drawn here, not in the first effect's job.
      this.effects.testCard();
      // Waits for the draws, so the compiles happen here and not in the first job.
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    } finally {
      dst.destroy();
    }
  }

  /** Runs one job now and answers it; throws only on GL failures (the caller answers `failed`). */
  draw(job: ThumbJob, ctx: ThumbContext): ThumbReply {
    const { id, width: w, height: h } = job;
    if (Date.now() > job.deadline) return thumbExpired(id);
    if (!Number.isInteger(w) || !Number.isInteger(h) || w < 1 || h < 1 || w > this.maxSize || h > this.maxSize) {
      return failure(id, 'failed', `thumbnail size ${w}x${h} is out of range`);
    }
    if (job.slot.byteLength < w * h * 4) return failure(id, 'failed', `slot of ${job.slot.byteLength} bytes is too small for ${w}x${h}`);
    const s = job.subject;
    let source: Source;
    let frame = 0;
    if (s.kind === 'output') {
      source = { texture: ctx.output.texture, width: ctx.output.width, height: ctx.output.height, topDown: false };
      frame = ctx.outputFrame;
    } else if (s.kind === 'layer') {
      const l = ctx.layer;
      if (!l) return failure(id, 'failed', `layer ${s.layer} does not exist`);
      source = { texture: l.target.texture, width: l.target.width, height: l.target.height, topDown: false };
      // Labelled with the output counter as the output is: the ETag the main thread plans from that counter then
      // matches while no frame passes. The frame a layer was drawn in counts from before that frame's increment.
      frame = ctx.outputFrame;
    } else if (s.kind === 'ring') {
      const up = this.uploadRing(s.ring);
      if (!up) return failure(id, 'no-frame', 'the input has not delivered a frame yet');
      source = up.source;
      frame = up.frameNo;
    } else if (s.kind === 'effect') {
      const desc = ctx.effects?.find((d) => d.type === s.type);
      if (!desc) return failure(id, 'failed', `effect "${s.type}" is not installed`);
      try {
        source = { ...this.effects.draw(desc, Number.isFinite(s.time) ? s.time : 0, ctx.palette), topDown: false };
      } catch (err) {
        if (err instanceof ProgramLoadError) return failure(id, 'load-failed', err.message);
        throw err;
      }
    } else {
      const desc = ctx.generators.find((d) => d.type === s.type);
      if (!desc) return failure(id, 'failed', `generator "${s.type}" is not installed`);
      source = this.renderGenerator(desc, s.inputs, s.time, ctx.palette);
    }
    this.downscale(source, w, h);
    const gl = this.gl;
    gl.pixelStorei(gl.PACK_ALIGNMENT, 1);
    // The last pass wrote rows top-down, so GL's bottom-up readback order is already the slot's order.
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(job.slot, 0, w * h * 4));
    return { t: 'thumb-reply', id, ok: true, frame };
  }

  destroy(): void {
    const gl = this.gl;
    for (const t of this.targets.values()) t.destroy();
    this.targets.clear();
    if (this.generatorTarget) this.generatorTarget.destroy();
    this.generatorTarget = null;
    this.effects.destroy();
    gl.deleteTexture(this.ringTexture);
    this.ringTexture = null;
    for (const d of this.programs.values()) gl.deleteProgram(d.program);
    this.programs.clear();
  }

  /** Copies the newest ring frame into the stage's own texture and lets the frame go at once. */
  private uploadRing(ring: SharedArrayBuffer): { source: Source; frameNo: number } | null {
    let reader = this.readers.get(ring);
    if (!reader) {
      reader = new FrameRingReader(ring);
      this.readers.set(ring, reader);
    }
    if (!this.ringTexture) this.ringTexture = this.gl.createTexture();
    // A frame the writer overwrote mid-upload (more readers than spare slots) is read again, a few times at most.
    for (let attempt = 0; ; attempt++) {
      const f = reader.acquire();
      if (!f) return null;
      const { width, height, frameNo } = f;
      try {
        uploadRgba(this.gl, this.ringTexture as WebGLTexture, width, height, f.pixels);
      } catch (err) {
        reader.release();
        throw err;
      }
      if (reader.release() || attempt >= 2) return { source: { texture: this.ringTexture, width, height, topDown: true }, frameNo };
    }
  }

  /** One frame of `desc` at render size into the stage's own target; the program is used once and destroyed. */
  private renderGenerator(desc: IsfDescriptor, values: Record<string, unknown>, time: number, palette: ThumbContext['palette']): Source {
    const program: IsfProgram = this.pool.take(desc);
    try {
      this.generatorTarget ??= createTarget(this.gl, this.renderWidth, this.renderHeight);
      const t = this.generatorTarget;
      // The pool's programs follow the render scale; a thumbnail draws the generator at the full render size.
      if (program.width !== t.width || program.height !== t.height) program.resize(t.width, t.height);
      const inputs = values !== null && typeof values === 'object' ? values : {};
      program.render({
        input: null,
        inputSize: [t.width, t.height],
        target: t.framebuffer,
        time: Number.isFinite(time) ? time : 0,
        timeDelta: 0,
        frameIndex: 0,
        date: isfDate(),
        palette,
        values: inputs,
      });
      return { texture: t.texture, width: t.width, height: t.height, topDown: false };
    } finally {
      program.destroy();
    }
  }

  /** Reduces `source` to w×h in as few passes as MAX_RATIO allows; the final target holds the picture top-down. */
  private downscale(source: Source, w: number, h: number): void {
    let cur = source;
    for (;;) {
      const last = cur.width <= w * MAX_RATIO && cur.height <= h * MAX_RATIO;
      const nw = last ? w : Math.max(w, Math.ceil(cur.width / MAX_RATIO));
      const nh = last ? h : Math.max(h, Math.ceil(cur.height / MAX_RATIO));
      const target = this.target(nw, nh);
      this.pass(cur, target, last);
      if (last) return;
      cur = { texture: target.texture, width: nw, height: nh, topDown: false };
    }
  }

  private pass(src: Source, dst: RenderTarget, flipDst: boolean): void {
    const gl = this.gl;
    const sx = src.width / dst.width;
    const sy = src.height / dst.height;
    // Enough 2-texel taps to cover the footprint of the longer axis (the other is oversampled, which costs only
    // time); the epsilon keeps exact ratios (16.0000001) from adding a tap.
    const n = Math.min(MAX_TAPS, Math.max(1, Math.ceil(Math.max(sx, sy) / 2 - 1e-6)));
    const { program, u } = this.downscaler(n);
    gl.bindFramebuffer(gl.FRAMEBUFFER, dst.framebuffer);
    gl.viewport(0, 0, dst.width, dst.height);
    gl.disable(gl.BLEND);
    gl.disable(gl.SCISSOR_TEST);
    gl.useProgram(program);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, src.texture);
    gl.uniform1i(u.src, 0);
    gl.uniform2f(u.srcSize, src.width, src.height);
    gl.uniform2f(u.scale, sx, sy);
    gl.uniform2f(u.snap, sx > 1 ? 1 : 0, sy > 1 ? 1 : 0);
    // Corners one texel inside the edges keep every 2×2 block inside the picture (a 1-texel axis has no corner).
    gl.uniform2f(u.lo, Math.min(1, src.width / 2), Math.min(1, src.height / 2));
    gl.uniform2f(u.hi, Math.max(src.width - 1, src.width / 2), Math.max(src.height - 1, src.height / 2));
    gl.uniform1f(u.flipSrc, src.topDown ? 1 : 0);
    gl.uniform1f(u.flipDst, flipDst ? 1 : 0);
    gl.uniform1f(u.dstH, dst.height);
    this.quad.draw();
  }

  private downscaler(n: number): Downscaler {
    let d = this.programs.get(n);
    if (!d) {
      const program = compileProgram(this.gl, BLIT_VERTEX, downscaleShader(n));
      const u = {} as Record<Uniform, WebGLUniformLocation | null>;
      for (const name of UNIFORMS) u[name] = this.gl.getUniformLocation(program, name);
      d = { program, u };
      this.programs.set(n, d);
    }
    return d;
  }

  /** A cached target of this size (least recently used one freed past MAX_CACHED). */
  private target(w: number, h: number): RenderTarget {
    const key = `${w}x${h}`;
    let t = this.targets.get(key);
    if (t) this.targets.delete(key);
    else {
      t = createTarget(this.gl, w, h);
      if (this.targets.size >= MAX_CACHED) {
        const [oldKey, old] = this.targets.entries().next().value as [string, RenderTarget];
        this.targets.delete(oldKey);
        old.destroy();
      }
    }
    this.targets.set(key, t);
    return t;
  }
}
