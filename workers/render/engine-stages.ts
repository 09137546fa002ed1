// What one GL context draws with, made together by the engine (engine.ts) in the order it always made them: the
// audio textures, the effect and generator programs, the fuser, the master chain, the output, the transition
// programs, the scene-recall picture stage, the layer stack, the compositor and the ping-pong pair; with the
// settings the worker sends that they read (catalogs, transitions, stack, palette, output readback). All but the
// output are drawn at the render size and resized together between frames; spare and fused programs compile here
// in the idle time. The frame (frame.ts) and the thumbnails (engine-thumbs.ts) read these stages.
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import type { LayerWire, RenderInit, RenderScaleSetting } from '../../src/shared/protocol/render.js';
import { paletteUniform } from '../../src/shared/palette.js';
import { AudioFrame } from './audio-frame.js';
import { AudioTextures } from './audio-textures.js';
import { Chain } from './chain.js';
import { Compositor } from './compose/compositor.js';
import { FrameStats } from './frame-stats.js';
import { CompileHelper } from './fuse/compile-helper.js';
import { Fuser } from './fuse/fuser.js';
import { Quad, type GL } from './gl-util.js';
import type { EffectRunner, LayerEvents } from './layer.js';
import { LayerStack } from './layer-stack.js';
import { OutputStage } from './output-stage.js';
import { PictureStage } from './picture-stage.js';
import { OutputMapStage } from './output-map-stage.js';
import { PixelStage } from './pixel-stage.js';
import { ProgramPool, type CompileResult } from './program-pool.js';
import { ProgramReadback } from './program-readback.js';
import { createTarget, type RenderTarget } from './targets.js';

/** The engine's options; compileHelper: fused shaders compile in a helper process first (compile-helper.ts). */
export interface EngineOptions {
  fuse?: boolean;
  compileHelper?: boolean;
  audio?: { block: SharedArrayBuffer; tempo: SharedArrayBuffer };
  programCache?: RenderInit['programCache'];
  scale?: RenderScaleSetting;
  /** Composition of two or more layers; onePass false draws one pass per layer (benches compare the two). */
  compose?: { onePass?: boolean };
}

export class RenderStages {
  /** The audio of the frame being drawn: built-in values and ISF audio textures. */
  readonly audio: AudioFrame;
  readonly quad: Quad;
  /** Effect and generator programs. */
  readonly pool: ProgramPool;
  /** Splits the enabled chain into fused runs and single effects (workers/render/fuse/). */
  readonly fuse: Fuser;
  /** The master chain. */
  readonly chain: Chain<EffectRunner>;
  /** Dimmer/blackout into the output target, which keeps the configured size: outputs, previews and thumbnails read it. */
  readonly output: OutputStage;
  /** The transition programs, shared by every layer's mixer. */
  readonly transitions: ProgramPool;
  /** A scene recall's whole-picture transition (the old output held, the new picture blended over it). */
  readonly picture: PictureStage;
  /** The layers by id, and the stack bottom to top (never empty: a new engine has layer 1). */
  readonly layers: LayerStack;
  /** Blends layers over a base with the blend-mode files (workers/render/compose/). */
  readonly compositor: Compositor;
  /** The frame's scratch pair at the render size; replaced on a resize. */
  ping: [RenderTarget, RenderTarget];
  readonly stats = new FrameStats();
  /** Spare programs kept at most, effects and generators plus transitions (reported in the stats). */
  readonly cacheLimit: number;
  effects: IsfDescriptor[] = [];
  generators: IsfDescriptor[] = [];
  palette = paletteUniform([]);
  /** Set while an output is active: every frame is read back into its ring. */
  readback: ProgramReadback | null = null;
  /** Pixel mapping: samples the output per fixture pixel while a table and a block are set. */
  readonly pixels: PixelStage;
  /** Output mapping: one pass and one readback per mapped output that runs. */
  readonly maps: OutputMapStage;

