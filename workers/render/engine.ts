// The render loop: each visible layer (its source, or during its take program and preview blended by its mixer,
// then its own chain) → the layers blended bottom to top → the master chain (ping-pong targets) → dimmer/blackout
// → output, paced at the configured fps with drift-free scheduling that skips frames rather than queueing them.
// One opaque layer runs source, layer chain and master chain as one sequence, as a single source always did.
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import {
  RENDER_COUNTERS,
  type LayerWire,
  type MixCommand,
  type PipelinePressure,
  type RenderInit,
  type RenderScaleSetting,
  type RenderStats,
  type SourceSpec,
  type ThumbJob,
  type ThumbReply,
} from '../../src/shared/messages.js';
import { paletteUniform } from '../../src/shared/palette.js';
import { Chain } from './chain.js';
import { FrameStats } from './frame-stats.js';
import { CompileHelper } from './fuse/compile-helper.js';
import { Fuser } from './fuse/fuser.js';
import { Quad, type GL } from './gl-util.js';
import { glCounts } from './gl-tracker.js';
import type { IsfFrame } from './isf-program.js';
import { isfDate } from './isf-builtins.js';
import { AudioFrame } from './audio-frame.js';
import { AudioTextures } from './audio-textures.js';
import { createTarget, setFilter, type RenderTarget } from './targets.js';
import { OutputStage } from './output-stage.js';
import { ProgramPool, type CompileResult } from './program-pool.js';
import { chooseReadback, ProgramReadback } from './program-readback.js';
import { FrameLoop } from './frame-loop.js';
import type { ReadbackSetting } from '../../src/shared/program-layout.js';
import type { SourceStage } from './source-stage.js';
import type { MixStage } from './mix-stage.js';
import { Layer, type EffectRunner, type LayerDeps, type SourceOutcome } from './layer.js';
import type { FuseStep } from './fuse/fuser.js';
import { Compositor, type ComposeLayer } from './compose/compositor.js';
import { PictureStage } from './picture-stage.js';
import { ThumbSchedule } from './thumb-schedule.js';
import { ThumbStage } from './thumb-stage.js';
import { ModulationStage } from './modulation/stage.js';
import { RenderScale, scaledSize } from './render-scale.js';

/** Never signalled: Atomics.wait on it is a plain sleep (the slow-frames test hook). */
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

export type { EffectRunner, SourceOutcome } from './layer.js';

export class RenderEngine {
  readonly chain: Chain<EffectRunner>;
  readonly pool: ProgramPool;
  readonly output: OutputStage;
  /** The layers by id, and the stack bottom to top (never empty: a new engine has layer 1). */
  private readonly layers = new Map<number, Layer>();
  private order: Layer[] = [];
  /** The transition programs, shared by every layer's mixer. */
  private readonly transitions: ProgramPool;
  private transitionDescs: IsfDescriptor[] = [];
  private noSignal: IsfDescriptor | null = null;
  private readonly layerDeps: LayerDeps;
  /** Blends layers over a base with the blend-mode files (workers/render/compose/). */
  readonly compositor: Compositor;
  /** A scene recall's whole-picture transition (the old output held, the new picture blended over it). */
  private readonly picture: PictureStage;
  /** Splits the enabled chain into fused runs and single effects (workers/render/fuse/). */
  readonly fuse: Fuser;
  private readonly thumbs: ThumbStage;
  private readonly quad: Quad;
  private ping: [RenderTarget, RenderTarget];
  /** The scale the picture is drawn at (fixed, or chosen per frame time) and the size it gives. */
  private scaler: RenderScale;
  renderWidth: number;
  renderHeight: number;
  /** Whether each ping target's texture samples NEAREST now (set only when a step needs the other filter). */
  private readonly nearest = new Map<RenderTarget, boolean>();
  private readonly stats = new FrameStats();
  private effects: IsfDescriptor[] = [];
  private generators: IsfDescriptor[] = [];
  private palette = paletteUniform([]);
  private readonly t0 = performance.now();
  private lastTime = 0;
  private frameIndex = 0;
  /** Frames drawn to the output; continues the counter's value so a rebuilt context never reuses a frame number. */
  private outputFrames: number;
  private readonly thumbJobs: ThumbSchedule;
  private readonly loop: FrameLoop;
  private readonly period: number;
  /** One frame record, refilled per frame and per pass: the steady state allocates nothing per frame. */
  private readonly frame: IsfFrame;
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
  /** Called after every frame: null when it rendered, the error message when it threw (the loop goes on). */
  onFrame: (error: string | null) => void = () => {};
  /** Test hook: this many coming frames throw, as frames on a broken context would. */
  failFrames = 0;
  /** Test hook: this many coming frames take at least `ms` longer, as frames of a heavy chain or a starved CPU would. */
  slowFrames = { ms: 0, frames: 0 };
  /** Spare programs kept at most, effects and generators plus transitions (reported in the stats). */
  private readonly cacheLimit: number;
  /** Reported in the stats; set by whoever rebuilt the context. */
  contextRestarts = 0;
  /** The audio of the frame being drawn: built-in values and ISF audio textures. */
  private readonly audio: AudioFrame;
  /** Modulators of the chain, the generator, the T-bar and the dimmer, applied before each frame draws. */
  readonly modulation = new ModulationStage();
  /** Set while an output is active: every frame is read back into its ring. */
  private readback: ProgramReadback | null = null;

