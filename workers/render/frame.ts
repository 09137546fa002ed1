// One frame of the render loop: each visible layer (its source, or during its take program and preview blended by
// its mixer, then its own chain) → the layers blended bottom to top → the master chain (ping-pong targets) → a
// scene recall's picture transition → dimmer/blackout → output, then the program readback, the frame's counters
// and stats. One opaque layer runs source, layer chain and master chain as one sequence, as a single source always
// did. The drawer owns the per-frame state; the stages, the layers and the targets are the engine's (engine.ts,
// engine-stages.ts), read through FrameStages and FrameOwner, and the pacing is the loop's (frame-loop.ts).
import { RENDER_COUNTERS } from '../../src/shared/protocol/render.js';
import type { paletteUniform } from '../../src/shared/palette.js';
import type { AudioFrame } from './audio-frame.js';
import type { Chain } from './chain.js';
import type { Compositor, ComposeLayer } from './compose/compositor.js';
import type { FrameStats } from './frame-stats.js';
import type { FuseStep, Fuser } from './fuse/fuser.js';
import type { GL } from './gl-util.js';
import { isfDate } from './isf-builtins.js';
import type { IsfFrame } from './isf-program.js';
import type { EffectRunner, Layer } from './layer.js';
import type { ModulationStage } from './modulation/stage.js';
import type { OutputStage } from './output-stage.js';
import type { PictureStage } from './picture-stage.js';
import type { OutputMapStage } from './output-map-stage.js';
import type { PixelStage } from './pixel-stage.js';
import type { ProgramReadback } from './program-readback.js';
import { setFilter, type RenderTarget } from './targets.js';

/** Never signalled: Atomics.wait on it is a plain sleep (the slow-frames test hook). */
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

/**
 * The engine's stages as a frame reads them (engine-stages.ts RenderStages): the stages are made once; what the
 * engine replaces (the stack's order, the ping pair on a resize, the palette, the readback) is read at each use.
 */
export interface FrameStages {
  readonly gl: GL;
  /** The master chain. */
  readonly chain: Chain<EffectRunner>;
  readonly fuse: Fuser;
  readonly compositor: Compositor;
  readonly picture: PictureStage;
  readonly output: OutputStage;
  readonly audio: AudioFrame;
  readonly stats: FrameStats;
  /** RenderInit.counters as Int32; null where nobody reads them. */
  readonly counters: Int32Array | null;
  /** The layers bottom to top. */
  readonly layers: { readonly order: readonly Layer[] };
  readonly ping: readonly [RenderTarget, RenderTarget];
  readonly palette: ReturnType<typeof paletteUniform>;
  /** Set while an output is active: every frame is read back into its ring. */
  readonly readback: ProgramReadback | null;
  readonly pixels: PixelStage;
  readonly maps: OutputMapStage;
}

/** What a frame reads of the engine itself (RenderEngine), at each use: the sizes, the modulators, a test hook. */
export interface FrameOwner {
  /** The configured (output) size, and the render size the picture is drawn at. */
  readonly width: number;
  readonly height: number;
  readonly renderWidth: number;
  readonly renderHeight: number;
  readonly modulation: ModulationStage;
  /** Test hook: this many coming frames take at least `ms` longer. */
  readonly slowFrames: { ms: number; frames: number };
}

export class FrameDrawer {
  private lastTime = 0;
  private frameIndex = 0;
  /** Frames drawn to the output; continues the counter's value so a rebuilt context never reuses a frame number. */
  outputFrames: number;
  /** The last frame's time, and the part of it the readback took (ms): the engine's automatic scale reads them. */
  frameMs = 0;
  readbackMs = 0;
  /** One frame record, refilled per frame and per pass: the steady state allocates nothing per frame. */
  private readonly frame: IsfFrame;
  /** Whether each ping target's texture samples NEAREST now (set only when a step needs the other filter). */
  private readonly nearest = new Map<RenderTarget, boolean>();
  private readonly visible: Layer[] = [];
  private readonly composeList: ComposeLayer[] = [];
  private modChainVersion = -1;
  private readonly heldPosition = (held: number): number => this.owner.modulation.mixPosition(held);

