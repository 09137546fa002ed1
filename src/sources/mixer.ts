// The A/B mixer on the main thread: program (the source manager's current source) and preview (the cued source,
// its reader held in the `cued` role so it stays warm), the chosen transition, the T-bar position and the swap
// at the end of a take. The render worker draws; this side resolves names, holds readers and persists the state.
import { EventEmitter } from 'node:events';
import type { SourceResult } from '../workers/render-client.js';
import type { LayerRender } from '../workers/layer-render.js';
import type { ReaderPool } from '../inputs/reader-pool.js';
import type { IsfDescriptor } from '../shared/isf-types.js';
import { matchName } from '../shared/names.js';
import { ApiError, notFound } from '../errors.js';
import { LIMITS } from '../limits.js';
import type { BusStore, MixState } from '../state/store.js';
import type { Logger } from '../log.js';
import {
  beforeDeadline,
  keyOf,
  loadFailed,
  readerOf,
  viewOf,
  type CurrentSource,
  type SourceEntry,
  type SourceManager,
} from './source-manager.js';

const ACTIVATION_MS = LIMITS.activationTimeoutMs;
export const MAX_DURATION_MS = 10_000;

export interface Transition {
  type: string;
  durationMs: number;
}

export interface MixView {
  program: CurrentSource;
  preview: CurrentSource | null;
  position: number;
  transition: Transition;
  inTransition: boolean;
}

export interface MixerDeps {
  render: LayerRender;
  readers: ReaderPool;
  sources: SourceManager;
  state: BusStore;
  transitions(): readonly IsfDescriptor[];
  /** Config `mix`: the transition of the select routes and the mixer's first choice. */
  defaults(): Transition;
  log: Logger;
}

export class Mixer extends EventEmitter {
  private preview: SourceEntry | null = null;
  private transition: Transition;
  private position = 0;
  private auto: { startedAt: number; durationMs: number; from: number } | null = null;
  private readonly cueing = new Map<string, Promise<void>>();

  constructor(private readonly d: MixerDeps) {
    super();
    this.transition = { ...d.defaults() };
    d.render.on('mix-swap', (keys) => this.swapped(keys));
  }

  view(): MixView {
    return {
      program: this.d.sources.currentSource(),
      preview: this.preview ? viewOf(this.preview) : null,
      position: round(this.progress()),
      transition: { ...this.transition },
      inTransition: this.auto !== null || this.position > 0,
    };
  }

  /** A transition type by type, then by name (flexible matching); 404 ITEM_NOT_FOUND with the installed types. */
  resolveTransition(query: string): string {
    const all = this.d.transitions();
    const t = all.find((x) => x.type === query) ?? matchName(all, query, [(x) => x.type, (x) => x.name]);
    if (!t)
      throw notFound(
        'transition',
        query,
        all.map((x) => x.type),
      );
    return t.type;
  }

  /** Loads `entry` on preview; resolves once its first frame is ready. The program is never touched. */
  async cue(entry: SourceEntry, startedAt = Date.now()): Promise<MixView> {
    const key = keyOf(entry);
    if (this.preview && keyOf(this.preview) === key && this.d.sources.delivering(entry)) return this.view();
    // Identical cues in flight share one activation (and one reader role).
    let p = this.cueing.get(key);
    if (!p) {
      p = this.activate(entry, key, startedAt).finally(() => this.cueing.delete(key));
      this.cueing.set(key, p);
    }
    await p;
    return this.view();
  }

  private async activate(entry: SourceEntry, key: string, startedAt: number): Promise<void> {
    const deadline = startedAt + ACTIVATION_MS;
    let result: SourceResult;
    try {
      const spec = await beforeDeadline(this.d.sources.specFor(entry, key, 'cued'), deadline);
      result = spec
        ? await this.d.render.cue(key, spec, deadline)
        : { ok: false, reason: 'expired', message: 'the input did not open in time' };
    } catch (err) {
      result = { ok: false, reason: 'failed', message: (err as Error).message };
    }
    if (!result.ok && result.reason === 'load-failed')
      throw loadFailed(entry.name, result.message, 'the program and the preview are unchanged');
    if (!result.ok) {
      if (readerOf(entry) && !(this.preview && keyOf(this.preview) === key)) this.d.readers.release(key, 'cued');
      const why = result.reason === 'expired' ? `no first frame within ${ACTIVATION_MS} ms` : result.message;
      throw new ApiError('ACTIVATION_TIMEOUT', `${entry.name}: ${why}; the program and the preview are unchanged`, {
        requested: entry.id,
        kind: entry.sourceKind,
        reason: result.reason,
        timeoutMs: ACTIVATION_MS,
      });
    }
    const old = this.preview;
    this.preview = entry;
    if (old && keyOf(old) !== key && readerOf(old)) this.d.readers.release(keyOf(old), 'cued');
    this.persist();
  }

  /**
   * Runs the transition from program to preview; resolves when its first frame is on the output (a cut: when the
   * swap is). `remember` makes the transition the mixer's choice for later takes (the take route; not selects).
   */
  async take(opts: { transition?: string | undefined; durationMs?: number | undefined }, remember = true): Promise<MixView> {
    if (!this.preview) throw new ApiError('NOTHING_CUED');
    const type = opts.transition !== undefined ? this.resolveTransition(opts.transition) : this.transition.type;
    const durationMs = opts.durationMs ?? this.transition.durationMs;
    const from = this.position;
    // Remembered only once it runs: a transition that does not load leaves the mixer's choice as it was.
    this.check(await this.d.render.mix({ op: 'take', transition: type, durationMs }));
    if (remember) {
      this.transition = { type, durationMs };
      this.persist();
    }
    // A cut (or a zero duration) swapped on that frame already: the swap event came before the answer.
    if (this.preview && type !== 'cut' && durationMs > 0) this.auto = { startedAt: Date.now(), durationMs, from };
    return this.view();
  }

