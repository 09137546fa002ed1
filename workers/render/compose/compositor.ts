// The layer compositor: blends visible layers bottom to top over a base with the blend-mode files' functions, in one
// generated pass per chunk of layers (as many as the texture units allow), or one pass per layer with each mode's
// own ISF program (onePass off, or a mode whose functions do not compile in the generated pass).
import type { IsfDescriptor } from '../../../src/shared/isf-types.js';
import type { GL, Quad } from '../gl-util.js';
import type { IsfFrame, IsfProgram } from '../isf-program.js';
import { ProgramPool, type CompileResult } from '../program-pool.js';
import { createTarget, uploadRgba, type RenderTarget } from '../targets.js';
import { blendCode, type BlendCode } from './blend-source.js';
import { OnePassCache } from './one-pass-cache.js';
import { clampOpacity, type OnePassProgram } from './one-pass.js';

export interface ComposeLayer {
  texture: WebGLTexture;
  opacity: number;
  blend: string;
}

/** Layers one generated pass composes at most (the layer maximum). */
const MAX_PER_PASS = 8;
/** Compositions kept compiled when the engine names no limit. */
const DEFAULT_CACHE = 16;

export class Compositor {
  private readonly onePass: boolean;
  /** The blend files' standalone programs: compiled at load so a broken file is reported, and the per-pass path. */
  private readonly pool: ProgramPool;
  private descs = new Map<string, IsfDescriptor>();
  private readonly programs = new Map<string, IsfProgram>();
  private readonly code = new Map<string, BlendCode | null>();
  private readonly cache: OnePassCache;
  /** Layers per generated pass: the texture units less the base's. */
  private readonly perPass: number;
  private black: WebGLTexture | null = null;
  private targets: [RenderTarget, RenderTarget] | null = null;
  private passes = 0;
  private readonly images: Record<string, WebGLTexture> = {};
  private readonly values: { opacity: number } = { opacity: 1 };
  private readonly chunk: ComposeLayer[] = [];
  private readonly modeList: string[] = [];
  private readonly chunkPrograms: OnePassProgram[] = [];

  constructor(
    private readonly gl: GL,
    quad: Quad,
    private width: number,
    private height: number,
    /** maxPerPass: fewer layers per generated pass than the texture units allow (tests of the chunked path). */
    opts: { onePass?: boolean; cacheLimit?: number; maxPerPass?: number } = {},
  ) {
    this.onePass = opts.onePass ?? true;
    // Drawing in one pass, a file's own program serves only its compile check and the fallback: one spare is
    // kept, so a folder of many blend files costs no GL memory per file.
    this.pool = new ProgramPool(gl, quad, width, height, this.onePass ? 1 : Number.POSITIVE_INFINITY);
    const units = Number(gl.getParameter(gl.MAX_TEXTURE_IMAGE_UNITS)) || 8;
    this.perPass = Math.max(1, Math.min(opts.maxPerPass ?? MAX_PER_PASS, MAX_PER_PASS, units - 1));
    this.cache = new OnePassCache(gl, quad, opts.cacheLimit ?? DEFAULT_CACHE, (mode) => this.codeOf(mode));
  }

  /** Replaces the blend modes; compiles each file now and returns the results of what changed. */
  setBlends(descs: IsfDescriptor[]): CompileResult[] {
    const results = this.pool.setCatalog(descs);
    this.descs = new Map(descs.map((d) => [d.type, d]));
    for (const p of this.programs.values()) p.destroy();
    this.programs.clear();
    this.code.clear();
    this.cache.clear();
    return results;
  }

  /** The installed modes whose files compiled. */
  modes(): string[] {
    return [...this.descs.values()].filter((d) => this.pool.errorOf(d) === null).map((d) => d.type);
  }

  /** Queues the composition of `modes` (bottom first) to compile in the idle time, before a frame needs it. */
  prepare(modes: readonly string[]): void {
    if (!this.onePass) return;
    for (let i = 0; i < modes.length; i += this.perPass) this.cache.prepare(modes.slice(i, i + this.perPass).map((m) => this.resolve(m)));
  }

  /** Compiles one prepared composition or standalone spare (between frames); true while more wait. */
  idle(): boolean {
    return this.cache.compileOne() || this.pool.refill();
  }

  /** Draws `layers` (bottom to top, already visible ones only) blended over `base` (a texture, or null for black) into `target`. */
  draw(target: WebGLFramebuffer | null, base: WebGLTexture | null, layers: readonly ComposeLayer[], ctx: IsfFrame): void {
    const below = base ?? this.blackTexture();
    if (!this.onePass || !this.drawOnePass(target, below, layers, ctx)) this.drawPerPass(target, below, layers, ctx);
  }

  /** Passes the last draw took (for stats and the bench). */
  lastPasses(): number {
    return this.passes;
  }

