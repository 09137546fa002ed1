// Main-thread side of the render worker: starts it, keeps the newest chain snapshot and statistics for reads,
// and sends commands with deadlines (CHAIN_BUSY after LIMITS.chainTimeoutMs; the worker drops a command whose deadline passed).
import { Worker } from 'node:worker_threads';
import { EventEmitter } from 'node:events';
import type { IsfDescriptor } from '../shared/isf-types.js';
import { RENDER_COUNTERS } from '../shared/messages.js';
import type { ChainCommand, ChainEntryWire, ChainReply, ChainItem, MainToRender, RenderInit, RenderStats, RenderToMain, SourceSpec, ThumbJob, ThumbReply } from '../shared/messages.js';
import { ApiError } from '../errors.js';
import { LIMITS } from '../limits.js';
import type { Logger } from '../log.js';

/** Spec: chain read/update within this budget, then CHAIN_BUSY. */
const CHAIN_BUDGET_MS = LIMITS.chainTimeoutMs;
/** The worker's own deadline is earlier than the client's, so a reply that makes it in time is never discarded. */
const WORKER_MARGIN_MS = 100;
/** A worker silent this long is treated as not answering (it beats far more often while it renders). */
const HEARTBEAT_STALE_MS = 1000;

export interface ChainSnapshot {
  version: number;
  items: ChainItem[];
  entries: ChainEntryWire[];
}

export type SourceResult = { ok: true } | { ok: false; reason: 'expired' | 'superseded' | 'failed'; message: string };

interface Waiter<T> {
  resolve(v: T): void;
  timer: NodeJS.Timeout;
}

export declare interface RenderClient {
  on(event: 'snapshot', fn: (s: ChainSnapshot) => void): this;
  on(event: 'source', fn: (key: string) => void): this;
  on(event: 'compiled', fn: (r: { type: string; kind: 'effect' | 'generator'; ok: boolean; error?: string }) => void): this;
}

export class RenderClient extends EventEmitter {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly chainWaiters = new Map<number, Waiter<ChainReplyOrBusy>>();
  private readonly sourceWaiters = new Map<number, Waiter<SourceResult>>();
  private readonly sampleWaiters = new Map<number, Waiter<Array<[number, number, number, number]> | null>>();
  private readonly thumbWaiters = new Map<number, Waiter<ThumbReply>>();
  /** Counters the worker writes every frame (RENDER_COUNTERS); read here without a message round trip. */
  private readonly counters = new Int32Array(new SharedArrayBuffer(RENDER_COUNTERS.length * 4));
  private lastBeat = 0;
  private stopping = false;
  snapshot: ChainSnapshot = { version: 0, items: [], entries: [] };
  stats: RenderStats | null = null;
  renderer = '';
  ready = false;

  constructor(
    private readonly init: RenderInit,
    private readonly log: Logger,
    private readonly onFatal: (message: string) => void,
  ) {
    super();
  }

  start(display: string): Promise<void> {
    // headless-gl opens the display through the C environment, which only the main thread's process.env writes.
    process.env.DISPLAY = display;
    const worker = new Worker(new URL('../../workers/render/main.js', import.meta.url), {
      workerData: { ...this.init, counters: this.counters.buffer as SharedArrayBuffer } satisfies RenderInit,
    });
    this.worker = worker;
    return new Promise((resolve, reject) => {
      worker.on('message', (m: RenderToMain) => {
        if (m.t === 'ready') {
          this.ready = true;
          this.renderer = m.renderer;
          this.lastBeat = Date.now();
          resolve();
        } else if (m.t === 'fatal') {
          reject(new Error(m.message));
        } else this.onMessage(m);
      });
      worker.on('error', (err) => {
        reject(err);
        if (!this.stopping) this.onFatal(`render worker failed: ${err.message}`);
      });
      worker.on('exit', (code) => {
        this.ready = false;
        if (!this.stopping) this.onFatal(`render worker exited with code ${code}`);
      });
    });
  }

