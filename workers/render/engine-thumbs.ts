// Thumbnail serving between frames: jobs queue on the schedule (thumb-schedule.ts: a guaranteed slice per frame,
// more in the idle time) and are drawn by the thumbnail stage (thumb-stage.ts) from the output, an ingest ring
// frame, an off-screen generator, an effect over the test card, or a layer's own picture: the one the frame left
// (frame.ts), or one drawn here between frames. The engine (engine.ts) makes this and forwards its public thumbnail calls to it.
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import type { ThumbJob, ThumbReply } from '../../src/shared/protocol/render.js';
import type { paletteUniform } from '../../src/shared/palette.js';
import type { FrameDrawer } from './frame.js';
import type { FrameLoop } from './frame-loop.js';
import type { Quad, GL } from './gl-util.js';
import type { Layer } from './layer.js';
import type { OutputStage } from './output-stage.js';
import type { ProgramPool } from './program-pool.js';
import type { RenderTarget } from './targets.js';
import { ThumbSchedule } from './thumb-schedule.js';
import { ThumbStage } from './thumb-stage.js';

/**
 * The engine's stages as thumbnails read them (engine-stages.ts RenderStages): made once, except what the engine
 * replaces (the ping pair on a resize, the generator catalog, the palette), read at each use.
 */
export interface ThumbStages {
  readonly gl: GL;
  readonly quad: Quad;
  readonly pool: ProgramPool;
  /** The configured (output) size. */
  readonly width: number;
  readonly height: number;
  readonly output: OutputStage;
  readonly layers: { get(id: number): Layer | undefined };
  readonly ping: readonly [RenderTarget, RenderTarget];
  readonly generators: readonly IsfDescriptor[];
  readonly effects: readonly IsfDescriptor[];
  readonly palette: ReturnType<typeof paletteUniform>;
}

export class EngineThumbs {
  private readonly stage: ThumbStage;
  private readonly jobs: ThumbSchedule;

  constructor(
    private readonly stages: ThumbStages,
    private readonly fps: number,
    private readonly loop: FrameLoop,
    /** The frame: its output frame number, and a layer drawn between frames the way a frame draws it. */
    private readonly frames: FrameDrawer,
  ) {
    this.stage = new ThumbStage(stages.gl, stages.quad, stages.pool, stages.width, stages.height);
    this.jobs = new ThumbSchedule(loop.period, (job) => this.draw(job));
  }

  /** See RenderEngine.queueThumb. */
  queue(job: ThumbJob, done: (reply: ThumbReply) => void): void {
    this.jobs.push({ job, done });
    // Arriving between frames, a burst is served in the idle time now rather than after the next frame.
    this.loop.between((next) => this.jobs.serveIdle(next - 3));
  }

  /** Before each frame: a preview that could not wait for this frame is drawn before it. */
  serveUrgent(): void {
    this.jobs.serveUrgent();
  }

  /** In the idle time after a frame. */
  serve(): void {
    // Past the guaranteed slice: never into the last 3 ms before the next frame (the share rule is the schedule's).
    this.jobs.serve(this.loop.next - 3);
  }

  /** Runs a thumbnail job now (this thread is the only one drawing). Throws on GL failures. */
  draw(job: ThumbJob): ThumbReply {
    const subject = job.subject;
    if (subject.kind === 'layer') return this.layerThumb(job, subject.layer);
    const s = this.stages;
    return this.stage.draw(job, {
      output: s.output.target,
      outputFrame: this.frames.outputFrames,
      generators: s.generators,
      effects: s.effects,
      palette: s.palette,
    });
  }

  /**
   * A layer's picture after its chain: the frame's own when the stack composed it, else drawn now between frames;
   * the layer then keeps its own target for a few seconds, so a strip of live thumbnails reads frames, not redraws.
   */
  private layerThumb(job: ThumbJob, id: number): ThumbReply {
    const s = this.stages;
    const frames = this.frames;
    const l = s.layers.get(id);
    let layer: { target: RenderTarget; frame: number } | null = null;
    if (l) {
      if (l.targetFrame < frames.outputFrames - 1 || !l.target) {
        const [a, b] = s.ping;
        frames.drawLayer(l, a, b);
        l.chain.endFrame();
      }
      l.keepTargetUntil = frames.outputFrames + 2 * this.fps;
      layer = { target: l.target!, frame: l.targetFrame };
    }
    return this.stage.draw(job, {
      output: s.output.target,
      outputFrame: frames.outputFrames,
      layer,
      generators: s.generators,
      palette: s.palette,
    });
  }

  destroy(): void {
    this.stage.destroy();
  }
}
