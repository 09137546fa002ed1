// Every selectable source (generators, presets, live inputs, media files), the current source and its activation:
// a selection answers only after the render worker drew the new source's first frame to the output, and on timeout
// or error the previous source keeps driving the output (docs/api.md, "Current source"). Readers of inputs and
// files are held through the reader pool (roles `activating` and `program`), which keeps them retrying for as
// long as they are held; a select of the current source while it delivers nothing restarts its reader.
import { EventEmitter } from 'node:events';
import type { SourceResult } from '../workers/render-client.js';
import type { LayerRender } from '../workers/layer-render.js';
import type { ReaderPool, ReaderRole } from '../inputs/reader-pool.js';
import type { SourceSpec } from '../shared/messages.js';
import { matchName } from '../shared/names.js';
import { deviceIdOf } from '../browse/live-id.js';
import { ApiError, notFound } from '../errors.js';
import { LIMITS } from '../limits.js';
import type { BusStore } from '../state/store.js';
import type { Logger } from '../log.js';
import { sourceKindOf, type EntrySpec, type SourceEntry, type SourceKind } from './kinds/index.js';

export type { SourceEntry, SourceKind };

/** Spec: a selection answers within this budget or 504 ACTIVATION_TIMEOUT. */
const ACTIVATION_MS = LIMITS.activationTimeoutMs;

export interface CurrentSource {
  id: string;
  name: string;
  sourceKind: SourceKind | 'none';
  type: string;
}

/** The answer while nothing has been selected yet (documented): empty strings and kind/type `none`. */
export const NO_SOURCE: CurrentSource = { id: '', name: '', sourceKind: 'none', type: 'none' };

export interface SelectQuery {
  id?: string | undefined;
  name?: string | undefined;
}

export class SourceManager extends EventEmitter {
  private entries: SourceEntry[] = [];
  private current: SourceEntry | null = null;
  private readonly activating = new Map<string, SourceEntry>();
  private readonly inflight = new Map<string, Promise<CurrentSource>>();

  constructor(
    private readonly render: LayerRender,
    private readonly readers: ReaderPool,
    private readonly state: BusStore,
    private readonly log: Logger,
  ) {
    super();
    render.on('source', (key) => this.switched(key));
  }

  /** Replaces the list of selectable sources (catalog, live enumeration or media library changed). */
  setEntries(entries: SourceEntry[]): void {
    this.entries = entries;
    if (this.current) {
      const fresh = entries.find((e) => e.id === this.current!.id && e.sourceKind === this.current!.sourceKind);
      // A source that disappeared stays current (its last frame or no-signal card keeps showing) until replaced.
      if (fresh) this.current = fresh;
    }
    this.emit('change');
  }

  list(): readonly SourceEntry[] {
    return this.entries;
  }

  currentSource(): CurrentSource {
    return this.current ? viewOf(this.current) : NO_SOURCE;
  }

  /** The program's entry (null before the first selection). */
  currentEntry(): SourceEntry | null {
    return this.current;
  }

  /** Browse id of the current item (`liveInput:<id>` for live inputs), for `activeState`. */
  activeItemId(): string | null {
    const c = this.current;
    if (!c) return null;
    return sourceKindOf(c.sourceKind).browseId?.(c.id) ?? c.id;
  }

  /** Resolves a selection among `kinds` (id first, then flexible name) or throws 404 ITEM_NOT_FOUND. */
  resolve(kinds: readonly SourceKind[], q: SelectQuery, label: string): SourceEntry {
    const pool = this.entries.filter((e) => kinds.includes(e.sourceKind));
    if (q.id !== undefined) {
      const id = deviceIdOf(q.id);
      const exact = pool.find((e) => e.id === id) ?? matchName(pool, id, [(e) => e.id]);
      if (exact) return exact;
    }
    if (q.name !== undefined) {
      const byName = matchName(pool, q.name, [(e) => e.name, (e) => e.id]);
      if (byName) return byName;
    }
    const requested = q.id ?? q.name ?? '';
    throw notFound(
      label,
      requested,
      pool.map((e) => e.id),
      `no available ${label} matches`,
    );
  }