  constructor(
    private readonly gl: GL,
    readonly width: number,
    readonly height: number,
    readonly fps: number,
    readonly renderer: string,
    /** RenderInit.counters as Int32; null where nobody reads them (tests, benches). */
    private readonly counters: Int32Array | null = null,
    /** compileHelper: fused shaders compile in a helper process first (compile-helper.ts); the server's worker sets it. */
    opts: {
      fuse?: boolean;
      compileHelper?: boolean;
      audio?: { block: SharedArrayBuffer; tempo: SharedArrayBuffer };
      programCache?: RenderInit['programCache'];
      scale?: RenderScaleSetting;
      /** Composition of two or more layers; onePass false draws one pass per layer (benches compare the two). */
      compose?: { onePass?: boolean };
    } = {},
  ) {
    this.period = 1000 / fps;
    this.scaler = new RenderScale(opts.scale ?? { scale: 1, minScale: 1 }, this.period);
    [this.renderWidth, this.renderHeight] = scaledSize(width, height, this.scaler.scale);
    const rw = this.renderWidth;
    const rh = this.renderHeight;
    this.outputFrames = counters ? Atomics.load(counters, RENDER_COUNTERS.outputFrame) : 0;
    this.frame = {
      input: null,
      inputSize: [rw, rh],
      target: null,
      time: 0,
      timeDelta: 0,
      frameIndex: 0,
      date: isfDate(),
      palette: this.palette,
      values: {},
      // Every program drawn by the loop keeps its own TIME and FRAMEINDEX (time and frameIndex here are the loop's).
      instanceClock: true,
    };
    this.audio = new AudioFrame(opts.audio?.block ?? null, opts.audio?.tempo ?? null);
    this.audio.textures = new AudioTextures(gl, this.audio);
    this.frame.audio = this.audio;
    this.quad = new Quad(gl);
    // 0 reads "no limit": engines made outside the server (tests, benches) keep every spare.
    this.cacheLimit = opts.programCache ? opts.programCache.programs + opts.programCache.transitions : 0;
    this.pool = new ProgramPool(gl, this.quad, rw, rh, opts.programCache?.programs);
    const fuse = opts.fuse ?? true;
    this.fuse = new Fuser(
      gl,
      this.quad,
      rw,
      rh,
      fuse,
      fuse && opts.compileHelper ? new CompileHelper(rw, rh) : null,
      opts.programCache?.fused,
    );
    this.chain = new Chain<EffectRunner>({
      catalog: () => this.effects,
      instantiate: (desc) => {
        const program = this.pool.take(desc);
        return { program, destroy: () => program.destroy(), restart: () => program.restart() };
      },
    });
    // The output keeps the configured size: outputs, previews and thumbnails read it.
    this.output = new OutputStage(gl, this.quad, width, height);
    this.transitions = new ProgramPool(gl, this.quad, rw, rh, opts.programCache?.transitions);
    this.layerDeps = {
      gl,
      quad: this.quad,
      pool: this.pool,
      transitions: this.transitions,
      effects: () => this.effects,
      generators: () => this.generators,
      events: {
        onSource: (o) => this.onSource(o),
        onCue: (o) => this.onCue(o),
        onMix: (id, error, loadFailed) => this.onMix(id, error, loadFailed),
        onSwap: (layer, program, preview) => this.onSwap(layer, program, preview),
        onShown: (id, error) => this.onShown(id, error),
      },
    };
    this.picture = new PictureStage(gl, this.quad, rw, rh, this.transitions);
    this.setLayers([{ id: 1, opacity: 1, blend: 'normal', mute: false, solo: false, selected: true }]);
    this.compositor = new Compositor(gl, this.quad, rw, rh, {
      cacheLimit: opts.programCache?.composed,
      onePass: opts.compose?.onePass,
    });
    this.ping = [createTarget(gl, rw, rh), createTarget(gl, rw, rh)];
    this.thumbs = new ThumbStage(gl, this.quad, this.pool, width, height);
    this.thumbJobs = new ThumbSchedule(this.period, (job) => this.thumb(job));
    this.loop = new FrameLoop(this.period, {
      // A preview that could not wait for this frame is drawn before it (rare unless frames run long).
      beforeFrame: () => this.thumbJobs.serveUrgent(),
      frame: (now, due) => {
        if (this.failFrames > 0) {
          this.failFrames--;
          throw new Error('injected frame failure (test hook)');
        }
        this.renderFrame(now, due);
      },
      onFrame: (error) => this.onFrame(error),
      skipped: (slots) => {
        this.stats.dropped += slots;
      },
      idle: (next) => this.idle(next),
    });
  }