  private post(m: MainToRender): void {
    this.worker?.postMessage(m);
  }

  private onMessage(m: RenderToMain): void {
    switch (m.t) {
      case 'snapshot':
        this.snapshot = { version: m.version, items: m.items, entries: m.entries };
        this.emit('snapshot', this.snapshot);
        return;
      case 'chain-reply':
        settle(this.chainWaiters, m.id, { reply: m.reply });
        return;
      case 'expired':
        settle(this.chainWaiters, m.id, { busy: true });
        return;
      case 'source-reply':
        // A switch that completed is the truth of the output, even when the request already gave up waiting.
        if (m.ok) this.emit('source', m.key);
        settle(this.sourceWaiters, m.id, m.ok ? { ok: true } : { ok: false, reason: m.reason, message: m.message });
        return;
      case 'sample-reply':
        settle(this.sampleWaiters, m.id, m.pixels);
        return;
      case 'thumb-reply':
        settle(this.thumbWaiters, m.id, m);
        return;
      case 'compiled':
        this.emit('compiled', m);
        return;
      case 'stats':
        this.stats = m.stats;
        this.lastBeat = Date.now();
        return;
      case 'log':
        this.log[m.level](m.fields ?? {}, m.msg);
        return;
      default:
        return;
    }
  }

  /** The newest chain, or CHAIN_BUSY when the worker is not answering (no heartbeat within HEARTBEAT_STALE_MS). */
  readChain(): ChainSnapshot {
    if (!this.alive()) throw new ApiError('CHAIN_BUSY', `the render worker has not answered within ${HEARTBEAT_STALE_MS} ms; retry`);
    return this.snapshot;
  }

  alive(): boolean {
    return this.ready && Date.now() - this.lastBeat <= HEARTBEAT_STALE_MS;
  }

  /** Applies a chain command within the budget measured from `startedAt`; throws CHAIN_BUSY or the worker's error. */
  async chain(cmd: ChainCommand, startedAt = Date.now()): Promise<ChainItem> {
    return (await this.chainReply(cmd, startedAt)).item;
  }

  /** As chain(), with the whole answer: the item's inputs (params, reset) or the chain after a move. */
  async chainReply(cmd: ChainCommand, startedAt = Date.now()): Promise<Extract<ChainReply, { ok: true }>> {
    if (!this.ready) throw new ApiError('CHAIN_BUSY', 'the renderer is starting; retry');
    const id = this.nextId++;
    const deadline = startedAt + CHAIN_BUDGET_MS - WORKER_MARGIN_MS;
    const result = await wait(this.chainWaiters, id, Math.max(0, startedAt + CHAIN_BUDGET_MS - Date.now()), { busy: true } as ChainReplyOrBusy, () =>
      this.post({ t: 'chain', id, deadline, cmd }),
    );
    if ('busy' in result) throw new ApiError('CHAIN_BUSY', `the chain was not updatable within ${CHAIN_BUDGET_MS} ms; nothing changed; retry`);
    const r = result.reply;
    if (r.ok) return r;
    throw new ApiError(r.code, r.message, r.details);
  }

  /** Asks the worker to switch sources once the new one draws a frame before `deadline` (epoch ms). */
  source(key: string, spec: SourceSpec, deadline: number): Promise<SourceResult> {
    if (!this.ready) return Promise.resolve({ ok: false, reason: 'failed', message: 'the renderer is not running' });
    const id = this.nextId++;
    // The worker decides by its own clock check; this timer only covers a worker that stopped answering.
    const grace = Number.isFinite(deadline) ? Math.max(0, deadline - Date.now()) + WORKER_MARGIN_MS : 2 ** 31 - 1;
    return wait(this.sourceWaiters, id, grace, { ok: false, reason: 'expired', message: 'the renderer did not answer in time' } as SourceResult, () =>
      this.post({ t: 'source', id, key, deadline: Number.isFinite(deadline) ? deadline : Number.MAX_SAFE_INTEGER, spec }),
    );
  }