  /**
   * Activates `entry`; resolves with the current source after its first frame reached the output. The current
   * source answers at once while it delivers frames; while it delivers none its reader is restarted and the
   * answer waits for a new frame like any activation.
   */
  select(entry: SourceEntry, startedAt = Date.now()): Promise<CurrentSource> {
    const key = keyOf(entry);
    // Identical selections in flight share one activation (a double-tapped button must not supersede itself).
    let shared = this.inflight.get(key);
    if (!shared) {
      const isCurrent = this.current !== null && keyOf(this.current) === key;
      if (isCurrent && this.delivering(entry)) return Promise.resolve(this.currentSource());
      const p = this.activate(entry, key, startedAt, isCurrent).finally(() => {
        if (this.inflight.get(key) === p) this.inflight.delete(key);
      });
      this.inflight.set(key, (shared = p));
    }
    // The worker may switch up to the end of the budget, so no request hears of a failure before its own budget
    // has passed (the activation itself is over: a new select of the same source starts a new one).
    return shared.catch(async (err: unknown) => {
      // A shader that does not compile never switches later, so its answer is given at once.
      if (err instanceof ApiError && err.code === 'SOURCE_LOAD_FAILED') throw err;
      const early = startedAt + ACTIVATION_MS - Date.now();
      if (early > 0) await sleep(early);
      throw err;
    });
  }

  /** Whether the entry has frames to show now (generators always do). */
  delivering(entry: SourceEntry): boolean {
    return readerOf(entry) === null || this.readers.delivering(keyOf(entry));
  }

  private async activate(entry: SourceEntry, key: string, startedAt: number, restart: boolean): Promise<CurrentSource> {
    const deadline = startedAt + ACTIVATION_MS;
    let result: SourceResult;
    this.activating.set(key, entry);
    try {
      const spec = await beforeDeadline(this.specFor(entry, key, 'activating'), deadline);
      if (spec?.kind === 'ring' && restart) {
        // Switch on the first frame of the new process, not on the frame the output already shows.
        spec.afterFrame = this.readers.frameCount(key);
        this.readers.restart(key);
        this.log.info({ id: entry.id, state: this.readers.state(key) }, 'restarting the current source: it delivers no frames');
      }
      result = spec
        ? await this.render.source(key, spec, deadline)
        : { ok: false, reason: 'expired', message: 'the input did not open in time' };
    } catch (err) {
      result = { ok: false, reason: 'failed', message: (err as Error).message };
    } finally {
      this.activating.delete(key);
      this.readers.release(key, 'activating');
    }
    if (!result.ok && result.reason === 'load-failed')
      throw loadFailed(entry.name, result.message, 'the previous source keeps driving the output');
    if (!result.ok) {
      const why = result.reason === 'expired' ? `no first frame within ${ACTIVATION_MS} ms` : result.message;
      const after =
        restart && this.current !== null && keyOf(this.current) === key
          ? `${why} after restarting it; it stays the current source and keeps retrying`
          : `${why}; the previous source keeps driving the output`;
      throw new ApiError('ACTIVATION_TIMEOUT', `${entry.name}: ${after}`, {
        requested: entry.id,
        kind: entry.sourceKind,
        reason: result.reason,
        timeoutMs: ACTIVATION_MS,
      });
    }
    return this.currentSource();
  }

  /** Restores the persisted current source at start-up: it is current at once and drives the output from its first frame. */
  async restore(saved: { kind: string; id: string } | null): Promise<void> {
    if (!saved) return;
    const entry = this.entries.find((e) => e.sourceKind === saved.kind && e.id === saved.id);
    if (!entry) {
      this.log.warn({ kind: saved.kind, id: saved.id }, 'the saved current source is not available; starting without one');
      return;
    }
    this.current = entry;
    const key = keyOf(entry);
    try {
      const spec = await this.specFor(entry, key, 'program');
      // A restored live input is on the output at once: the no-signal card until its first frame.
      void this.render.source(key, spec.kind === 'ring' ? { ...spec, immediate: spec.live } : spec, Number.POSITIVE_INFINITY);
    } catch (err) {
      this.log.error({ id: entry.id, err: (err as Error).message }, 'could not restore the current source');
    }
    this.emit('change');
  }