  constructor(
    private readonly stages: FrameStages,
    private readonly owner: FrameOwner,
    /** The loop's clock starts here (performance.now() ms): the frame's TIME counts from it. */
    private readonly t0: number,
  ) {
    this.outputFrames = stages.counters ? Atomics.load(stages.counters, RENDER_COUNTERS.outputFrame) : 0;
    this.frame = {
      input: null,
      inputSize: [owner.renderWidth, owner.renderHeight],
      target: null,
      time: 0,
      timeDelta: 0,
      frameIndex: 0,
      date: isfDate(),
      palette: stages.palette,
      values: {},
      // Every program drawn by the loop keeps its own TIME and FRAMEINDEX (time and frameIndex here are the loop's).
      instanceClock: true,
      audio: stages.audio,
    };
  }

  /** A new render size (between frames): `old` are the ping targets about to be destroyed. */
  resized(w: number, h: number, old: readonly RenderTarget[]): void {
    this.frame.inputSize = [w, h];
    for (const t of old) this.nearest.delete(t);
  }

  /** Draws one frame (`due`: its due instant in epoch ms); ends with its stats recorded and frameMs/readbackMs set. */
  draw(now: number, due: number): void {
    const p = this.stages;
    const o = this.owner;
    const gl = p.gl;
    const time = (now - this.t0) / 1000;
    const ctx = this.frame;
    p.audio.update(due);
    this.modulate(due);
    ctx.time = time;
    ctx.timeDelta = this.frameIndex === 0 ? 0 : time - this.lastTime;
    ctx.frameIndex = this.frameIndex;
    // Once per frame for every program drawn in it (a Date per program per frame before).
    isfDate(new Date(), ctx.date);
    ctx.palette = p.palette;
    this.lastTime = time;

    const m = o.modulation;
    let anySolo = false;
    for (const l of p.layers.order) {
      l.prepare(now, l.selected && m.hasMix() ? this.heldPosition : null);
      if (l.solo) anySolo = true;
    }
    const visible = this.visible;
    visible.length = 0;
    for (const l of p.layers.order) {
      if (l.visible(anySolo)) visible.push(l);
      else l.takeUp(p.ping[0], ctx);
    }

    // At full level the last stage draws straight into the output target: the grading pass costs a full-screen
    // draw and only runs while the dimmer or blackout changes the picture.
    const enabled = p.chain.enabled();
    // A scaled picture always takes the output pass: it is the one upscale into the output size.
    const full = o.renderWidth === o.width && o.renderHeight === o.height;
    const pic = p.picture.progress(now);
    const direct = full && p.output.passThrough() && pic === null;
    const out = p.output.target;
    let [a, b] = p.ping;
    const only = visible.length === 1 && visible[0]!.opacity >= 1 && visible[0]!.blend === 'normal' ? visible[0]! : null;
    if (only && only.keepTargetUntil < this.outputFrames) {
      // One opaque layer: its source, its chain and the master chain run as one sequence, as a single source did.
      const own = only.chain.enabled();
      const first = direct && enabled.length === 0 && own.length === 0 ? out : a;
      only.drawSource(first, ctx);
      [a, b] = this.runSteps(p.fuse.plan(own), a, b, direct && enabled.length === 0 ? out : null);
    } else {
      for (const l of visible) this.drawLayer(l, a, b);
      this.compose(direct && enabled.length === 0 ? out : a, visible);
    }
    [a, b] = this.runSteps(p.fuse.plan(enabled), a, b, direct ? out : null);
    if (pic !== null) {
      p.picture.draw(b, ctx, pic, a);
      [a, b] = [b, a];
    }
    // Fired events have had their frame.
    p.chain.endFrame();
    if (!direct) {
      // The grading pass reads each pixel at its own centre; an upscale interpolates between them.
      this.filter(a, full);
      p.output.draw(a.texture);
    }
    let readbackMs = 0;
    const readback = p.readback;
    if (readback) {
      // The drawing finishes first, so the time measured is the packing and reading alone.
      gl.finish();
      const r0 = performance.now();
      readback.read(out, o.width, o.height);
      readbackMs = performance.now() - r0;
    }
    if (p.maps.active) {
      // Mapped outputs read the same output target; their passes and reads count as readback for the pacing.
      gl.finish();
      const r0 = performance.now();
      p.maps.run(out, o.width, o.height);
      readbackMs += performance.now() - r0;
    }
    // Pixel mapping reads the same output; its frame number is the one this frame publishes below.
    p.pixels.run(out.texture, o.width, o.height, this.outputFrames + 1);
    gl.flush();

    for (const l of p.layers.order) l.finish();
    o.modulation.report(p.chain.all(), p.chain.version);
    this.frameIndex++;
    this.outputFrames++;
    if (p.counters) Atomics.store(p.counters, RENDER_COUNTERS.outputFrame, this.outputFrames);
    const slow = o.slowFrames;
    if (slow.frames > 0) {
      slow.frames--;
      // Sleeps rather than spins: a long frame without taking a core from the rest of the machine. The extra
      // time follows the drawn pixel count, as a heavy chain's does, so a smaller render scale shortens it.
      const area = (o.renderWidth * o.renderHeight) / (o.width * o.height);
      Atomics.wait(SLEEPER, 0, 0, slow.ms * area);
    }
    const frameMs = performance.now() - now;
    p.stats.record(now, frameMs);
    this.frameMs = frameMs;
    this.readbackMs = readbackMs;
  }

