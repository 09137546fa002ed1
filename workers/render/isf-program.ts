// Runs one ISF descriptor on a WebGL 1 context: compile/link, cached uniforms, multi-pass buffers.
import { isSamplerInput, type IsfDescriptor, type IsfInput } from '../../src/shared/isf-types.js';
import { clampSize, evalNode, parseSizeExpr, type SizeExpr } from '../../src/shared/isf-expr.js';
import { IsfCompileError, linkProgram, POSITION_ATTRIBUTE, samplerNames } from './isf-glsl.js';
import { linkIsf } from './glsl-dialect/retry.js';
import type { GL, Quad } from './gl-util.js';
import { builtinLocations, setBuiltins, type BuiltinFrame, type BuiltinLocations } from './isf-builtins.js';
import { createTarget, uploadRgba, type RenderTarget } from './targets.js';
import { InstanceClock } from './isf-clock.js';
import type { AudioTextureKind } from './audio-textures.js';
import { AUDIO_BINS } from '../../src/shared/audio-block.js';
import { acquireAll, releaseImported, type ImportedTexture } from './imported-textures.js';

export { IsfCompileError };

// ---------------------------------------------------------------------------------------------------------------
// The program runner.

export interface IsfFrame extends BuiltinFrame {
  /** The effect's input (GL orientation, e.g. the previous stage's target texture); null for generators. */
  input: WebGLTexture | null;
  inputSize: [number, number];
  /** Where the last pass draws (null = the context's drawing buffer), at the program's width × height. */
  target: WebGLFramebuffer | null;
  values: Record<string, unknown>;
  /** Textures (render size) for named image inputs other than inputImage: a transition's startImage and endImage. */
  images?: Record<string, WebGLTexture> | null;
}

// Every buffer keeps its content between frames, which is what PERSISTENT asks for and allowed for the others.
interface PassBuffer {
  name: string;
  float: boolean;
  width: SizeExpr | null;
  height: SizeExpr | null;
  // Two textures per buffer: a pass reads `front` (what the buffer held) while writing `back`, then they swap,
  // so a pass may sample its own target (feedback) without a GL feedback loop.
  front: RenderTarget | null;
  back: RenderTarget | null;
  unit: number;
}

interface Sampler {
  name: string;
  unit: number;
  tex: WebGLUniformLocation | null;
  size: WebGLUniformLocation | null;
  rect: WebGLUniformLocation | null;
  /** An ISF audio input: its kind and the columns it asked for (MAX, else every sample or bin the analysis has). */
  audio?: { kind: AudioTextureKind; columns: number; texture: WebGLTexture | null };
  /** An IMPORTED image: its shared texture, whose size follows the file. */
  imported?: { file: string; entry: ImportedTexture };
}

const COPY_FRAGMENT = `precision mediump float;
uniform sampler2D src;
varying vec2 isf_FragNormCoord;
void main() { gl_FragColor = texture2D(src, isf_FragNormCoord); }`;
const COPY_VERTEX = `attribute vec2 ${POSITION_ATTRIBUTE};
varying vec2 isf_FragNormCoord;
void main() { isf_FragNormCoord = ${POSITION_ATTRIBUTE} * 0.5 + 0.5; gl_Position = vec4(${POSITION_ATTRIBUTE}, 0.0, 1.0); }`;

// Lenient coercion of control-surface values: junk falls back to the input's default rather than failing a frame.
const toNum = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : typeof v === 'boolean' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

function toBool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return undefined;
}

/** Arrays, {x,y}/{r,g,b,a} objects and `#RRGGBB[AA]` strings; missing components come from the default. */
function toVec(v: unknown, def: readonly number[]): number[] {
  const out = def.slice();
  let src: unknown[] | null = null;
  if (Array.isArray(v)) src = v;
  else if (typeof v === 'string' && /^#([0-9a-f]{6}|[0-9a-f]{8})$/i.test(v)) {
    src = (v.slice(1).match(/../g) ?? []).map((h) => Number.parseInt(h, 16) / 255);
  } else if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    src = def.length === 2 ? [o.x, o.y] : [o.r, o.g, o.b, o.a];
  }
  if (src) for (let i = 0; i < out.length; i++) out[i] = toNum(src[i]) ?? out[i]!;
  return out;
}

