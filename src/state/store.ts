// The persisted show state (state.json): chain, current source, mixer, palette, blackout, dimmer; written atomically.
import { mkdir, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { atomicWriteFile, removeStaleTemps } from '../util/atomic-write.js';
import { readRegularText, RegularFileError } from '../util/regular-file.js';
import { DATA_FILE_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';
import { sanitize } from './sanitize.js';
import type { ShowState } from './types.js';

export type { ChainEntry, ModulationSaved, ShowState, BusSaved, BusStore, LayerSaved, SceneSaved, TempoState, MixState } from './types.js';

export const EMPTY_STATE: ShowState = { version: 1, chain: [], currentSource: null, paletteId: null, blackout: false, dimmer: 1 };

/** A failed write (disk full, read-only remount) is retried on its own, backing off up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5000;

/** Raised to waiters of `durable()` when the write holding their change failed; the change stays applied and is retried. */
export class StateNotSaved extends Error {}

interface DurableWaiter {
  seq: number;
  resolve(): void;
  reject(err: Error): void;
}

/**
 * Group commit: a change is applied in memory at once and written with every other change made while the previous
 * write was on its way to disk, so a fader sending 100 changes a second costs one fsync'd write per batch.
 * `durable()` tells a caller when everything changed so far is on disk, so an answer can promise it.
 */
export class StateStore {
  private state: ShowState = structuredClone(EMPTY_STATE);
  /** Number of changes applied so far, and how many of them the last successful write held. */
  private seq = 0;
  private savedSeq = 0;
  private writing = false;
  private timer: NodeJS.Timeout | null = null;
  private idle: Promise<void> = Promise.resolve();
  private finishIdle: () => void = () => undefined;
  private waiters: DurableWaiter[] = [];
  private retryMs = 0;
  private failures = 0;
  private lastError = '';
  private writes = 0;
  private changeListeners: Array<() => void> = [];
  /** True when load() found no state file: nothing was ever saved in this data dir. */
  firstRun = false;

  constructor(
    private readonly file: string,
    private readonly log: Logger,
  ) {}

  /** Reads state.json; a missing file starts empty, an unreadable one is logged and set aside (never overwritten blindly). */
  async load(): Promise<ShowState> {
    const stale = await removeStaleTemps(this.file);
    if (stale > 0) this.log.info({ file: this.file, removed: stale }, 'removed temp files of an interrupted state write');
    try {
      // A pipe in its place would block start-up in open(); it, or an oversized file, is refused unread.
      const parsed = JSON.parse(await readRegularText(this.file, DATA_FILE_LIMITS.stateFileMaxBytes)) as Partial<ShowState>;
      this.state = { ...structuredClone(EMPTY_STATE), ...sanitize(parsed) };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // An unreadable file is not a first run: the operator had a show, and a default must not stand in for it.
      this.firstRun = code === 'ENOENT';
      if (code !== 'ENOENT') {
        // The first write (the restored chain is published at once) would replace a corrupt file: keep it for the operator.
        const aside = err instanceof SyntaxError || err instanceof RegularFileError ? `${this.file}.unreadable-${Date.now()}` : null;
        const keptAs =
          aside &&
          (await rename(this.file, aside).then(
            () => aside,
            () => null,
          ));
        this.log.error({ file: this.file, err: (err as Error).message, keptAs }, 'state file unreadable; starting from an empty state');
      }
    }
    return this.get();
  }

  /** A private copy, safe to keep or change. */
  get(): ShowState {
    return structuredClone(this.state);
  }

  /** The live state for hot read paths; callers must not change it (use update). */
  peek(): Readonly<ShowState> {
    return this.state;
  }

  /** Writes completed so far (for /status and the durability benchmark). */
  get writeCount(): number {
    return this.writes;
  }

  /** Applies a change; it joins the next write (which starts at once unless one is on its way). */
  update(change: (s: ShowState) => void): void {
    change(this.state);
    this.seq++;
    this.schedule(0);
    for (const cb of this.changeListeners) cb();
  }

  /** Called after every applied change (the event bus re-reads its topics; it must not throw or block). */
  onChange(cb: () => void): void {
    this.changeListeners.push(cb);
  }

  /**
   * Resolves once every change applied before this call is on disk (fsync'd); rejects with StateNotSaved when the
   * write holding them fails (the change stays applied and the write is retried in the background).
   */
  durable(): Promise<void> {
    if (this.savedSeq >= this.seq) return Promise.resolve();
    // After a failure the next attempt waits for its backoff; someone waiting for an answer tries now instead.
    if (this.failures > 0 && !this.writing) {
      this.cancelTimer();
      this.schedule(0);
    }
    return new Promise((resolve, reject) => this.waiters.push({ seq: this.seq, resolve, reject }));
  }

  /** Writes pending changes now and waits for them (used on shutdown); never rejects. */
  async flush(): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      this.cancelTimer();
      if (this.writing) await this.idle;
      else if (this.savedSeq < this.seq) await this.write();
      else return;
    }
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(ms: number): void {
    if (this.writing || this.timer) return;
    // setTimeout(0) rather than a microtask: every change made by the same burst of I/O callbacks joins the batch.
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.write();
    }, ms);
  }

  private async write(): Promise<void> {
    if (this.writing || this.savedSeq >= this.seq) return;
    this.writing = true;
    this.idle = new Promise((resolve) => (this.finishIdle = resolve));
    const batch = this.seq;
    const snapshot = JSON.stringify(this.state, null, 2);
    let failed: Error | null = null;
    try {
      await mkdir(dirname(this.file), { recursive: true });
      await atomicWriteFile(this.file, snapshot);
    } catch (err) {
      failed = err as Error;
    }
    this.writing = false;
    this.finishIdle();
    if (failed) return this.failed(failed, batch);
    this.savedSeq = batch;
    this.writes++;
    if (this.failures > 0) this.log.info({ file: this.file, failedAttempts: this.failures }, 'state written again');
    this.failures = 0;
    this.retryMs = 0;
    this.lastError = '';
    this.settle(
      (w) => w.seq <= batch,
      (w) => w.resolve(),
    );
    if (this.savedSeq < this.seq) this.schedule(0);
  }

  private failed(err: Error, batch: number): void {
    this.failures++;
    const message = err.message;
    // One line per failure streak (and per new cause), not one per retry.
    if (this.failures === 1 || message !== this.lastError) {
      this.log.error({ file: this.file, err: message }, 'state write failed; previous state file kept; retrying');
    }
    this.lastError = message;
    this.retryMs = Math.min(this.retryMs === 0 ? RETRY_FIRST_MS : this.retryMs * 2, RETRY_MAX_MS);
    const notSaved = new StateNotSaved(`the change is applied but could not be written to disk (${message}); vjd keeps retrying`);
    this.settle(
      (w) => w.seq <= batch,
      (w) => w.reject(notSaved),
    );
    this.schedule(this.retryMs);
  }

  private settle(match: (w: DurableWaiter) => boolean, act: (w: DurableWaiter) => void): void {
    const keep: DurableWaiter[] = [];
    for (const w of this.waiters) {
      if (match(w)) act(w);
      else keep.push(w);
    }
    this.waiters = keep;
  }
}