  /** Draws a layer's source and chain into its own target (scratch: `a` and `b`, the ping pair). */
  drawLayer(l: Layer, a: RenderTarget, b: RenderTarget): void {
    const own = l.ownTarget();
    const steps = this.stages.fuse.plan(l.chain.enabled());
    if (steps.length === 0) l.drawSource(own, this.frame);
    else {
      l.drawSource(a, this.frame);
      this.runSteps(steps, a, b, own);
    }
    l.targetFrame = this.outputFrames;
  }

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

  /** Blends the drawn layers, bottom to top over black, into `target`. */
  private compose(target: RenderTarget, layers: readonly Layer[]): void {
    const list = this.composeList;
    list.length = 0;
    for (const l of layers) list.push({ texture: l.target!.texture, opacity: l.opacity, blend: l.blend });
    this.stages.compositor.draw(target.framebuffer, null, list, this.frame);
  }

  /** This frame's modulated values: chain slots (master and layers), each layer's program generator, the dimmer. */
  private modulate(due: number): void {
    const p = this.stages;
    const m = this.owner.modulation;
    const c = m.ctx;
    const audio = p.audio;
    m.begin(due);
    c.beats = audio.beats;
    c.bpm = audio.values[6] ?? 0;
    for (let i = 0; i < 6; i++) c.audio[i] = audio.values[i] ?? 0;
    c.onsetFresh = audio.onsetFresh;
    c.audioFresh = audio.fresh;
    const order = p.layers.order;
    let version = p.chain.version;
    for (const l of order) version += l.chain.version * 31 + l.id;
    if (this.modChainVersion !== version) {
      this.modChainVersion = version;
      const alive = new Set(p.chain.all());
      for (const l of order) for (const s of l.chain.all()) alive.add(s);
      m.prune(alive);
    }
    m.chain(p.chain.all());
    for (const l of order) {
      if (l.chain.length > 0) m.chain(l.chain.all());
      const g = l.source.programGenerator();
      l.source.applied = g ? m.generatorValues(l.source.currentKey, g.program.desc.inputs, g.values) : null;
    }
    p.output.applied = m.hasDimmer() ? m.dimmerLevel(p.output.dimmer) : null;
  }

  /** NEAREST where every read is at a pixel centre (the same values, cheaper on Mesa), LINEAR otherwise. */
  private filter(t: RenderTarget, nearest: boolean): void {
    if ((this.nearest.get(t) ?? false) === nearest) return;
    setFilter(this.stages.gl, t.texture, nearest);
    this.nearest.set(t, nearest);
  }
}
