// One layer of the stack: its source stage (program and preview buses), its mixer, its own effect chain and how it
// blends. The engine draws the visible layers and composes them; everything a source switch, a cue or a take needs
// between frames lives here, so each layer answers its own requests.
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import type { LayerWire, MixCommand, SourceFailReason, SourceSpec } from '../../src/shared/protocol/render.js';
import { Chain, type EffectInstance } from './chain.js';
import type { GL, Quad } from './gl-util.js';
import type { IsfFrame, IsfProgram } from './isf-program.js';
import { MixStage } from './mix-stage.js';
import { ProgramLoadError, type ProgramPool } from './program-pool.js';
import { SourceStage } from './source-stage.js';
import { createTarget, type RenderTarget } from './targets.js';

export interface EffectRunner extends EffectInstance {
  program: IsfProgram;
}

export interface SourceOutcome {
  id: number;
  ok: boolean;
  key: string;
  layer: number;
  reason?: SourceFailReason;
  message?: string;
}

/** What a layer reports back; the engine forwards it to the main thread. */
export interface LayerEvents {
  onSource(o: SourceOutcome): void;
  onCue(o: SourceOutcome): void;
  onMix(id: number, error: string | null, loadFailed?: boolean): void;
  onSwap(layer: number, program: string, preview: string): void;
  onShown(id: number, error: string | null): void;
}

export interface LayerDeps {
  gl: GL;
  quad: Quad;
  pool: ProgramPool;
  transitions: ProgramPool;
  effects(): readonly IsfDescriptor[];
  generators(): readonly IsfDescriptor[];
  events: LayerEvents;
}

export class Layer {
  readonly source: SourceStage;
  readonly mix: MixStage;
  readonly chain: Chain<EffectRunner>;
  opacity = 1;
  blend = 'normal';
  mute = false;
  solo = false;
  selected = false;
  /** The layer's picture after its chain (made when the stack composes more than one layer, or for a thumbnail). */
  target: RenderTarget | null = null;
  /** The output frame whose picture `target` holds; -1: none. */
  targetFrame = -1;
  /** Until this output frame, the layer draws into `target` even when it could go straight to the output. */
  keepTargetUntil = -1;
  /** This frame's switch (set by prepare, committed by finish). */
  switching: { id: number; key: string; deadline: number; source: ReturnType<SourceStage['build']> } | null = null;
  /** This frame's transition progress, or null when the program is drawn alone. */
  progress: number | null = null;
  private swapped = false;
  private mixReplies: number[] = [];
  private shownWaits: Array<{ id: number; key: string; afterFrame: number; deadline: number }> = [];
  readonly drawProgram = (t: RenderTarget, ctx: IsfFrame): void => this.source.draw(t, ctx);
  readonly drawPreview = (t: RenderTarget, ctx: IsfFrame): void => this.source.draw(t, ctx, this.source.cued ?? undefined);

  constructor(
    readonly id: number,
    private readonly d: LayerDeps,
    private width: number,
    private height: number,
  ) {
    this.source = new SourceStage(d.gl, d.quad, d.pool, width, height);
    this.mix = new MixStage(d.gl, d.quad, width, height, undefined, d.transitions);
    this.chain = new Chain<EffectRunner>({
      catalog: () => d.effects(),
      instantiate: (desc) => {
        const program = d.pool.take(desc);
        return { program, destroy: () => program.destroy(), restart: () => program.restart() };
      },
    });
  }

  set(w: LayerWire): void {
    this.opacity = w.opacity;
    this.blend = w.blend;
    this.mute = w.mute;
    this.solo = w.solo;
    this.selected = w.selected;
  }

  /** Whether the layer takes part in this frame's picture (muted, solo-hidden and transparent layers cost nothing). */
  visible(anySolo: boolean): boolean {
    return !this.mute && this.opacity > 0 && (!anySolo || this.solo);
  }

  requestSource(id: number, key: string, deadline: number, spec: SourceSpec): void {
    const built = this.build(id, key, spec, this.d.events.onSource);
    if (!built) return;
    const old = this.source.pending;
    if (old) {
      this.source.drop(old.source);
      this.d.events.onSource({
        ...this.outcome(old.id, old.key, false),
        reason: 'superseded',
        message: 'a later selection replaced this one before it drew a frame',
      });
    }
    this.source.pending = { id, key, deadline, source: built };
  }

  requestCue(id: number, key: string, deadline: number, spec: SourceSpec): void {
    const built = this.build(id, key, spec, this.d.events.onCue);
    if (!built) return;
    const old = this.source.pendingCue;
    if (old) {
      this.source.drop(old.source);
      this.d.events.onCue({
        ...this.outcome(old.id, old.key, false),
        reason: 'superseded',
        message: 'a later cue replaced this one before it had a frame',
      });
    }
    this.source.pendingCue = { id, key, deadline, source: built };
  }

  private build(id: number, key: string, spec: SourceSpec, answer: (o: SourceOutcome) => void): ReturnType<SourceStage['build']> | null {
    try {
      return this.source.build(spec, this.d.generators());
    } catch (err) {
      answer({
        ...this.outcome(id, key, false),
        reason: err instanceof ProgramLoadError ? 'load-failed' : 'failed',
        message: (err as Error).message,
      });
      return null;
    }
  }

