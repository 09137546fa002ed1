// Modulation on the main thread: it only stores and checks. The chain's modulators live with the chain (the render
// worker's snapshot, persisted with it); the program generator's, the T-bar's, the dimmer's and freeze live here,
// in state.json, and go to the render worker as one message per change. Live values arrive from the worker.
import { EventEmitter } from 'node:events';
import type { LiveReport, ModulationState } from '../shared/protocol/render.js';
import type { Modulator } from '../shared/modulation.js';
import type { StateStore } from '../state/store.js';

export interface ModulationDeps {
  state: StateStore;
  /** Hands the state to the render worker. */
  send(s: ModulationState): void;
  /** Asks the render worker for live reports until epoch ms `untilMs`. */
  want(untilMs: number): void;
  /** Modulators in the chain now (the snapshot's entries). */
  chainCount(): number;
}

/**
 * A live report older than this reads as none: the worker reports several times a second while modulators exist, so
 * only a worker that stopped drawing goes quiet this long.
 */
const LIVE_FRESH_MS = 2000;
/** How long one read keeps live reports coming at the full rate (the `live` topic reads on every tick). */
const LIVE_WANT_MS = 5000;

export declare interface Modulation {
  on(event: 'change', fn: () => void): this;
  on(event: 'live', fn: (r: LiveReport) => void): this;
}

export class Modulation extends EventEmitter {
  private s: ModulationState;
  private report_: LiveReport | null = null;
  private reportAt = 0;
  private wantedAt = 0;

  constructor(private readonly d: ModulationDeps) {
    super();
    const saved = d.state.peek().modulation;
    this.s = {
      generator: saved?.generator ?? null,
      mix: saved?.mix ?? null,
      dimmer: saved?.dimmer ?? null,
      frozen: saved?.frozen ?? false,
    };
    d.send(this.s);
  }

  get view(): Readonly<ModulationState> {
    return this.s;
  }

  /** Every modulator that exists: chain, program generator, T-bar, dimmer. */
  count(): number {
    return this.d.chainCount() + Object.keys(this.s.generator?.modulators ?? {}).length + (this.s.mix ? 1 : 0) + (this.s.dimmer ? 1 : 0);
  }

  /**
   * The newest live report when it is recent, else null. Reading it asks the render worker for reports at the full
   * rate over the next few seconds; without readers they come a few times a second, and never without modulators.
   */
  get live(): LiveReport | null {
    this.want();
    return Date.now() - this.reportAt <= LIVE_FRESH_MS ? this.report_ : null;
  }

  /** Keeps live reports at the full rate for LIVE_WANT_MS (at most one message a second). */
  want(): void {
    const now = Date.now();
    if (now - this.wantedAt < 1000) return;
    this.wantedAt = now;
    this.d.want(now + LIVE_WANT_MS);
  }

  /** A report from the render worker (kept for GETs and the `live` topic). */
  report(r: LiveReport): void {
    this.report_ = r;
    this.reportAt = Date.now();
    this.emit('live', r);
  }

  /** The program generator's modulators for render key `key` (another key's are dropped: they belong to its activation). */
  generatorMods(key: string): Record<string, Modulator> {
    return this.s.generator?.key === key ? this.s.generator.modulators : {};
  }

  /** The program switched to render key `key`: another source's generator modulators are dropped, as its values are. */
  switched(key: string): void {
    if (this.s.generator && this.s.generator.key !== key) this.change({ generator: null });
  }

  setGenerator(key: string, modKey: string, mod: Modulator | null): void {
    const next = { ...this.generatorMods(key) };
    if (mod === null) delete next[modKey];
    else next[modKey] = mod;
    this.change({ generator: Object.keys(next).length > 0 ? { key, modulators: next } : null });
  }

  setMix(mod: Modulator | null): void {
    this.change({ mix: mod });
  }

  setDimmer(mod: Modulator | null): void {
    this.change({ dimmer: mod });
  }

  freeze(enabled: boolean): void {
    this.change({ frozen: enabled });
  }

  private change(part: Partial<ModulationState>): void {
    this.s = { ...this.s, ...part };
    const s = this.s;
    this.d.state.update((st) => {
      st.modulation = s;
    });
    this.d.send(s);
    this.emit('change');
  }
}