  /**
   * Queues a thumbnail job for the slot after the next frame: one job (the earliest deadline, and any that could
   * not wait another frame) is served even when frames leave no idle time; more only in the idle time. A burst of
   * thumbnail requests therefore slows thumbnails down (the main thread's queue fills and refuses work) instead of
   * the output's frame rate, and slow frames do not starve a preview past its budget.
   */
  queueThumb(job: ThumbJob, done: (reply: ThumbReply) => void): void {
    this.thumbJobs.push({ job, done });
    // Arriving between frames, a burst is served in the idle time now rather than after the next frame.
    this.loop.between((next) => this.thumbJobs.serveIdle(next - 3));
  }

  private runThumbs(): void {
    // Past the guaranteed slice: never into the last 3 ms before the next frame (the share rule is the schedule's).
    this.thumbJobs.serve(this.loop.next - 3);
  }

  /** Runs a thumbnail job now (this thread is the only one drawing). Throws on GL failures. */
  thumb(job: ThumbJob): ThumbReply {
    const subject = job.subject;
    if (subject.kind === 'layer') return this.layerThumb(job, subject.layer);
    return this.thumbs.draw(job, {
      output: this.output.target,
      outputFrame: this.outputFrames,
      generators: this.generators,
      palette: this.palette,
    });
  }

  /**
   * A layer's picture after its chain: the frame's own when the stack composed it, else drawn now between frames;
   * the layer then keeps its own target for a few seconds, so a strip of live thumbnails reads frames, not redraws.
   */
  private layerThumb(job: ThumbJob, id: number): ThumbReply {
    const l = this.layers.get(id);
    let layer: { target: RenderTarget; frame: number } | null = null;
    if (l) {
      if (l.targetFrame < this.outputFrames - 1 || !l.target) {
        const [a, b] = this.ping;
        this.drawLayer(l, a, b);
        l.chain.endFrame();
      }
      l.keepTargetUntil = this.outputFrames + 2 * this.fps;
      layer = { target: l.target!, frame: l.targetFrame };
    }
    return this.thumbs.draw(job, {
      output: this.output.target,
      outputFrame: this.outputFrames,
      layer,
      generators: this.generators,
      palette: this.palette,
    });
  }

  setCatalog(effects: IsfDescriptor[], generators: IsfDescriptor[], noSignal: IsfDescriptor | null): CompileResult[] {
    this.effects = effects;
    this.generators = generators;
    const results = this.pool.setCatalog([...effects, ...generators, ...(noSignal ? [noSignal] : [])]);
    // Running effects keep their programs; a reloaded file applies the next time the effect is added.
    this.noSignal = noSignal && this.pool.errorOf(noSignal) === null ? noSignal : null;
    for (const l of this.order) l.source.setNoSignal(this.noSignal);
    return results.filter((r) => !noSignal || r.type !== noSignal.type || r.kind !== noSignal.kind);
  }

  /** The layer blend modes (the compositor compiles them); returns the compile results of what changed. */
  setBlends(items: IsfDescriptor[]): CompileResult[] {
    return this.compositor.setBlends(items);
  }