function clamp(v: number, lo: unknown, hi: unknown): number {
  if (typeof lo === 'number' && v < lo) v = lo;
  if (typeof hi === 'number' && v > hi) v = hi;
  return v;
}

export class IsfProgram {
  private readonly buffers: PassBuffer[] = [];
  /** Per pass: the buffer it renders into, or null for the frame's target. */
  private readonly passBuffers: Array<PassBuffer | null>;
  /** Image inputs (not pass buffers): bound once per frame. */
  private readonly images: Sampler[] = [];
  private readonly bufferSize: Array<WebGLUniformLocation | null> = [];
  private readonly inputs: Array<{ input: IsfInput; loc: WebGLUniformLocation | null }> = [];
  private readonly u: BuiltinLocations;
  // Variables of the size expressions: WIDTH, HEIGHT and the numeric inputs' current values.
  private readonly vars: Record<string, number> = {};
  private readonly caps: number[];
  private dummy: WebGLTexture | null = null;
  private copy: { program: WebGLProgram; src: WebGLUniformLocation | null } | null = null;
  private destroyed = false;
  /** This instance's TIME, TIMEDELTA and FRAMEINDEX (fused runs tick it too, so a member keeps its own time). */
  readonly clock = new InstanceClock();

  // Only looks things up; GL objects are made in allocate() so a failure there can be cleaned up by destroy().
  private constructor(
    private readonly gl: GL,
    readonly desc: IsfDescriptor,
    private readonly program: WebGLProgram,
    public width: number,
    public height: number,
    private readonly quad: Quad,
    private readonly imported: ReadonlyMap<string, { file: string; entry: ImportedTexture }>,
  ) {
    const at = (name: string): WebGLUniformLocation | null => gl.getUniformLocation(program, name);
    this.u = builtinLocations(gl, program);
    this.caps = [gl.BLEND, gl.DEPTH_TEST, gl.SCISSOR_TEST, gl.CULL_FACE, gl.STENCIL_TEST];
    for (const input of desc.inputs) if (!isSamplerInput(input)) this.inputs.push({ input, loc: at(input.name) });
    gl.useProgram(program);
    const targets = new Set(desc.passes.map((p) => p.target).filter((t): t is string => t !== undefined));
    samplerNames(desc).forEach((name, unit) => {
      const s: Sampler = { name, unit, tex: at(name), size: at(`_${name}_imgSize`), rect: at(`_${name}_imgRect`) };
      gl.uniform1i(s.tex, unit);
      gl.uniform4f(s.rect, 0, 0, 1, 1);
      const input = desc.inputs.find((i) => i.name === name);
      if (input && (input.type === 'audio' || input.type === 'audioFFT')) {
        const columns = typeof input.max === 'number' ? input.max : AUDIO_BINS;
        s.audio = { kind: input.type, columns, texture: null };
      }
      const image = imported.get(name);
      if (image) s.imported = image;
      if (!targets.has(name)) this.images.push(s);
      else {
        // The first pass naming a buffer decides its size and format.
        const p = desc.passes.find((x) => x.target === name)!;
        this.buffers.push({
          name,
          float: p.float,
          width: p.width ? parseSizeExpr(p.width) : null,
          height: p.height ? parseSizeExpr(p.height) : null,
          front: null,
          back: null,
          unit,
        });
        this.bufferSize.push(s.size);
      }
    });
    this.passBuffers = desc.passes.map((p) => this.buffers.find((b) => b.name === p.target) ?? null);
    for (const input of desc.inputs) this.vars[input.name] = toNum(input.default) ?? 0;
  }

  private allocate(): void {
    const gl = this.gl;
    if (this.images.length > 0) {
      // Bound where an image input has no texture (an effect without input, extra image inputs).
      this.dummy = gl.createTexture();
      uploadRgba(gl, this.dummy!, 1, 1, new Uint8Array(4));
    }
    if (this.passBuffers[this.passBuffers.length - 1]) {
      const program = linkProgram(gl, COPY_VERTEX, COPY_FRAGMENT);
      this.copy = { program, src: gl.getUniformLocation(program, 'src') };
    }
    this.layoutBuffers();
  }

