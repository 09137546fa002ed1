// The render engine: the API the worker's main.ts, tests and benches drive. It sets up the stages of one GL context
// (engine-stages.ts), passes on the worker's settings and commands between frames (catalogs, stack, transitions,
// palette, output readback), sizes the picture for the render scale, and wires the loop (frame-loop.ts: pacing and
// idle time) to the frame (frame.ts: what one frame draws) and to thumbnail serving (engine-thumbs.ts).
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import type {
  LayerWire,
  MixCommand,
  PipelinePressure,
  RenderScaleSetting,
  RenderStats,
  SourceSpec,
  ThumbJob,
  ThumbReply,
} from '../../src/shared/protocol/render.js';
import { paletteUniform } from '../../src/shared/palette.js';
import type { Chain } from './chain.js';
import type { Fuser } from './fuse/fuser.js';
import type { GL } from './gl-util.js';
import { glCounts } from './gl-tracker.js';
import type { OutputStage } from './output-stage.js';
import type { CompileResult, ProgramPool } from './program-pool.js';
import { chooseReadback } from './program-readback.js';
import { FrameLoop } from './frame-loop.js';
import { FrameDrawer } from './frame.js';
import { EngineThumbs } from './engine-thumbs.js';
import { RenderStages, type EngineOptions } from './engine-stages.js';
import type { ReadbackSetting } from '../../src/shared/program-layout.js';
import type { OutputMapItem } from '../../src/shared/protocol/render.js';
import type { SourceStage } from './source-stage.js';
import type { MixStage } from './mix-stage.js';
import type { EffectRunner, Layer, SourceOutcome } from './layer.js';
import type { Compositor } from './compose/compositor.js';
import { ModulationStage } from './modulation/stage.js';
import { RenderScale, scaledSize } from './render-scale.js';

export type { EffectRunner, SourceOutcome } from './layer.js';
export type { EngineOptions } from './engine-stages.js';

export class RenderEngine {
  /** The master chain. */
  readonly chain: Chain<EffectRunner>;
  readonly pool: ProgramPool;
  readonly output: OutputStage;
  /** Blends layers over a base with the blend-mode files (workers/render/compose/). */
  readonly compositor: Compositor;
  /** Splits the enabled chain into fused runs and single effects (workers/render/fuse/). */
  readonly fuse: Fuser;
  /** Modulators of the chain, the generator, the T-bar and the dimmer, applied before each frame draws. */
  readonly modulation = new ModulationStage();
  private readonly stages: RenderStages;
  private readonly frames: FrameDrawer;
  private readonly thumbs: EngineThumbs;
  private readonly loop: FrameLoop;
  /** The scale the picture is drawn at (fixed, or chosen per frame time) and the size it gives. */
  private scaler: RenderScale;
  renderWidth: number;
  renderHeight: number;
  /** Called after each frame with the source switch it completed or gave up, if any. */
  onSource: (o: SourceOutcome) => void = () => {};
  /** Called after each frame with the cue it completed or gave up, if any. */
  onCue: (o: SourceOutcome) => void = () => {};
  /** Called after the first frame that shows a mix command (ok), or at once when it cannot run (`loadFailed`: its shader). */
  onMix: (id: number, error: string | null, loadFailed?: boolean) => void = () => {};
  /** Called after the frame on which a layer's take completed and its buses swapped. */
  onSwap: (layer: number, program: string, preview: string) => void = () => {};
  /** Called once a program ring frame newer than a seek's is on the output (or past its deadline). */
  onShown: (id: number, error: string | null) => void = () => {};
  /** Called at the start of every frame, before it draws, with its due instant (epoch ms): the scheduled operations' gate. */
  beforeDraw: (due: number) => void = () => {};
  /** Called after every frame: null when it rendered, the error message when it threw (the loop goes on). */
  onFrame: (error: string | null) => void = () => {};
  /** Test hook: this many coming frames throw, as frames on a broken context would. */
  failFrames = 0;
  /** Test hook: this many coming frames take at least `ms` longer, as frames of a heavy chain or a starved CPU would. */
  slowFrames = { ms: 0, frames: 0 };
  /** Reported in the stats; set by whoever rebuilt the context. */
  contextRestarts = 0;