  /** Starts (a ring) or stops (null) the per-frame program readback for the output worker. */
  setOutputRing(ring: SharedArrayBuffer | null): void {
    if (this.readback?.ring === ring) return;
    this.readback?.destroy();
    this.readback = ring ? new ProgramReadback(this.gl, this.quad, ring) : null;
  }

  /** A new render.scale setting (a config reload): a fixed factor applies from the next frame, "auto" starts at 1. */
  setScale(setting: RenderScaleSetting): void {
    this.scaler = new RenderScale(setting, this.period);
    this.resize(this.scaler.scale);
  }

  /** Sizes every render-size target and program for `scale` (between frames); feedback buffers start over. */
  private resize(scale: number): void {
    const [w, h] = scaledSize(this.width, this.height, scale);
    if (w === this.renderWidth && h === this.renderHeight) return;
    this.renderWidth = w;
    this.renderHeight = h;
    this.frame.inputSize = [w, h];
    this.pool.resize(w, h);
    this.transitions.resize(w, h);
    for (const slot of this.chain.all()) slot.instance.program.resize(w, h);
    for (const l of this.order) l.resize(w, h);
    this.compositor.resize(w, h);
    this.picture.resize(w, h);
    this.fuse.resize(w, h);
    for (const t of this.ping) {
      this.nearest.delete(t);
      t.destroy();
    }
    this.ping = [createTarget(this.gl, w, h), createTarget(this.gl, w, h)];
  }

  setPalette(colors: string[]): void {
    this.palette = paletteUniform(colors);
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
    const l = id === undefined ? this.order[0] : this.layers.get(id);
    if (!l) throw new Error(`layer ${id} does not exist`);
    return l;
  }

  /** Every layer, bottom to top. */
  stack(): readonly Layer[] {
    return this.order;
  }

  /** Replaces the stack (order and blending): new ids get a layer, missing ones are dropped. */
  setLayers(wires: readonly LayerWire[]): void {
    if (wires.length === 0) return;
    const keep = new Set(wires.map((w) => w.id));
    for (const [id, l] of this.layers) {
      if (keep.has(id)) continue;
      this.layers.delete(id);
      l.destroy();
    }
    this.order = wires.map((w) => {
      let l = this.layers.get(w.id);
      if (!l) {
        l = this.makeLayer(w.id);
        this.layers.set(w.id, l);
      }
      l.set(w);
      return l;
    });
    // The composition of this stack compiles in idle time, not on the frame that first needs it.
    if (this.order.length > 1) this.compositor?.prepare(this.order.map((l) => l.blend));
  }

  private makeLayer(id: number): Layer {
    const l = new Layer(id, this.layerDeps, this.renderWidth, this.renderHeight);
    l.mix.setTransitions(this.transitionDescs);
    l.source.setNoSignal(this.noSignal);
    return l;
  }

  setTransitions(descs: IsfDescriptor[]): CompileResult[] {
    this.transitionDescs = descs;
    // The pool is shared: the first call compiles (and reports what changed), the other mixers only learn the list.
    const results = this.picture.setTransitions(descs);
    for (const l of this.order) l.mix.setTransitions(descs);
    return results;
  }

  /** Holds the output as it is and blends the coming pictures over it with `transition` (a scene recall). */
  startPicture(transition: string, durationMs: number): void {
    this.picture.start(this.output.target.texture, transition, durationMs);
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
    this.runThumbs();
    // One spare per idle slot: effects and generators first, then transitions, then layer compositions.
    if (next - performance.now() > 2) {
      if (this.pool.pending() > 0) this.pool.refill();
      else if (this.transitions.pending() > 0) this.transitions.refill();
      else this.compositor.idle();
    }
    // Fused programs compile one step at a time in the idle time (see Fuser.idle).
    this.fuse.idle(next - performance.now(), this.period);
  }

