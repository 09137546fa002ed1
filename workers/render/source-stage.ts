// The source stage: draws the current source (generator, ingest frame ring, or black) into the first buffer of
// the chain, and holds a pending source until it has a frame, so a failed activation never interrupts the output.
// It also holds the mixer's preview bus (the cued source, warm but not drawn unless a transition shows it).
import type { SourceSpec } from '../../src/shared/protocol/render.js';
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import { FrameRingReader } from '../../src/shared/frame-ring.js';
import { BLIT_VERTEX, compileProgram, type GL, type Quad } from './gl-util.js';
import type { IsfFrame, IsfProgram } from './isf-program.js';
import type { RenderTarget } from './targets.js';
import type { ProgramPool } from './program-pool.js';

/** A live input that delivered no frame for this long shows the "no signal" card (spec: live frame freshness). */
export const FRESH_MS = 2000;
const NO_VALUES: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

// Fits the frame's content rectangle into the render size keeping its aspect (black bars), flipping the
// top-down ingest rows into GL's bottom-up orientation.
const LETTERBOX = `
precision mediump float;
uniform sampler2D frame;
uniform vec4 rect; // x, y, width, height of the picture in output pixels (GL orientation)
void main() {
  vec2 p = (gl_FragCoord.xy - rect.xy) / rect.zw;
  if (p.x < 0.0 || p.y < 0.0 || p.x > 1.0 || p.y > 1.0) { gl_FragColor = vec4(0.0, 0.0, 0.0, 1.0); return; }
  gl_FragColor = vec4(texture2D(frame, vec2(p.x, 1.0 - p.y)).rgb, 1.0);
}`;

/** The frame record the engine reuses for every pass of a frame (no per-pass allocations). */
export type DrawContext = IsfFrame;

export type Active =
  | { kind: 'none' }
  | { kind: 'generator'; program: IsfProgram; values: Record<string, unknown> }
  | {
      kind: 'ring';
      reader: FrameRingReader;
      live: boolean;
      immediate: boolean;
      afterFrame: number;
      texture: WebGLTexture | null;
      texW: number;
      texH: number;
      frameNo: number;
    };

export interface Pending {
  id: number;
  key: string;
  deadline: number;
  source: Active;
}

export class SourceStage {
  private current: Active = { kind: 'none' };
  currentKey = '';
  pending: Pending | null = null;
  /** The preview bus: cued, warm, drawn only while a transition shows it. */
  cued: Active | null = null;
  cuedKey = '';
  /** A cue waiting for its source's first frame. */
  pendingCue: Pending | null = null;
  private readonly letterbox: WebGLProgram;
  private readonly uRect: WebGLUniformLocation | null;
  private readonly uFrame: WebGLUniformLocation | null;
  private noSignal: IsfProgram | null = null;

  constructor(
    private readonly gl: GL,
    private readonly quad: Quad,
    private readonly pool: ProgramPool,
    private width: number,
    private height: number,
  ) {
    this.letterbox = compileProgram(gl, BLIT_VERTEX, LETTERBOX);
    this.uRect = gl.getUniformLocation(this.letterbox, 'rect');
    this.uFrame = gl.getUniformLocation(this.letterbox, 'frame');
  }

  /** This frame's modulated values of the program generator (the modulation stage sets them); null: its set values. */
  applied: Record<string, unknown> | null = null;

  /** The program generator (its program and set values), or null when the program is not a generator. */
  programGenerator(): { readonly program: IsfProgram; readonly values: Record<string, unknown> } | null {
    return this.current.kind === 'generator' ? this.current : null;
  }

  /** Events of the program generator fired by the last values message: cleared after the frame that showed them. */
  private firing: string[] = [];

  /**
   * Replaces the program generator's input values (POST /sources/params, validated on the main thread); `fire` are
   * events set for one frame. False when `key` is not the current source or not a generator (nothing changed).
   */
  setGeneratorValues(key: string, values: Record<string, unknown>, fire: string[]): boolean {
    const c = this.current;
    if (key !== this.currentKey || c.kind !== 'generator') return false;
    c.values = { ...values };
    this.firing = fire;
    return true;
  }

  private endEvents(source: Extract<Active, { kind: 'generator' }>): void {
    const next = { ...source.values };
    for (const name of this.firing) delete next[name];
    source.values = next;
    this.firing = [];
  }

  setNoSignal(desc: IsfDescriptor | null): void {
    this.noSignal?.destroy();
    this.noSignal = null;
    if (desc) this.noSignal = this.pool.take(desc);
  }

  /** Builds a source for `spec` (throws when a generator cannot compile). */
  build(spec: SourceSpec, generators: readonly IsfDescriptor[]): Active {
    if (spec.kind === 'none') return { kind: 'none' };
    if (spec.kind === 'generator') {
      const desc = generators.find((d) => d.type === spec.type);
      if (!desc) throw new Error(`generator "${spec.type}" is not installed`);
      return { kind: 'generator', program: this.pool.take(desc), values: { ...spec.inputs } };
    }
    const gl = this.gl;
    const texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    return {
      kind: 'ring',
      reader: new FrameRingReader(spec.ring),
      live: spec.live,
      immediate: spec.immediate === true,
      afterFrame: spec.afterFrame ?? 0,
      texture,
      texW: 0,
      texH: 0,
      frameNo: -1,
    };
  }