  constructor(
    private readonly gl: GL,
    readonly width: number,
    readonly height: number,
    readonly fps: number,
    readonly renderer: string,
    /** RenderInit.counters as Int32; null where nobody reads them (tests, benches). */
    counters: Int32Array | null = null,
    opts: EngineOptions = {},
  ) {
    const t0 = performance.now(); // the loop's clock: the frame's TIME counts from it
    const period = 1000 / fps;
    this.scaler = new RenderScale(opts.scale ?? { scale: 1, minScale: 1 }, period);
    [this.renderWidth, this.renderHeight] = scaledSize(width, height, this.scaler.scale);
    const s = (this.stages = new RenderStages(gl, width, height, this.renderWidth, this.renderHeight, counters, opts, {
      onSource: (o) => this.onSource(o),
      onCue: (o) => this.onCue(o),
      onMix: (id, error, loadFailed) => this.onMix(id, error, loadFailed),
      onSwap: (layer, program, preview) => this.onSwap(layer, program, preview),
      onShown: (id, error) => this.onShown(id, error),
    }));
    ({ chain: this.chain, pool: this.pool, output: this.output, compositor: this.compositor, fuse: this.fuse } = s);
    this.frames = new FrameDrawer(s, this, t0);
    this.loop = new FrameLoop(period, {
      // A preview that could not wait for this frame is drawn before it (rare unless frames run long).
      beforeFrame: () => this.thumbs.serveUrgent(),
      frame: (now, due) => {
        this.beforeDraw(due);
        if (this.failFrames > 0) {
          this.failFrames--;
          throw new Error('injected frame failure (test hook)');
        }
        this.renderFrame(now, due);
      },
      onFrame: (error) => this.onFrame(error),
      skipped: (slots) => {
        s.stats.dropped += slots;
      },
      idle: (next) => this.idle(next),
    });
    this.thumbs = new EngineThumbs(s, fps, this.loop, this.frames);
  }

  /**
   * Queues a thumbnail job for the slot after the next frame: one job (the earliest deadline, and any that could
   * not wait another frame) is served even when frames leave no idle time; more only in the idle time. A burst of
   * thumbnail requests therefore slows thumbnails down (the main thread's queue fills and refuses work) instead of
   * the output's frame rate, and slow frames do not starve a preview past its budget.
   */
  queueThumb(job: ThumbJob, done: (reply: ThumbReply) => void): void {
    this.thumbs.queue(job, done);
  }

  /** Runs a thumbnail job now (this thread is the only one drawing). Throws on GL failures. */
  thumb(job: ThumbJob): ThumbReply {
    return this.thumbs.draw(job);
  }

  /** The effect and generator catalogs and the no-signal generator; returns the compile results of what changed. */
  setCatalog(effects: IsfDescriptor[], generators: IsfDescriptor[], noSignal: IsfDescriptor | null): CompileResult[] {
    return this.stages.setCatalog(effects, generators, noSignal);
  }

  /** The layer blend modes (the compositor compiles them); returns the compile results of what changed. */
  setBlends(items: IsfDescriptor[]): CompileResult[] {
    return this.compositor.setBlends(items);
  }

  /** Starts (a ring) or stops (null) the per-frame program readback for the output worker. */
  setOutputRing(ring: SharedArrayBuffer | null): void {
    this.stages.setOutputRing(ring);
  }

  /** Output mapping: the mapped outputs that run now (an empty list: none). */
  setOutputMaps(items: readonly OutputMapItem[]): void {
    this.stages.maps.set(items);
  }

  /** Pixel mapping: samples the output at `samples` (4 floats per pixel) into `block` every frame; null stops it. */
  setPixelMap(samples: Float32Array | null, block: SharedArrayBuffer | null): void {
    this.stages.pixels.set(samples, block);
  }

  /** A new render.scale setting (a config reload): a fixed factor applies from the next frame, "auto" starts at 1. */
  setScale(setting: RenderScaleSetting): void {
    this.scaler = new RenderScale(setting, this.loop.period);
    this.resize(this.scaler.scale);
  }

  /** Sizes every render-size target and program for `scale` (between frames); feedback buffers start over. */
  private resize(scale: number): void {
    const [w, h] = scaledSize(this.width, this.height, scale);
    if (w === this.renderWidth && h === this.renderHeight) return;
    this.renderWidth = w;
    this.renderHeight = h;
    this.frames.resized(w, h, this.stages.ping);
    this.stages.resize(w, h);
  }

  setPalette(colors: string[]): void {
    this.stages.palette = paletteUniform(colors);
  }

  /** The bottom layer's source stage and mixer (engines made outside the server have that one layer). */
  get source(): SourceStage {
    return this.layer().source;
  }

  get mix(): MixStage {
    return this.layer().mix;
  }