  /** `due`: the frame's due instant in epoch ms (clockNow's base); by default the moment it is drawn. */
  renderFrame(now = performance.now(), due = performance.timeOrigin + now): void {
    const gl = this.gl;
    const time = (now - this.t0) / 1000;
    const ctx = this.frame;
    this.audio.update(due);
    this.modulate(due);
    ctx.time = time;
    ctx.timeDelta = this.frameIndex === 0 ? 0 : time - this.lastTime;
    ctx.frameIndex = this.frameIndex;
    // Once per frame for every program drawn in it (a Date per program per frame before).
    isfDate(new Date(), ctx.date);
    ctx.palette = this.palette;
    this.lastTime = time;

    const m = this.modulation;
    let anySolo = false;
    for (const l of this.order) {
      l.prepare(now, l.selected && m.hasMix() ? this.heldPosition : null);
      if (l.solo) anySolo = true;
    }
    const visible = this.visible;
    visible.length = 0;
    for (const l of this.order) {
      if (l.visible(anySolo)) visible.push(l);
      else l.takeUp(this.ping[0], ctx);
    }

    // At full level the last stage draws straight into the output target: the grading pass costs a full-screen
    // draw and only runs while the dimmer or blackout changes the picture.
    const enabled = this.chain.enabled();
    // A scaled picture always takes the output pass: it is the one upscale into the output size.
    const full = this.renderWidth === this.width && this.renderHeight === this.height;
    const pic = this.picture.progress(now);
    const direct = full && this.output.passThrough() && pic === null;
    const out = this.output.target;
    let [a, b] = this.ping;
    const only = visible.length === 1 && visible[0]!.opacity >= 1 && visible[0]!.blend === 'normal' ? visible[0]! : null;
    if (only && only.keepTargetUntil < this.outputFrames) {
      // One opaque layer: its source, its chain and the master chain run as one sequence, as a single source did.
      const own = only.chain.enabled();
      const first = direct && enabled.length === 0 && own.length === 0 ? out : a;
      only.drawSource(first, ctx);
      [a, b] = this.runSteps(this.fuse.plan(own), a, b, direct && enabled.length === 0 ? out : null);
    } else {
      for (const l of visible) this.drawLayer(l, a, b);
      this.compose(direct && enabled.length === 0 ? out : a, visible);
    }
    [a, b] = this.runSteps(this.fuse.plan(enabled), a, b, direct ? out : null);
    if (pic !== null) {
      this.picture.draw(b, ctx, pic, a);
      [a, b] = [b, a];
    }
    // Fired events have had their frame.
    this.chain.endFrame();
    if (!direct) {
      // The grading pass reads each pixel at its own centre; an upscale interpolates between them.
      this.filter(a, full);
      this.output.draw(a.texture);
    }
    let readbackMs = 0;
    if (this.readback) {
      // The drawing finishes first, so the time measured is the packing and reading alone.
      gl.finish();
      const r0 = performance.now();
      this.readback.read(out, this.width, this.height);
      readbackMs = performance.now() - r0;
    }
    gl.flush();

    for (const l of this.order) l.finish();
    this.modulation.report(this.chain.all(), this.chain.version);
    this.frameIndex++;
    this.outputFrames++;
    if (this.counters) Atomics.store(this.counters, RENDER_COUNTERS.outputFrame, this.outputFrames);
    if (this.slowFrames.frames > 0) {
      this.slowFrames.frames--;
      // Sleeps rather than spins: a long frame without taking a core from the rest of the machine. The extra
      // time follows the drawn pixel count, as a heavy chain's does, so a smaller render scale shortens it.
      const area = (this.renderWidth * this.renderHeight) / (this.width * this.height);
      Atomics.wait(SLEEPER, 0, 0, this.slowFrames.ms * area);
    }
    const frameMs = performance.now() - now;
    this.stats.record(now, frameMs);
    const next = this.scaler.record(frameMs, readbackMs);
    if (next !== null) this.resize(next);
  }

  /** The program layout this GPU reads back best, measured on the output target (render main.ts, once). */
  chooseReadback(setting: ReadbackSetting): ReturnType<typeof chooseReadback> {
    return chooseReadback(this.gl, this.quad, this.output.target, setting);
  }

  /** The main thread's report on the encoders and itself: an automatic scale may step down for them. */
  pressure(p: PipelinePressure): void {
    const next = this.scaler.pressure(p);
    if (next !== null) this.resize(next);
  }

  private readonly visible: Layer[] = [];
  private readonly heldPosition = (held: number): number => this.modulation.mixPosition(held);