  /**
   * A pending source can take over once it has something to show: a frame of its reader's current run, never the
   * last frame of a run that ended (a sender that just disconnected).
   */
  ready(source: Active): boolean {
    if (source.kind !== 'ring' || source.immediate) return true;
    return source.reader.frameCount() > source.afterFrame && source.reader.currentRun();
  }

  /**
   * Whether the program `key` has drawn a ring frame newer than `afterFrame`, by the pending-source rule (a frame of
   * the reader's current run); null when `key` is not the program (nothing of it on the output to wait for).
   */
  drawnAfter(key: string, afterFrame: number): boolean | null {
    const c = this.current;
    if (key !== this.currentKey || c.kind !== 'ring') return null;
    return c.frameNo > afterFrame && c.reader.currentRun();
  }

  /** Makes `source` current, releasing the previous one. */
  commit(key: string, source: Active): void {
    this.release(this.current);
    this.current = source;
    this.currentKey = key;
  }

  /** Puts `source` on the preview bus, releasing what was cued before. */
  setCued(key: string, source: Active): void {
    if (this.cued) this.release(this.cued);
    this.cued = source;
    this.cuedKey = key;
  }

  /** A take completed: the preview becomes the program and the old program waits on preview. */
  swap(): void {
    if (!this.cued) return;
    const program = this.current;
    const key = this.currentKey;
    this.current = this.cued;
    this.currentKey = this.cuedKey;
    this.cued = program.kind === 'none' ? null : program;
    this.cuedKey = program.kind === 'none' ? '' : key;
  }

  /** A transition to the preview bus started: a generator there starts over (time from 0, buffers cleared). */
  restartCued(): void {
    if (this.cued?.kind === 'generator') this.cued.program.restart();
  }

  drop(source: Active): void {
    this.release(source);
  }

  /** Draws `source` (default: the current one) into `target`. */
  draw(target: RenderTarget, ctx: DrawContext, source: Active = this.current): void {
    const gl = this.gl;
    if (source.kind === 'generator') {
      ctx.input = null;
      ctx.target = target.framebuffer;
      ctx.values = source === this.current && this.applied ? this.applied : source.values;
      source.program.render(ctx);
      if (source === this.current && this.firing.length > 0) this.endEvents(source);
      return;
    }
    if (source.kind === 'ring') {
      // A media file's frames may be seconds apart (variable frame rate, stills); it only counts as stale once
      // its reader is down, whereas a live input is expected to keep delivering.
      const stale =
        (source.live || source.reader.down()) &&
        (source.reader.frameCount() === 0 || Date.now() - source.reader.lastFrameTimeMs() > FRESH_MS);
      if (stale && this.noSignal) {
        ctx.input = null;
        ctx.target = target.framebuffer;
        ctx.values = NO_VALUES;
        this.noSignal.render(ctx);
        return;
      }
      if (this.upload(source)) {
        this.drawFrame(target, source);
        return;
      }
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
    gl.viewport(0, 0, this.width, this.height);
    gl.clearColor(0, 0, 0, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
  }

  /** The render size changed: generators on either bus, waiting or not, draw at the new size from the next frame. */
  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
    for (const s of [this.current, this.cued, this.pending?.source, this.pendingCue?.source]) {
      if (s?.kind === 'generator') s.program.resize(width, height);
    }
    this.noSignal?.resize(width, height);
  }

  destroy(): void {
    if (this.pending) this.release(this.pending.source);
    this.pending = null;
    if (this.pendingCue) this.release(this.pendingCue.source);
    this.pendingCue = null;
    if (this.cued) this.release(this.cued);
    this.cued = null;
    this.release(this.current);
    this.current = { kind: 'none' };
    this.noSignal?.destroy();
    this.gl.deleteProgram(this.letterbox);
  }

  /** Uploads the newest ring frame when it changed; false when the ring has no frame yet. */
  private upload(s: Extract<Active, { kind: 'ring' }>): boolean {
    const frame = s.reader.acquire();
    if (!frame) return s.texW > 0;
    if (frame.frameNo !== s.frameNo) {
      const gl = this.gl;
      gl.bindTexture(gl.TEXTURE_2D, s.texture);
      gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
      if (frame.width !== s.texW || frame.height !== s.texH) {
        gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, frame.width, frame.height, 0, gl.RGBA, gl.UNSIGNED_BYTE, frame.pixels);
        s.texW = frame.width;
        s.texH = frame.height;
      } else {
        gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, frame.width, frame.height, gl.RGBA, gl.UNSIGNED_BYTE, frame.pixels);
      }
      // A frame overwritten while it was uploaded is uploaded again next time rather than kept torn.
      s.frameNo = s.reader.release() ? frame.frameNo : -1;
    } else {
      s.reader.release();
    }
    return true;
  }

  private drawFrame(target: RenderTarget, s: Extract<Active, { kind: 'ring' }>): void {
    const gl = this.gl;
    const scale = Math.min(this.width / s.texW, this.height / s.texH);
    const w = s.texW * scale;
    const h = s.texH * scale;
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
    gl.viewport(0, 0, this.width, this.height);
    gl.useProgram(this.letterbox);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, s.texture);
    gl.uniform1i(this.uFrame, 0);
    gl.uniform4f(this.uRect, (this.width - w) / 2, (this.height - h) / 2, w, h);
    this.quad.draw();
  }

  private release(s: Active): void {
    if (s.kind === 'generator') s.program.destroy();
    if (s.kind === 'ring') this.gl.deleteTexture(s.texture);
  }
}