  /** Lets the program's reader go (the layer was removed). */
  dispose(): void {
    const c = this.current;
    if (c && readerOf(c)) this.readers.release(keyOf(c), 'program');
    this.current = null;
    this.removeAllListeners();
  }

  /** What the render worker draws for `entry`; inputs and files hold their reader for `role`. */
  async specFor(entry: SourceEntry, key: string, role: ReaderRole): Promise<SourceSpec> {
    const s = entry.spec;
    if (s.kind === 'generator') return { kind: 'generator', type: s.type, inputs: s.inputs };
    const ring = await this.readers.acquire(key, s.input, s.live, role);
    return { kind: 'ring', ring, live: s.live };
  }

  private switched(key: string): void {
    const c = this.current;
    const entry = this.activating.get(key) ?? (c && keyOf(c) === key ? c : undefined) ?? this.entries.find((e) => keyOf(e) === key);
    if (entry) this.adoptProgram(entry);
  }

  /** Makes `entry` the program (the render worker already shows it): reader role, state.json, log, change. */
  adoptProgram(entry: SourceEntry): void {
    const c = this.current;
    const key = keyOf(entry);
    this.current = entry;
    const r = readerOf(entry);
    if (r) this.holdProgram(key, r);
    if (c && keyOf(c) !== key) this.readers.release(keyOf(c), 'program');
    this.state.update((s) => {
      s.currentSource = { kind: entry.sourceKind, id: entry.id };
    });
    this.log.info({ id: entry.id, name: entry.name, kind: entry.sourceKind }, 'current source');
    this.emit('change');
  }

  /**
   * Holds the new current source's reader for the program. One that had to be opened anew (a switch that
   * completed after its request gave up and released the reader) has a new ring, which the output is pointed at.
   */
  private holdProgram(key: string, r: ReaderSpec): void {
    const had = this.readers.ring(key);
    this.readers.acquire(key, r.input, r.live, 'program').then(
      (ring) => {
        if (had === null) this.repoint(key, ring);
      },
      () => {
        // logged by the pool; the reader is retried by the next acquire
      },
    );
  }

  /** Points the output at the current source's new ring (its reader had been closed and was opened again). */
  private repoint(key: string, ring: SharedArrayBuffer): void {
    const c = this.current;
    const r = c && keyOf(c) === key ? readerOf(c) : null;
    if (!r) return;
    void this.render.source(key, { kind: 'ring', ring, live: r.live, immediate: r.live }, Number.POSITIVE_INFINITY);
  }
}

export type ReaderSpec = Extract<EntrySpec, { kind: 'reader' }>;

/** What an entry's reader reads; null for generators and presets (drawn by the render worker itself). */
export function readerOf(e: SourceEntry): ReaderSpec | null {
  return e.spec.kind === 'reader' ? e.spec : null;
}

/** 500 SOURCE_LOAD_FAILED: the generator's shader does not load or compile (`message` names its file and line). */
export function loadFailed(name: string, message: string, after: string): ApiError {
  return new ApiError('SOURCE_LOAD_FAILED', `${name}: ${message}; ${after}`);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The promise's value, or null when `deadline` (epoch ms) passes first. */
export function beforeDeadline<T>(p: Promise<T>, deadline: number): Promise<T | null> {
  return new Promise<T | null>((resolve, reject) => {
    const t = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()));
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(t);
        reject(err);
      },
    );
  });
}

/** The render worker's key of a source, and the reader pool's key of inputs and files (see liveReaderKey). */
export function keyOf(e: SourceEntry): string {
  return `${e.sourceKind}:${e.id}`;
}

/** The entry as routes show it (the current-source object). */
export function viewOf(e: SourceEntry): CurrentSource {
  return { id: e.id, name: e.name, sourceKind: e.sourceKind, type: e.type };
}