  /** Compiles and links; throws IsfCompileError with the first error line (file line numbers). */
  static create(gl: GL, desc: IsfDescriptor, width: number, height: number, quad: Quad): IsfProgram {
    // An image that did not load fails the program as a compile error would, naming the image.
    const imported = acquireAll(gl, desc.imported ?? []);
    const release = (): void => {
      for (const i of imported.values()) releaseImported(gl, i.file, i.entry);
    };
    // The file as written, or its desktop-GLSL rewrite when only that compiles (which the program then keeps).
    let linked: ReturnType<typeof linkIsf>;
    try {
      linked = linkIsf(gl, desc);
    } catch (err) {
      release();
      throw err;
    }
    const { program, desc: compiled } = linked;
    let p: IsfProgram | null = null;
    try {
      p = new IsfProgram(gl, compiled, program, width, height, quad, imported);
      p.allocate();
      return p;
    } catch (err) {
      if (p) p.destroy();
      else {
        gl.deleteProgram(program);
        release();
      }
      throw err;
    }
  }

  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
    this.layoutBuffers();
  }

  /** (Re)allocates pass buffers whose evaluated size changed; new buffers start transparent black. */
  private layoutBuffers(): void {
    this.vars.WIDTH = this.width;
    this.vars.HEIGHT = this.height;
    for (const b of this.buffers) {
      const w = b.width ? clampSize(safeEval(b.width, this.vars), this.width) : this.width;
      const h = b.height ? clampSize(safeEval(b.height, this.vars), this.height) : this.height;
      if (b.front && b.front.width === w && b.front.height === h) continue;
      if (b.front) b.front.destroy();
      if (b.back) b.back.destroy();
      b.front = b.back = null;
      b.front = createTarget(this.gl, w, h, { float: b.float });
      b.back = createTarget(this.gl, w, h, { float: b.float });
    }
  }

  /**
   * Starts the instance again: its next frame is FRAMEINDEX 0 at TIME 0 and its buffers are transparent black,
   * as for a new instance (a re-enabled effect, a transition taken again).
   */
  restart(): void {
    if (this.destroyed) return;
    if (this.clock.running && this.buffers.length > 0) {
      const gl = this.gl;
      gl.disable(gl.SCISSOR_TEST);
      gl.clearColor(0, 0, 0, 0);
      for (const b of this.buffers) {
        for (const t of [b.front, b.back]) {
          if (!t) continue;
          gl.bindFramebuffer(gl.FRAMEBUFFER, t.framebuffer);
          gl.viewport(0, 0, t.width, t.height);
          gl.clear(gl.COLOR_BUFFER_BIT);
        }
      }
    }
    this.clock.restart();
  }

  private setInputs(values: Record<string, unknown>): void {
    IsfProgram.setInputUniforms(this.gl, this.inputs, values, this.vars);
  }

  /**
   * Sets the uniforms of non-image inputs from control-surface values (coerced, clamped, defaults for junk) and
   * records numeric values in `vars`. Fused programs use it too, so a parameter means the same inside a fused run.
   */
  static setInputUniforms(
    gl: GL,
    inputs: ReadonlyArray<{ input: IsfInput; loc: WebGLUniformLocation | null }>,
    values: Record<string, unknown>,
    vars: Record<string, number>,
  ): void {
    for (const { input, loc } of inputs) {
      const v = values[input.name];
      switch (input.type) {
        case 'float':
        case 'long': {
          let n = clamp(toNum(v) ?? (input.default as number), input.min, input.max);
          if (input.type === 'long') {
            n = Math.round(n);
            if (input.values && !input.values.includes(n)) n = input.default as number;
            gl.uniform1i(loc, n);
          } else gl.uniform1f(loc, n);
          vars[input.name] = n;
          break;
        }
        case 'bool':
        case 'event': {
          const b = toBool(v) ?? (input.default as boolean);
          gl.uniform1i(loc, b ? 1 : 0);
          vars[input.name] = b ? 1 : 0;
          break;
        }
        case 'color':
        case 'point2D': {
          const def = input.default as number[];
          const x = v === undefined ? def : toVec(v, def);
          const lo = input.min as number[] | undefined;
          const hi = input.max as number[] | undefined;
          const c = (i: number): number => clamp(x[i]!, lo?.[i], hi?.[i]);
          if (input.type === 'color') gl.uniform4f(loc, c(0), c(1), c(2), c(3));
          else gl.uniform2f(loc, c(0), c(1));
          break;
        }
        default:
          break;
      }
    }
  }

  /** Draws every pass; the last one lands in frame.target at width × height. Leaves frame.target bound. */
  render(frame: IsfFrame): void {
    if (this.destroyed) throw new Error(`IsfProgram ${this.desc.type} used after destroy()`);
    const gl = this.gl;
    for (const cap of this.caps) gl.disable(cap);
    gl.useProgram(this.program);
    const u = this.u;
    setBuiltins(gl, u, frame, frame.instanceClock ? this.clock.tick(frame.time, frame.frameIndex) : frame);
    this.setInputs(frame.values);
    if (this.buffers.length > 0) this.layoutBuffers();

    // Audio textures first: an upload binds a texture, which must not undo the bindings made below.
    for (const s of this.images) if (s.audio) s.audio.texture = frame.audio?.textures?.get(s.audio.kind, s.audio.columns) ?? null;
    for (const s of this.images) {
      if (s.audio) {
        gl.activeTexture(gl.TEXTURE0 + s.unit);
        gl.bindTexture(gl.TEXTURE_2D, s.audio.texture ?? this.dummy);
        gl.uniform2f(s.size, s.audio.columns, 1);
        continue;
      }
      if (s.imported) {
        gl.activeTexture(gl.TEXTURE0 + s.unit);
        gl.bindTexture(gl.TEXTURE_2D, s.imported.entry.texture);
        gl.uniform2f(s.size, s.imported.entry.width, s.imported.entry.height);
        continue;
      }
      const tex = s.name === 'inputImage' ? frame.input : (frame.images?.[s.name] ?? null);
      gl.activeTexture(gl.TEXTURE0 + s.unit);
      gl.bindTexture(gl.TEXTURE_2D, tex ?? this.dummy);
      if (tex) gl.uniform2f(s.size, frame.inputSize[0], frame.inputSize[1]);
      else gl.uniform2f(s.size, 1, 1);
    }

    const passes = this.passBuffers;
    for (let i = 0; i < passes.length; i++) {
      // Buffers swap as passes run, so every pass sees the newest content of every buffer.
      for (let k = 0; k < this.buffers.length; k++) {
        const b = this.buffers[k]!;
        gl.activeTexture(gl.TEXTURE0 + b.unit);
        gl.bindTexture(gl.TEXTURE_2D, b.front!.texture);
        gl.uniform2f(this.bufferSize[k]!, b.front!.width, b.front!.height);
      }
      const buf = passes[i]!;
      const w = buf ? buf.back!.width : this.width;
      const h = buf ? buf.back!.height : this.height;
      gl.bindFramebuffer(gl.FRAMEBUFFER, buf ? buf.back!.framebuffer : frame.target);
      gl.viewport(0, 0, w, h);
      gl.uniform1i(u.passIndex, i);
      gl.uniform2f(u.renderSize, w, h);
      this.quad.draw();
      if (buf) [buf.front, buf.back] = [buf.back, buf.front];
    }

    const last = passes[passes.length - 1];
    if (last && this.copy) {
      // The last pass wrote into its buffer (so it persists); the frame's target gets a copy of it.
      gl.useProgram(this.copy.program);
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, last.front!.texture);
      gl.uniform1i(this.copy.src, 0);
      gl.bindFramebuffer(gl.FRAMEBUFFER, frame.target);
      gl.viewport(0, 0, this.width, this.height);
      this.quad.draw();
    }
  }

  /** Deletes every GL object this program created (the shared quad stays). Safe to call twice. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    const gl = this.gl;
    gl.deleteProgram(this.program);
    if (this.copy) gl.deleteProgram(this.copy.program);
    gl.deleteTexture(this.dummy);
    for (const i of this.imported.values()) releaseImported(gl, i.file, i.entry);
    for (const b of this.buffers) {
      if (b.front) b.front.destroy();
      if (b.back) b.back.destroy();
      b.front = b.back = null;
    }
  }
}

function safeEval(expr: SizeExpr, vars: Record<string, number>): number {
  try {
    return evalNode(expr, vars);
  } catch {
    return Number.NaN;
  }
}
