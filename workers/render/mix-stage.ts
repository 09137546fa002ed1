// The mixer's transition stage: while a take runs, or the T-bar rests between its ends, it draws program and
// preview into two targets of its own and blends them with an ISF transition (startImage, endImage, progress);
// otherwise it draws nothing, so an idle mixer costs no frame time and no second source draw.
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import type { MixCommand } from '../../src/shared/protocol/render.js';
import type { GL, Quad } from './gl-util.js';
import type { IsfFrame, IsfProgram } from './isf-program.js';
import { ProgramPool, type CompileCounts, type CompileResult } from './program-pool.js';
import { createTarget, type RenderTarget } from './targets.js';

export class MixStage {
  /** Its own pool: a transition may share a type name with a generator without the two replacing each other. */
  private readonly pool: ProgramPool;
  /** False when the pool is the engine's, shared by every layer's mixer. */
  private readonly ownsPool: boolean;
  private descs: IsfDescriptor[] = [];
  private program: IsfProgram | null = null;
  private type = '';
  /** Made on the first transition and kept: memory only, no per-frame cost while idle. */
  private targets: [RenderTarget, RenderTarget] | null = null;
  /** The T-bar position; an auto take starts from it. */
  private position = 0;
  private auto: { durationMs: number; from: number; startMs: number | null } | null = null;
  private readonly values: { progress: number } = { progress: 0 };
  private readonly images: Record<string, WebGLTexture> = {};

  constructor(
    private readonly gl: GL,
    quad: Quad,
    private width: number,
    private height: number,
    /** Spare transition programs kept at most. */
    cacheLimit?: number,
    /** The layers' shared transition pool (each mixer still takes its own program instance from it). */
    shared?: ProgramPool,
  ) {
    this.ownsPool = shared === undefined;
    this.pool = shared ?? new ProgramPool(gl, quad, width, height, cacheLimit);
  }

  /** Spare transition programs held now. */
  cachedPrograms(): number {
    return this.pool.cached();
  }

  setTransitions(descs: IsfDescriptor[]): CompileResult[] {
    this.descs = descs;
    return this.pool.setCatalog(descs);
  }

  /**
   * Applies a take or a T-bar move; throws when the transition is unknown or does not compile. True when it
   * starts a transition (a take, or the T-bar leaving the program end).
   */
  command(cmd: MixCommand): boolean {
    const idle = this.auto === null && this.position === 0;
    this.use(cmd.transition);
    // A transition starts at every take and when the T-bar leaves the program end: its time counts from 0 and
    // its buffers are cleared, as a new instance's would be (the program is kept between takes, not recompiled).
    if (cmd.op === 'take' || idle) this.program!.restart();
    if (cmd.op === 'take') {
      // A cut has no duration: the buses swap on the next frame.
      const durationMs = cmd.transition === 'cut' ? 0 : cmd.durationMs;
      this.auto = { durationMs, from: this.position, startMs: null };
    } else {
      this.auto = null;
      this.position = Math.min(1, Math.max(0, cmd.value));
    }
    return cmd.op === 'take' || idle;
  }

  /** The T-bar's held position while no take runs and a transition is chosen (what modulation moves), else null. */
  held(): number | null {
    return this.auto === null && this.program !== null ? this.position : null;
  }

  /** The transition's progress for this frame, or null while idle (the program alone is drawn). */
  progress(now: number): number | null {
    const a = this.auto;
    if (a) {
      // Progress 0 is the first frame drawn after the take, so the whole duration is seen however late it starts.
      if (a.startMs === null) a.startMs = now;
      if (a.durationMs <= 0) return 1;
      return Math.min(1, a.from + ((now - a.startMs) / a.durationMs) * (1 - a.from));
    }
    return this.position > 0 ? this.position : null;
  }

  /** The take completed (the buses swapped): back to idle with the T-bar at the program end. */
  finish(): void {
    this.auto = null;
    this.position = 0;
  }

  /** Draws both buses (via the callbacks) and blends them at `progress` into `target`. */
  draw(
    target: RenderTarget,
    ctx: IsfFrame,
    progress: number,
    program: (t: RenderTarget) => void,
    preview: (t: RenderTarget) => void,
  ): void {
    const t = (this.targets ??= [createTarget(this.gl, this.width, this.height), createTarget(this.gl, this.width, this.height)]);
    program(t[0]);
    preview(t[1]);
    this.images.startImage = t[0].texture;
    this.images.endImage = t[1].texture;
    this.values.progress = progress;
    ctx.input = null;
    ctx.images = this.images;
    ctx.target = target.framebuffer;
    ctx.values = this.values;
    try {
      this.program!.render(ctx);
    } finally {
      ctx.images = null;
    }
  }

  /** Compiles one used spare (between frames); true while more are waiting. */
  refill(): boolean {
    return this.pool.refill();
  }

  /** How many used spares wait to be compiled. */
  pending(): number {
    return this.pool.pending();
  }

  get compiles(): CompileCounts {
    return this.pool.compiles;
  }

  /** The render size changed: the blend targets are made again at the next transition. */
  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
    if (this.ownsPool) this.pool.resize(width, height);
    this.program?.resize(width, height);
    if (this.targets) for (const t of this.targets) t.destroy();
    this.targets = null;
  }

  destroy(): void {
    this.program?.destroy();
    this.program = null;
    if (this.targets) for (const t of this.targets) t.destroy();
    this.targets = null;
    if (this.ownsPool) this.pool.destroy();
  }

  private use(type: string): void {
    if (type === this.type && this.program) return;
    const desc = this.descs.find((d) => d.type === type);
    if (!desc) throw new Error(`transition "${type}" is not installed`);
    const next = this.pool.take(desc);
    this.program?.destroy();
    this.program = next;
    this.type = type;
  }
}