  /** Output pixels at normalized points (top-left origin), or null when the worker did not answer within the chain budget. */
  sample(points: Array<[number, number]>): Promise<Array<[number, number, number, number]> | null> {
    const id = this.nextId++;
    return wait(this.sampleWaiters, id, CHAIN_BUDGET_MS, null, () => this.post({ t: 'sample', id, points }));
  }

  /** The output's frame number (frames drawn so far), read from shared memory. */
  outputFrame(): number {
    return Atomics.load(this.counters, RENDER_COUNTERS.outputFrame);
  }

  /**
   * Runs a thumbnail job; the worker drops it undone once `job.deadline` passed. Resolves with an `expired` reply
   * when the worker does not answer by the deadline (a stalled frame loop), so the caller never waits longer.
   */
  thumb(job: Omit<ThumbJob, 'id'>): Promise<ThumbReply> {
    const id = this.nextId++;
    const late: ThumbReply = { t: 'thumb-reply', id, ok: false, reason: 'expired', message: 'the renderer did not read the frame back in time' };
    if (!this.ready) return Promise.resolve({ ...late, reason: 'failed', message: 'the renderer is not running' });
    return wait(this.thumbWaiters, id, Math.max(0, job.deadline - Date.now()) + 20, late, () => this.post({ t: 'thumb', id, ...job }));
  }

  setCatalog(effects: IsfDescriptor[], generators: IsfDescriptor[], noSignal: IsfDescriptor | null): void {
    this.post({ t: 'catalog', effects, generators, noSignal });
  }

  /** Rebuilds the saved chain; resolves once the worker published it (after compiling the catalog ahead). */
  restore(chain: ChainEntryWire[], ceiling: number): Promise<void> {
    const published = new Promise<void>((resolve) => this.once('snapshot', () => resolve()));
    this.post({ t: 'restore', chain, ceiling });
    return published;
  }

  /** Sets the program generator's input values (the worker ignores it when `key` is no longer the program). */
  setGeneratorValues(key: string, values: Record<string, unknown>, fire: string[]): void {
    this.post({ t: 'generator-values', key, values, fire });
  }

  setGlobal(blackout: boolean, dimmer: number): void {
    this.post({ t: 'global', blackout, dimmer });
  }

  setPalette(colors: string[]): void {
    this.post({ t: 'palette', colors });
  }

  /** Program readback into `ring` once per frame while set (an output is active); null stops it. */
  setOutputRing(ring: SharedArrayBuffer | null): void {
    this.post({ t: 'output-ring', ring });
  }

  stall(ms: number): void {
    this.post({ t: 'stall', ms });
  }

  failFrames(frames: number): void {
    this.post({ t: 'fail-frames', frames });
  }

  slowFrames(ms: number, frames: number): void {
    this.post({ t: 'slow-frames', ms, frames });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const w = this.worker;
    if (!w) return;
    const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
    this.post({ t: 'stop' });
    const hard = setTimeout(() => void w.terminate(), 2000);
    await exited;
    clearTimeout(hard);
  }
}

type ChainReplyOrBusy = { reply: Extract<RenderToMain, { t: 'chain-reply' }>['reply'] } | { busy: true };

function wait<T>(waiters: Map<number, Waiter<T>>, id: number, ms: number, onTimeout: T, send: () => void): Promise<T> {
  return new Promise<T>((resolve) => {
    const timer = setTimeout(() => {
      waiters.delete(id);
      resolve(onTimeout);
    }, ms);
    waiters.set(id, { resolve, timer });
    send();
  });
}

function settle<T>(waiters: Map<number, Waiter<T>>, id: number, value: T): void {
  const w = waiters.get(id);
  if (!w) return;
  waiters.delete(id);
  clearTimeout(w.timer);
  w.resolve(value);
}
