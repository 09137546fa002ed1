// Modulation in the frame loop: before a frame draws, every modulated chain effect, the program generator, the
// T-bar and the dimmer get this frame's applied values. While modulators exist a live report goes to the main thread
// a few times a second, so any read finds a recent value, and up to LIVE_REPORT_HZ times a second while the `live`
// topic streams; at once when the modulators or the chain change; once, empty, when the last modulator goes.
// Without modulators nothing is sent.
import type { IsfInput } from '../../../src/shared/isf-types.js';
import type { LiveReport, ModulationState } from '../../../src/shared/protocol/render.js';
import { LIVE_REPORT_HZ, type Modulator } from '../../../src/shared/modulation.js';
import type { ModContext, ModState } from './context.js';
import { move } from './move.js';
import { signal, stateFor } from './signal.js';
import { ModTarget } from './target.js';

/** The part of a chain slot modulation reads and writes. */
export interface ModSlot {
  readonly desc: { readonly inputs: readonly IsfInput[] };
  readonly inputs: Record<string, unknown>;
  modulators: Record<string, Modulator>;
  applied: Record<string, unknown> | null;
}

/** Keys of `o`, counted without making an array (this runs per slot per frame). */
function size(o: object): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}
const REPORT_MS = 1000 / LIVE_REPORT_HZ;
/** Report period while nobody streams: reads on the main thread count a report as recent for several of these. */
const IDLE_REPORT_MS = 250;

/** One modulated scalar outside the chain (T-bar, dimmer): 0..1. */
class ScalarMod {
  private st: ModState;
  live: number | null = null;
  constructor(readonly mod: Modulator) {
    this.st = stateFor('scalar', mod);
  }
  apply(set: number, ctx: ModContext, frozen: boolean): number {
    this.live = move(set, 0, 1, this.mod.amount, this.mod.amountOf, signal(this.mod, this.st, ctx, frozen));
    return this.live;
  }
}

export class ModulationStage {
  readonly ctx: ModContext = {
    due: 0,
    dtMs: 0,
    beats: Number.NaN,
    bpm: 0,
    audio: new Float32Array(6),
    onsetFresh: false,
    audioFresh: false,
  };
  private state: ModulationState = { generator: null, mix: null, dimmer: null, frozen: false };
  private readonly slots = new Map<ModSlot, ModTarget>();
  private readonly generator = new ModTarget();
  private mix: ScalarMod | null = null;
  private dimmer: ScalarMod | null = null;
  private lastDue = 0;
  private lastReport = 0;
  /** Modulators counted at the last frame, and the chain version reported last: a change reports at once. */
  private counted = 0;
  private reportedVersion = -1;
  private generatorLive: { key: string; values: Record<string, number | boolean> } | null = null;
  onLive: (r: LiveReport) => void = () => {};
  /** Epoch ms until which the main thread streams live values (reports at the full rate). */
  wantUntil = 0;

  set(s: ModulationState): void {
    this.state = s;
    if (this.mix?.mod !== s.mix) this.mix = s.mix ? new ScalarMod(s.mix) : null;
    if (this.dimmer?.mod !== s.dimmer) this.dimmer = s.dimmer ? new ScalarMod(s.dimmer) : null;
  }

  get frozen(): boolean {
    return this.state.frozen;
  }

  /** Starts a frame at due instant `due` (epoch ms). */
  begin(due: number): void {
    this.ctx.dtMs = this.lastDue === 0 ? 0 : Math.max(0, due - this.lastDue);
    this.ctx.due = due;
    this.lastDue = due;
    // Set again by the layer whose program carries the generator modulators; another layer never clears it.
    this.generatorLive = null;
  }

  /** Applies the modulators of every chain slot (slots without any draw their set values). */
  chain(slots: Iterable<ModSlot>): void {
    for (const slot of slots) {
      if (size(slot.modulators) === 0) {
        slot.applied = null;
        continue;
      }
      let t = this.slots.get(slot);
      if (!t) this.slots.set(slot, (t = new ModTarget()));
      t.sync(slot.desc.inputs, slot.inputs, slot.modulators);
      t.frame(this.ctx, this.state.frozen);
      slot.applied = t.applied;
    }
  }

  /** Forgets slots no longer in the chain (called when the chain changed). */
  prune(alive: ReadonlySet<ModSlot>): void {
    for (const s of this.slots.keys()) if (!alive.has(s)) this.slots.delete(s);
  }

  /** The program generator's applied values, or null when it has no modulators (draw its set values). */
  generatorValues(key: string, inputs: readonly IsfInput[], values: Record<string, unknown>): Record<string, unknown> | null {
    const g = this.state.generator;
    if (!g || g.key !== key || size(g.modulators) === 0) return null;
    this.generator.sync(inputs, values, g.modulators);
    this.generator.frame(this.ctx, this.state.frozen);
    this.generatorLive = { key, values: this.generator.live };
    return this.generator.applied;
  }

  /** The T-bar position to draw, from its held position. */
  mixPosition(held: number): number {
    return this.mix ? this.mix.apply(held, this.ctx, this.state.frozen) : held;
  }

  hasMix(): boolean {
    return this.mix !== null;
  }

  hasDimmer(): boolean {
    return this.dimmer !== null;
  }

  dimmerLevel(set: number): number {
    return this.dimmer ? this.dimmer.apply(set, this.ctx, this.state.frozen) : set;
  }

  /** After the frame: sends a live report when one is due. `order`: the chain in order, `version` its snapshot. */
  report(order: readonly ModSlot[], version: number): void {
    let count = (this.mix ? 1 : 0) + (this.dimmer ? 1 : 0) + (this.generatorLive ? this.generator.count : 0);
    for (const s of order) if (s.applied) count += size(s.modulators);
    const changed = count !== this.counted || version !== this.reportedVersion;
    const ending = count === 0 && this.counted > 0;
    this.counted = count;
    if (count === 0 && !ending) return;
    const every = this.ctx.due <= this.wantUntil ? REPORT_MS : IDLE_REPORT_MS;
    if (!changed && this.ctx.due - this.lastReport < every) return;
    this.lastReport = this.ctx.due;
    this.reportedVersion = version;
    this.onLive({
      version,
      effects: order.map((s) => (s.applied ? { ...this.slots.get(s)!.live } : null)),
      generator: this.generatorLive ? { key: this.generatorLive.key, values: { ...this.generatorLive.values } } : null,
      mix: this.mix?.live ?? null,
      dimmer: this.dimmer?.live ?? null,
    });
  }
}