  private outcome(id: number, key: string, ok: boolean): SourceOutcome {
    return { id, key, ok, layer: this.id };
  }

  /** Applies a take or a T-bar move; answered after the next frame drawn. */
  mixCommand(id: number, cmd: MixCommand): void {
    if (!this.source.cued) {
      this.d.events.onMix(id, 'nothing is cued on preview');
      return;
    }
    try {
      // The incoming source starts with the transition: a generator on preview counts from 0 again.
      if (this.mix.command(cmd)) this.source.restartCued();
    } catch (err) {
      this.d.events.onMix(id, (err as Error).message, err instanceof ProgramLoadError);
      return;
    }
    this.mixReplies.push(id);
  }

  waitShown(id: number, key: string, afterFrame: number, deadline: number): void {
    this.shownWaits.push({ id, key, afterFrame, deadline });
  }

  /**
   * A layer left out of the picture (muted, transparent, solo-hidden) still answers a seek on its program: the
   * program's newest ring frame is taken up into its texture (drawn into `scratch`), ready for when it shows again.
   */
  takeUp(scratch: RenderTarget, ctx: IsfFrame): void {
    if (this.shownWaits.some((w) => w.key === this.source.currentKey)) this.source.draw(scratch, ctx);
  }

  /** Before drawing: expires or readies the switch, moves a ready cue to preview, and runs the mixer's clock. */
  prepare(now: number, heldPosition: ((held: number) => number) | null): void {
    let switching = this.source.pending;
    if (switching && Date.now() > switching.deadline) {
      this.source.drop(switching.source);
      this.source.pending = null;
      this.d.events.onSource({
        ...this.outcome(switching.id, switching.key, false),
        reason: 'expired',
        message: 'no first frame before the activation deadline',
      });
      switching = null;
    }
    this.switching = switching && this.source.ready(switching.source) ? switching : null;
    this.advanceCue();
    let progress = this.source.cued ? this.mix.progress(now) : null;
    this.swapped = false;
    if (progress !== null && progress >= 1) {
      this.source.swap();
      this.mix.finish();
      this.swapped = true;
      progress = null;
    }
    // A modulated T-bar moves around its held position; only a take or a T-bar request completes a take.
    const held = heldPosition && this.source.cued ? this.mix.held() : null;
    if (held !== null && heldPosition) {
      const p = heldPosition(held);
      progress = p > 0 ? p : null;
    }
    this.progress = progress;
  }

  /** Draws the layer's source (the switch, the transition or the program) into `target`. */
  drawSource(target: RenderTarget, ctx: IsfFrame): void {
    if (this.switching) this.source.draw(target, ctx, this.switching.source);
    else if (this.progress !== null)
      this.mix.draw(
        target,
        ctx,
        this.progress,
        (t) => this.drawProgram(t, ctx),
        (t) => this.drawPreview(t, ctx),
      );
    else this.source.draw(target, ctx);
  }

  /** The layer's own picture target, made on first use at the render size. */
  ownTarget(): RenderTarget {
    return (this.target ??= createTarget(this.d.gl, this.width, this.height));
  }

  /** After the frame: commits the switch, reports the swap and answers the mix commands and seeks it showed. */
  finish(): void {
    const s = this.switching;
    if (s) {
      this.switching = null;
      this.source.pending = null;
      this.source.commit(s.key, s.source);
      this.d.events.onSource(this.outcome(s.id, s.key, true));
    }
    if (this.swapped) this.d.events.onSwap(this.id, this.source.currentKey, this.source.cuedKey);
    this.swapped = false;
    if (this.mixReplies.length > 0) for (const id of this.mixReplies.splice(0)) this.d.events.onMix(id, null);
    this.chain.endFrame();
    this.answerShown();
  }

  private answerShown(): void {
    if (this.shownWaits.length === 0) return;
    const now = Date.now();
    this.shownWaits = this.shownWaits.filter((w) => {
      const drawn = this.source.drawnAfter(w.key, w.afterFrame);
      if (drawn !== false) this.d.events.onShown(w.id, null);
      else if (now > w.deadline) this.d.events.onShown(w.id, 'the frame was not drawn before the deadline');
      else return true;
      return false;
    });
  }

  /** Moves a cue whose source has a frame onto the preview bus, or gives it up past its deadline. */
  private advanceCue(): void {
    const cue = this.source.pendingCue;
    if (!cue) return;
    if (Date.now() > cue.deadline) {
      this.source.drop(cue.source);
      this.source.pendingCue = null;
      this.d.events.onCue({
        ...this.outcome(cue.id, cue.key, false),
        reason: 'expired',
        message: 'no first frame before the activation deadline',
      });
    } else if (this.source.ready(cue.source)) {
      this.source.pendingCue = null;
      this.source.setCued(cue.key, cue.source);
      this.d.events.onCue(this.outcome(cue.id, cue.key, true));
    }
  }

  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
    for (const slot of this.chain.all()) slot.instance.program.resize(width, height);
    this.source.resize(width, height);
    this.mix.resize(width, height);
    this.target?.destroy();
    this.target = null;
    this.targetFrame = -1;
  }

  destroy(): void {
    this.chain.clear();
    this.source.destroy();
    this.mix.destroy();
    this.target?.destroy();
    this.target = null;
  }
}