  /**
   * Runs chain steps ping-ponging between `a` and `b`; the last step draws into `last` when given (the output).
   * Returns the pair with the result in the first.
   */
  private runSteps(steps: readonly FuseStep[], a: RenderTarget, b: RenderTarget, last: RenderTarget | null): [RenderTarget, RenderTarget] {
    const ctx = this.frame;
    for (let i = 0; i < steps.length; i++) {
      this.filter(a, steps[i]!.ownPixel);
      ctx.input = a.texture;
      ctx.target = (last && i === steps.length - 1 ? last : b).framebuffer;
      steps[i]!.render(ctx);
      const t = a;
      a = b;
      b = t;
    }
    return [a, b];
  }

  /** Draws a layer's source and chain into its own target (scratch: the ping pair). */
  private drawLayer(l: Layer, a: RenderTarget, b: RenderTarget): void {
    const own = l.ownTarget();
    const steps = this.fuse.plan(l.chain.enabled());
    if (steps.length === 0) l.drawSource(own, this.frame);
    else {
      l.drawSource(a, this.frame);
      this.runSteps(steps, a, b, own);
    }
    l.targetFrame = this.outputFrames;
  }

  /** Blends the drawn layers, bottom to top over black, into `target`. */
  private compose(target: RenderTarget, layers: readonly Layer[]): void {
    const list = this.composeList;
    list.length = 0;
    for (const l of layers) list.push({ texture: l.target!.texture, opacity: l.opacity, blend: l.blend });
    this.compositor.draw(target.framebuffer, null, list, this.frame);
  }

  private readonly composeList: ComposeLayer[] = [];

  /** This frame's modulated values: chain slots (master and layers), each layer's program generator, the dimmer. */
  private modulate(due: number): void {
    const m = this.modulation;
    const c = m.ctx;
    m.begin(due);
    c.beats = this.audio.beats;
    c.bpm = this.audio.values[6] ?? 0;
    for (let i = 0; i < 6; i++) c.audio[i] = this.audio.values[i] ?? 0;
    c.onsetFresh = this.audio.onsetFresh;
    let version = this.chain.version;
    for (const l of this.order) version += l.chain.version * 31 + l.id;
    if (this.modChainVersion !== version) {
      this.modChainVersion = version;
      const alive = new Set(this.chain.all());
      for (const l of this.order) for (const s of l.chain.all()) alive.add(s);
      m.prune(alive);
    }
    m.chain(this.chain.all());
    for (const l of this.order) {
      if (l.chain.length > 0) m.chain(l.chain.all());
      const g = l.source.programGenerator();
      l.source.applied = g ? m.generatorValues(l.source.currentKey, g.program.desc.inputs, g.values) : null;
    }
    this.output.applied = m.hasDimmer() ? m.dimmerLevel(this.output.dimmer) : null;
  }

  private modChainVersion = -1;

  /** NEAREST where every read is at a pixel centre (the same values, cheaper on Mesa), LINEAR otherwise. */
  private filter(t: RenderTarget, nearest: boolean): void {
    if ((this.nearest.get(t) ?? false) === nearest) return;
    setFilter(this.gl, t.texture, nearest);
    this.nearest.set(t, nearest);
  }

  snapshotStats(): RenderStats {
    const { p50, p99 } = this.stats.percentiles();
    return {
      targetFps: this.fps,
      fps: this.stats.fps(performance.now()),
      frameMsP50: p50,
      frameMsP99: p99,
      droppedFrames: this.stats.dropped,
      frames: this.stats.frames,
      renderer: this.renderer,
      contextRestarts: this.contextRestarts,
      gl: glCounts(this.gl),
      programs: { cached: this.pool.cached() + this.transitions.cached(), limit: this.cacheLimit },
      ...this.fuse.stats(),
      fusedPrograms: this.fuse.programs(),
      programCompiles: {
        ahead: this.pool.compiles.ahead + this.transitions.compiles.ahead,
        onDemand: this.pool.compiles.onDemand + this.transitions.compiles.onDemand,
        pending: this.pool.pending() + this.transitions.pending(),
      },
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
    this.chain.clear();
    for (const l of this.order) l.destroy();
    this.layers.clear();
    this.order = [];
    this.picture.destroy();
    this.transitions.destroy();
    this.compositor.destroy();
    this.thumbs.destroy();
    this.output.destroy();
    this.readback?.destroy();
    for (const t of this.ping) t.destroy();
    this.fuse.destroy();
    this.audio.textures?.destroy();
    this.pool.destroy();
    this.quad.destroy();
  }
}