  constructor(
    readonly gl: GL,
    /** The configured (output) size; `rw`×`rh` is the render size. */
    readonly width: number,
    readonly height: number,
    rw: number,
    rh: number,
    /** RenderInit.counters as Int32; null where nobody reads them (tests, benches). */
    readonly counters: Int32Array | null,
    opts: EngineOptions,
    events: LayerEvents,
  ) {
    this.audio = new AudioFrame(opts.audio?.block ?? null, opts.audio?.tempo ?? null);
    this.audio.textures = new AudioTextures(gl, this.audio);
    const quad = (this.quad = new Quad(gl));
    // 0 reads "no limit": engines made outside the server (tests, benches) keep every spare.
    this.cacheLimit = opts.programCache ? opts.programCache.programs + opts.programCache.transitions : 0;
    const pool = (this.pool = new ProgramPool(gl, quad, rw, rh, opts.programCache?.programs));
    const fuse = opts.fuse ?? true;
    const helper = fuse && opts.compileHelper ? new CompileHelper(rw, rh) : null;
    this.fuse = new Fuser(gl, quad, rw, rh, fuse, helper, opts.programCache?.fused);
    this.chain = new Chain<EffectRunner>({
      catalog: () => this.effects,
      instantiate: (desc) => {
        const program = pool.take(desc);
        return { program, destroy: () => program.destroy(), restart: () => program.restart() };
      },
    });
    this.output = new OutputStage(gl, quad, width, height);
    this.pixels = new PixelStage(gl, quad);
    this.maps = new OutputMapStage(gl, quad);
    const transitions = (this.transitions = new ProgramPool(gl, quad, rw, rh, opts.programCache?.transitions));
    const catalog = { effects: () => this.effects, generators: () => this.generators, events };
    this.picture = new PictureStage(gl, quad, rw, rh, transitions);
    this.layers = new LayerStack({ gl, quad, pool, transitions, ...catalog }, rw, rh);
    this.setLayers([{ id: 1, opacity: 1, blend: 'normal', mute: false, solo: false, selected: true }]);
    this.compositor = new Compositor(gl, quad, rw, rh, {
      cacheLimit: opts.programCache?.composed,
      onePass: opts.compose?.onePass,
    });
    this.ping = [createTarget(gl, rw, rh), createTarget(gl, rw, rh)];
  }

  /** See RenderEngine.setCatalog. */
  setCatalog(effects: IsfDescriptor[], generators: IsfDescriptor[], noSignal: IsfDescriptor | null): CompileResult[] {
    this.effects = effects;
    this.generators = generators;
    const results = this.pool.setCatalog([...effects, ...generators, ...(noSignal ? [noSignal] : [])]);
    // Running effects keep their programs; a reloaded file applies the next time the effect is added.
    this.layers.setNoSignal(noSignal && this.pool.errorOf(noSignal) === null ? noSignal : null);
    return results.filter((r) => !noSignal || r.type !== noSignal.type || r.kind !== noSignal.kind);
  }

  /** See RenderEngine.setLayers. */
  setLayers(wires: readonly LayerWire[]): void {
    if (wires.length === 0) return;
    this.layers.set(wires);
    // The composition of this stack compiles in idle time, not on the frame that first needs it.
    const order = this.layers.order;
    if (order.length > 1) this.compositor?.prepare(order.map((l) => l.blend));
  }

  /** See RenderEngine.setTransitions. */
  setTransitions(descs: IsfDescriptor[]): CompileResult[] {
    // The pool is shared: the first call compiles (and reports what changed), the other mixers only learn the list.
    const results = this.picture.setTransitions(descs);
    this.layers.setTransitions(descs);
    return results;
  }

  /** See RenderEngine.setOutputRing. */
  setOutputRing(ring: SharedArrayBuffer | null): void {
    if (this.readback?.ring === ring) return;
    this.readback?.destroy();
    this.readback = ring ? new ProgramReadback(this.gl, this.quad, ring) : null;
  }

  /** Sizes every render-size target and program (between frames); feedback buffers start over. */
  resize(w: number, h: number): void {
    this.pool.resize(w, h);
    this.transitions.resize(w, h);
    for (const slot of this.chain.all()) slot.instance.program.resize(w, h);
    this.layers.resize(w, h);
    this.compositor.resize(w, h);
    this.picture.resize(w, h);
    this.fuse.resize(w, h);
    for (const t of this.ping) t.destroy();
    this.ping = [createTarget(this.gl, w, h), createTarget(this.gl, w, h)];
  }

  /** The idle time before `next`: one spare program per slot, then fused programs one step at a time. */
  idle(next: number, period: number): void {
    // One spare per idle slot: effects and generators first, then transitions, then layer compositions.
    if (next - performance.now() > 2) {
      if (this.pool.pending() > 0) this.pool.refill();
      else if (this.transitions.pending() > 0) this.transitions.refill();
      else this.compositor.idle();
    }
    // Fused programs compile one step at a time in the idle time (see Fuser.idle).
    this.fuse.idle(next - performance.now(), period);
  }

  /** The programs part of the render stats. */
  programStats(): { programs: { cached: number; limit: number }; programCompiles: { ahead: number; onDemand: number; pending: number } } {
    const { pool, transitions } = this;
    return {
      programs: { cached: pool.cached() + transitions.cached(), limit: this.cacheLimit },
      programCompiles: {
        ahead: pool.compiles.ahead + transitions.compiles.ahead,
        onDemand: pool.compiles.onDemand + transitions.compiles.onDemand,
        pending: pool.pending() + transitions.pending(),
      },
    };
  }

  /** Frees every stage; `between` runs where the engine's thumbnails were always freed (after the compositor). */
  destroy(between: () => void): void {
    this.chain.clear();
    this.layers.destroy();
    this.picture.destroy();
    this.transitions.destroy();
    this.compositor.destroy();
    between();
    this.output.destroy();
    this.readback?.destroy();
    this.pixels.destroy();
    this.maps.destroy();
    for (const t of this.ping) t.destroy();
    this.fuse.destroy();
    this.audio.textures?.destroy();
    this.pool.destroy();
    this.quad.destroy();
  }
}