  /** Compositions compiled while a frame waited, and those held now. */
  stats(): { onDemand: number; cached: number } {
    return { onDemand: this.cache.onDemand, cached: this.cache.size() };
  }

  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
    this.pool.resize(width, height);
    for (const p of this.programs.values()) p.resize(width, height);
    this.dropTargets();
  }

  destroy(): void {
    for (const p of this.programs.values()) p.destroy();
    this.programs.clear();
    this.cache.clear();
    this.pool.destroy();
    this.dropTargets();
    this.gl.deleteTexture(this.black);
    this.black = null;
  }

  /** False (nothing drawn) when some chunk's composition is not available: the caller draws pass by pass. */
  private drawOnePass(target: WebGLFramebuffer | null, base: WebGLTexture, layers: readonly ComposeLayer[], ctx: IsfFrame): boolean {
    const chunks = Math.max(1, Math.ceil(layers.length / this.perPass));
    // Every chunk's program first: a missing one switches the whole draw to the other path before anything is drawn.
    const programs = this.chunkPrograms;
    programs.length = 0;
    for (let c = 0; c < chunks; c++) {
      const p = this.cache.get(this.chunkModes(layers, c));
      if (!p) return false;
      programs.push(p);
    }
    let below = base;
    for (let c = 0; c < chunks; c++) {
      const program = programs[c]!;
      this.chunk.length = 0;
      for (let i = c * this.perPass; i < Math.min(layers.length, (c + 1) * this.perPass); i++) this.chunk.push(layers[i]!);
      const last = c === chunks - 1;
      const t = last ? null : this.target(c % 2);
      program.render(last ? target : t!.framebuffer, below, this.chunk, ctx, this.width, this.height);
      if (t) below = t.texture;
    }
    this.passes = chunks;
    return true;
  }

  private drawPerPass(target: WebGLFramebuffer | null, base: WebGLTexture, layers: readonly ComposeLayer[], ctx: IsfFrame): void {
    if (layers.length === 0) {
      // Nothing to blend: the base alone, through the same generated copy the one-pass path uses.
      this.cache.get([])!.render(target, base, [], ctx, this.width, this.height);
      this.passes = 1;
      return;
    }
    const saved = { input: ctx.input, images: ctx.images, values: ctx.values, target: ctx.target };
    let below = base;
    try {
      for (let i = 0; i < layers.length; i++) {
        const l = layers[i]!;
        const last = i === layers.length - 1;
        const t = last ? null : this.target(i % 2);
        this.images.baseImage = below;
        this.images.layerImage = l.texture;
        this.values.opacity = clampOpacity(l.opacity);
        ctx.input = null;
        ctx.images = this.images;
        ctx.values = this.values;
        ctx.target = last ? target : t!.framebuffer;
        this.program(this.resolve(l.blend)).render(ctx);
        if (t) below = t.texture;
      }
    } finally {
      Object.assign(ctx, saved);
    }
    this.passes = layers.length;
  }

  private chunkModes(layers: readonly ComposeLayer[], c: number): string[] {
    const modes = this.modeList;
    modes.length = 0;
    for (let i = c * this.perPass; i < Math.min(layers.length, (c + 1) * this.perPass); i++) modes.push(this.resolve(layers[i]!.blend));
    return modes;
  }

  /** A mode that is not installed, or whose file does not compile, draws as `normal`. */
  private resolve(mode: string): string {
    const d = this.descs.get(mode);
    return d && this.pool.errorOf(d) === null ? mode : 'normal';
  }

  private program(mode: string): IsfProgram {
    let p = this.programs.get(mode);
    if (!p) {
      const desc = this.descs.get(mode);
      if (!desc) throw new Error(`blend "${mode}" is not installed`);
      p = this.pool.take(desc);
      this.programs.set(mode, p);
    }
    return p;
  }

  private codeOf(mode: string): BlendCode | null {
    if (!this.code.has(mode)) {
      const desc = this.descs.get(mode);
      let c: BlendCode | null = null;
      try {
        // The prefix numbers modes in the order first composed: unique within every generated shader.
        if (desc) c = blendCode(desc, `vjd_m${this.code.size}_`);
      } catch {
        c = null;
      }
      this.code.set(mode, c);
    }
    return this.code.get(mode)!;
  }

  private target(i: number): RenderTarget {
    const t = (this.targets ??= [createTarget(this.gl, this.width, this.height), createTarget(this.gl, this.width, this.height)]);
    return t[i]!;
  }

  private dropTargets(): void {
    if (this.targets) for (const t of this.targets) t.destroy();
    this.targets = null;
  }

  private blackTexture(): WebGLTexture {
    if (!this.black) {
      this.black = this.gl.createTexture()!;
      uploadRgba(this.gl, this.black, 1, 1, new Uint8Array([0, 0, 0, 255]));
    }
    return this.black;
  }
}