  /** The layer with id `id` (the bottom layer when absent); throws for an id the stack does not hold. */
  layer(id?: number): Layer {
    const l = id === undefined ? this.stages.layers.order[0] : this.stages.layers.get(id);
    if (!l) throw new Error(`layer ${id} does not exist`);
    return l;
  }

  /** Every layer, bottom to top. */
  stack(): readonly Layer[] {
    return this.stages.layers.order;
  }

  /** Replaces the stack (order and blending): new ids get a layer, missing ones are dropped. */
  setLayers(wires: readonly LayerWire[]): void {
    this.stages.setLayers(wires);
  }

  /** The transitions every mixer and scene recall offers; returns the compile results of what changed. */
  setTransitions(descs: IsfDescriptor[]): CompileResult[] {
    return this.stages.setTransitions(descs);
  }

  /** Holds the output as it is and blends the coming pictures over it with `transition` (a scene recall). */
  startPicture(transition: string, durationMs: number): void {
    this.stages.picture.start(this.output.target.texture, transition, durationMs);
  }

  /** Queues a source switch on a layer; it happens on the first frame the new source can draw, unless its deadline passes. */
  requestSource(id: number, key: string, deadline: number, spec: SourceSpec, layer?: number): void {
    this.layer(layer).requestSource(id, key, deadline, spec);
  }

  /** Queues a cue on a layer: the source goes on its preview bus on the first frame it can draw. */
  requestCue(id: number, key: string, deadline: number, spec: SourceSpec, layer?: number): void {
    this.layer(layer).requestCue(id, key, deadline, spec);
  }

  /**
   * Answers (onShown) after the first output frame that drew a ring frame of program `key` newer than `afterFrame`
   * (on a hidden layer: took it up).
   */
  waitShown(id: number, key: string, afterFrame: number, deadline: number, layer?: number): void {
    this.layer(layer).waitShown(id, key, afterFrame, deadline);
  }

  /** Applies a take or a T-bar move on a layer; answered (onMix) after the next frame drawn. */
  mixCommand(id: number, cmd: MixCommand, layer?: number): void {
    this.layer(layer).mixCommand(id, cmd);
  }

  start(): void {
    this.loop.start();
  }

  stop(): void {
    this.loop.stop();
  }

  /** The time between frames: thumbnail jobs past their guaranteed slice, then spare programs, then fused ones. */
  private idle(next: number): void {
    this.thumbs.serve();
    this.stages.idle(next, this.loop.period);
  }

  /** Draws one frame (frame.ts). `due`: the frame's due instant in epoch ms (clockNow's base); by default now. */
  renderFrame(now = performance.now(), due = performance.timeOrigin + now): void {
    this.frames.draw(now, due);
    const next = this.scaler.record(this.frames.frameMs, this.frames.readbackMs);
    if (next !== null) this.resize(next);
  }

  /** The program layout this GPU reads back best, measured on the output target (render main.ts, once). */
  chooseReadback(setting: ReadbackSetting): ReturnType<typeof chooseReadback> {
    return chooseReadback(this.gl, this.stages.quad, this.output.target, setting);
  }

  /** The main thread's report on the encoders and itself: an automatic scale may step down for them. */
  pressure(p: PipelinePressure): void {
    const next = this.scaler.pressure(p);
    if (next !== null) this.resize(next);
  }

  snapshotStats(): RenderStats {
    const stats = this.stages.stats;
    const { p50, p99 } = stats.percentiles();
    const { programs, programCompiles } = this.stages.programStats();
    return {
      targetFps: this.fps,
      fps: stats.fps(performance.now()),
      frameMsP50: p50,
      frameMsP99: p99,
      droppedFrames: stats.dropped,
      frames: stats.frames,
      renderer: this.renderer,
      contextRestarts: this.contextRestarts,
      gl: glCounts(this.gl),
      programs,
      ...this.fuse.stats(),
      fusedPrograms: this.fuse.programs(),
      programCompiles,
      scale: this.scaler.scale,
      renderWidth: this.renderWidth,
      renderHeight: this.renderHeight,
      scaleLimit: this.scaler.limit(),
    };
  }

  /** Frees the GL context itself (after destroy, or instead of it when the context is broken). */
  releaseContext(): void {
    try {
      this.gl.getExtension('STACKGL_destroy_context')?.destroy();
    } catch {
      // already gone
    }
  }

  destroy(): void {
    this.stop();
    this.stages.destroy(() => this.thumbs.destroy());
  }
}