  /** Sets the transition later takes use when they name none, without taking (the page's default control). */
  setTransition(t: { transition?: string | undefined; durationMs?: number | undefined }): MixView {
    const type = t.transition !== undefined ? this.resolveTransition(t.transition) : this.transition.type;
    const durationMs = t.durationMs ?? this.transition.durationMs;
    if (type !== this.transition.type || durationMs !== this.transition.durationMs) {
      this.transition = { type, durationMs };
      this.persist();
      this.emit('change');
    }
    return this.view();
  }

  /** The T-bar: 0 program, 1 preview, between them the transition at that progress; 1 completes the take. */
  async setPosition(value: number, transition?: string): Promise<MixView> {
    if (!this.preview) throw new ApiError('NOTHING_CUED');
    const type = transition !== undefined ? this.resolveTransition(transition) : this.transition.type;
    this.check(await this.d.render.mix({ op: 'position', transition: type, value }));
    if (type !== this.transition.type) {
      this.transition = { ...this.transition, type };
      this.persist();
    }
    if (value < 1) {
      this.auto = null;
      this.position = value;
    }
    return this.view();
  }

  /**
   * Selects replace the program outright: a take still running (or a T-bar between its ends) is ended at the
   * program end first, else it would finish afterwards on a source that was not the one selected last.
   */
  async endTransition(): Promise<void> {
    if (!this.preview || (this.auto === null && this.position === 0)) return;
    try {
      await this.setPosition(0);
    } catch (err) {
      this.d.log.warn({ err: (err as Error).message }, 'the running transition could not be ended before a select');
    }
  }

  /**
   * A select with a transition: cue the source, take it, answer after the first output frame it takes part in.
   * The current source answers at once while it delivers (as plain selects do).
   */
  async selectWith(entry: SourceEntry, t: Transition, startedAt: number): Promise<CurrentSource> {
    const program = this.d.sources.currentEntry();
    if (program && keyOf(program) === keyOf(entry) && this.d.sources.delivering(entry)) return viewOf(entry);
    await this.cue(entry, startedAt);
    await this.take({ transition: t.type, durationMs: t.durationMs }, false);
    return viewOf(entry);
  }

  /** Restores the saved preview and transition at start-up; the preview is cued at once (no-signal until frames). */
  async restore(saved: MixState | undefined): Promise<void> {
    if (!saved) return;
    if (this.d.transitions().some((t) => t.type === saved.transition.type)) this.transition = { ...saved.transition };
    const p = saved.preview;
    if (!p) return;
    const entry = this.d.sources.list().find((e) => e.sourceKind === p.kind && e.id === p.id);
    if (!entry) {
      this.d.log.warn({ kind: p.kind, id: p.id }, 'the saved preview source is not available; the preview starts empty');
      return;
    }
    const key = keyOf(entry);
    this.preview = entry;
    try {
      const spec = await this.d.sources.specFor(entry, key, 'cued');
      void this.d.render.cue(key, spec.kind === 'ring' ? { ...spec, immediate: true } : spec, Number.POSITIVE_INFINITY);
    } catch (err) {
      this.d.log.error({ id: entry.id, err: (err as Error).message }, 'could not restore the preview source');
    }
    this.emit('change');
  }

  /** Lets the preview's reader go (the layer was removed). */
  dispose(): void {
    const p = this.preview;
    if (p && readerOf(p)) this.d.readers.release(keyOf(p), 'cued');
    this.preview = null;
    this.removeAllListeners();
  }

  /** Position the output shows: the auto take's progress, else the T-bar. */
  private progress(): number {
    const a = this.auto;
    if (!a) return this.position;
    if (a.durationMs <= 0) return 1;
    return Math.min(1, a.from + ((Date.now() - a.startedAt) / a.durationMs) * (1 - a.from));
  }

  private check(error: string | null): void {
    if (error === null) return;
    if (error.startsWith('nothing is cued')) throw new ApiError('NOTHING_CUED');
    if (error.includes('did not answer')) throw new ApiError('CHAIN_BUSY', 'the renderer did not answer in time; retry');
    throw new ApiError('INTERNAL', `the transition could not run: ${error}`);
  }

  /** The worker finished a take: the preview is the program now and the old program waits on preview. */
  private swapped(keys: { program: string; preview: string }): void {
    const incoming =
      this.preview && keyOf(this.preview) === keys.program ? this.preview : this.d.sources.list().find((e) => keyOf(e) === keys.program);
    const outgoing = this.d.sources.currentEntry();
    this.auto = null;
    this.position = 0;
    if (!incoming) return;
    // The outgoing reader joins the preview before it leaves the program, so its ffmpeg never stops in between.
    const out = outgoing ? readerOf(outgoing) : null;
    if (outgoing && out && keys.preview !== '') this.d.readers.acquire(keyOf(outgoing), out.input, out.live, 'cued').catch(() => undefined);
    this.d.sources.adoptProgram(incoming);
    if (readerOf(incoming) && (!outgoing || keyOf(outgoing) !== keyOf(incoming))) this.d.readers.release(keyOf(incoming), 'cued');
    this.preview = keys.preview !== '' && outgoing ? outgoing : null;
    this.persist();
    this.emit('change');
  }

  private persist(): void {
    const p = this.preview;
    this.d.state.update((s) => {
      s.mix = { preview: p ? { kind: p.sourceKind, id: p.id } : null, transition: { ...this.transition } };
    });
  }
}

const round = (v: number): number => Math.round(v * 1000) / 1000;
