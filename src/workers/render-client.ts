// Main-thread side of the render worker: starts it, keeps the newest chain snapshot and statistics for reads,
// and sends commands with deadlines (CHAIN_BUSY after LIMITS.chainTimeoutMs; the worker drops a command whose deadline passed).
import { Worker } from 'node:worker_threads';
import { EventEmitter } from 'node:events';
import type { IsfDescriptor } from '../shared/isf-types.js';
import { RENDER_COUNTERS } from '../shared/protocol/render.js';
import type {
  PipelinePressure,
  LiveReport,
  ModulationState,
  Bus,
  ChainCommand,
  ChainEntryWire,
  ChainDone,
  ChainFailReason,
  ChainItem,
  LayerWire,
  MixCommand,
  MainToRender,
  OutputMapItem,
  RenderInit,
  RenderStats,
  RenderToMain,
  SourceFailReason,
  SourceSpec,
  ThumbFailReason,
  ThumbJob,
  ThumbReply,
} from '../shared/protocol/render.js';
import { answered, NO_DEADLINE, RpcCalls, type RpcEnvelope } from '../shared/rpc.js';
import { type CommonReason, type Failure, type FailureReply, relayLog, replyOf } from '../shared/protocol/common.js';
import { ApiError } from '../errors.js';
import { LIMITS } from '../limits.js';
import type { Logger } from '../log.js';

/** Spec: chain read/update within this budget, then CHAIN_BUSY. */
const CHAIN_BUDGET_MS = LIMITS.chainTimeoutMs;
/** The worker's own deadline is earlier than the client's, so a reply that makes it in time is never discarded. */
const WORKER_MARGIN_MS = 100;
/** How long past a thumbnail job's deadline the client still waits for the worker's own expired answer. */
const THUMB_GRACE_MS = 20;
/** A worker silent this long is treated as not answering (it beats far more often while it renders). */
const HEARTBEAT_STALE_MS = 1000;

export interface ChainSnapshot {
  version: number;
  items: ChainItem[];
  entries: ChainEntryWire[];
}

/** `load-failed`: the generator's shader does not load or compile; the message names the file and line. */
export type SourceResult = { ok: true } | Failure<SourceFailReason>;

/** A thumbnail job's answer: `expired` too when the worker did not answer in time. */
export type ThumbResult = Extract<ThumbReply, { ok: true }> | Failure<ThumbFailReason>;

/** Said for a request nobody answered by its deadline (plus grace). */
const NO_ANSWER = 'the renderer did not answer in time';

export declare interface RenderClient {
  on(event: 'snapshot', fn: (s: ChainSnapshot) => void): this;
  /** A layer's program switched (`layer`: its id). */
  on(event: 'source', fn: (key: string, layer: number) => void): this;
  on(event: 'live', fn: (r: LiveReport) => void): this;
  on(event: 'mix-swap', fn: (keys: { program: string; preview: string }, layer: number) => void): this;
  /** A layer's own chain changed. */
  on(event: 'layer-snapshot', fn: (layer: number, s: ChainSnapshot) => void): this;
  on(event: 'compiled', fn: (r: { type: string; kind: 'effect' | 'generator' | 'transition'; ok: boolean; error?: string }) => void): this;
  /** A scheduled operation's gate opened on its frame (src/schedule). */
  on(event: 'gate-applied', fn: (r: GateApplied) => void): this;
}

/** What the render worker reports of a scheduled operation's frame (workers/render/gate.ts). */
export type GateApplied = Omit<Extract<RenderToMain, { t: 'gate-applied' }>, 't'>;

export class RenderClient extends EventEmitter {
  private worker: Worker | null = null;
  /** Every request in flight to the worker, whatever its kind: one id space, one deadline rule. */
  private readonly calls = new RpcCalls();
  /** Counters the worker writes every frame (RENDER_COUNTERS); read here without a message round trip. */
  private readonly counters = new Int32Array(new SharedArrayBuffer(RENDER_COUNTERS.length * 4));
  private lastBeat = 0;
  private stopping = false;
  snapshot: ChainSnapshot = { version: 0, items: [], entries: [] };
  /** Each layer's own chain, by layer id (absent: empty). */
  readonly layerSnapshots = new Map<number, ChainSnapshot>();
  stats: RenderStats | null = null;
  renderer = '';
  /** The program layout the render worker measured (or was told) reads back best; null before it is ready. */
  readback: Extract<RenderToMain, { t: 'ready' }>['readback'] | null = null;
  ready = false;
  /** The pixel-mapping table and block last set (sent again when a worker starts). */
  private pixelMap: { samples: Float32Array | null; block: SharedArrayBuffer | null } = { samples: null, block: null };
  /** The mapped outputs last set (sent again when a worker starts). */
  private outputMaps: OutputMapItem[] = [];

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
    if (this.pixelMap.samples && this.pixelMap.block) this.post({ t: 'pixel-map', ...this.pixelMap });
    if (this.outputMaps.length > 0) this.post({ t: 'output-maps', items: this.outputMaps });
    return new Promise((resolve, reject) => {
      worker.on('message', (m: RenderToMain) => {
        if (m.t === 'ready') {
          this.ready = true;
          this.renderer = m.renderer;
          this.readback = m.readback;
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
      case 'snapshot': {
        const snap = { version: m.version, items: m.items, entries: m.entries };
        if (m.layer !== undefined) {
          this.layerSnapshots.set(m.layer, snap);
          this.emit('layer-snapshot', m.layer, snap);
          return;
        }
        this.snapshot = snap;
        this.emit('snapshot', this.snapshot);
        return;
      }
      case 'chain-reply':
      case 'mix-reply':
      case 'shown-reply':
      case 'sample-reply':
      case 'thumb-reply':
      case 'failure':
        this.calls.settle(m.id, m);
        return;
      case 'live': {
        const { t: _t, ...report } = m;
        this.emit('live', report);
        return;
      }
      case 'source-reply':
        // A program switch that completed is the truth of the output, even when the request already gave up waiting.
        if (m.ok && m.bus === 'program') this.emit('source', m.key, m.layer);
        this.calls.settle(m.id, m);
        return;
      case 'mix-swap':
        this.emit('mix-swap', { program: m.program, preview: m.preview }, m.layer);
        return;
      case 'compiled':
        this.emit('compiled', m);
        return;
      case 'gate-applied': {
        const { t: _t, ...r } = m;
        this.emit('gate-applied', r);
        return;
      }
      case 'stats':
        this.stats = m.stats;
        this.lastBeat = Date.now();
        return;
      case 'log':
        relayLog(this.log, m);
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

  /** Sends one request; resolves with its success reply (kind `T`) or a Failure (replyOf). */
  private async request<T extends RenderToMain['t'], R extends string = CommonReason>(
    deadline: number,
    msg: (env: RpcEnvelope) => MainToRender,
    opts: { graceMs?: number; timeoutMessage?: string } = {},
  ): Promise<Extract<RenderToMain, { t: T }> | Failure<R | CommonReason>> {
    const o = await this.calls.call<Extract<RenderToMain, { t: T }> | FailureReply<R>>(deadline, (env) => this.post(msg(env)), opts);
    return replyOf(o);
  }

  /** Applies a chain command within the budget measured from `startedAt`; throws CHAIN_BUSY or the worker's error. */
  async chain(cmd: ChainCommand, startedAt = Date.now()): Promise<ChainItem> {
    return (await this.chainReply(cmd, startedAt)).item;
  }

  /** As chain(), with the whole answer: the item's inputs (params, reset) or the chain after a move. */
  async chainReply(cmd: ChainCommand, startedAt = Date.now(), layer?: number): Promise<ChainDone> {
    if (!this.ready) throw new ApiError('CHAIN_BUSY', 'the renderer is starting; retry');
    // The worker's deadline is the client's less a margin, so an answer that makes it in time is never discarded.
    const r = await this.request<'chain-reply', ChainFailReason>(
      startedAt + CHAIN_BUDGET_MS - WORKER_MARGIN_MS,
      (env) => ({ t: 'chain', ...env, cmd, ...(layer !== undefined ? { layer } : {}) }),
      { graceMs: WORKER_MARGIN_MS },
    );
    if (r.ok) {
      const { t: _t, id: _id, ...done } = r;
      return done;
    }
    // Past the deadline, or a worker gone: nothing changed.
    if (r.reason === 'expired' || r.reason === 'failed')
      throw new ApiError('CHAIN_BUSY', `the chain was not updatable within ${CHAIN_BUDGET_MS} ms; nothing changed; retry`);
    throw new ApiError(r.reason, r.message, r.details);
  }

  /** Asks the worker to switch the program once the new source draws a frame before `deadline` (epoch ms). */
  source(key: string, spec: SourceSpec, deadline: number, layer = 1): Promise<SourceResult> {
    return this.toBus('program', key, spec, deadline, layer);
  }

  /** Asks the worker to put a source on the preview bus once it has a frame before `deadline` (epoch ms). */
  cue(key: string, spec: SourceSpec, deadline: number, layer = 1): Promise<SourceResult> {
    return this.toBus('preview', key, spec, deadline, layer);
  }

  private async toBus(bus: Bus, key: string, spec: SourceSpec, deadline: number, layer: number): Promise<SourceResult> {
    if (!this.ready) return { ok: false, reason: 'failed', message: 'the renderer is not running' };
    // The worker decides by its own clock check; the client's timer only covers a worker that stopped answering.
    const r = await this.request<'source-reply', SourceFailReason>(
      Number.isFinite(deadline) ? deadline : NO_DEADLINE,
      (env) => ({ t: 'source', ...env, bus, key, spec, layer }),
      { graceMs: WORKER_MARGIN_MS, timeoutMessage: NO_ANSWER },
    );
    return r.ok ? { ok: true } : { ok: false, reason: r.reason, message: r.message };
  }

  /**
   * Runs a mix command; resolves null after the first frame that shows it, or with the reason it could not run.
   * Throws TRANSITION_LOAD_FAILED at once when the transition's shader does not load or compile.
   */
  async mix(cmd: MixCommand, layer = 1): Promise<string | null> {
    if (!this.ready) return 'the renderer is not running';
    const r = await this.request<'mix-reply', 'load-failed'>(
      Date.now() + LIMITS.activationTimeoutMs,
      (env) => ({ t: 'mix', ...env, cmd, layer }),
      {
        timeoutMessage: NO_ANSWER,
      },
    );
    if (r.ok) return null;
    if (r.reason === 'load-failed')
      throw new ApiError('TRANSITION_LOAD_FAILED', `transition "${cmd.transition}" does not load: ${r.message}`);
    return r.message;
  }

  /**
   * Resolves null once the program source `key` has drawn a ring frame newer than `afterFrame` to the output (at
   * once when `key` is not the program), or with the reason it was not drawn before `deadline` (epoch ms).
   */
  async shown(key: string, afterFrame: number, deadline: number, layer = 1): Promise<string | null> {
    if (!this.ready) return 'the renderer is not running';
    const r = await this.request<'shown-reply'>(deadline, (env) => ({ t: 'shown', ...env, key, afterFrame, layer }), {
      graceMs: WORKER_MARGIN_MS,
      timeoutMessage: NO_ANSWER,
    });
    return r.ok ? null : r.message;
  }

  setTransitions(items: IsfDescriptor[]): void {
    this.post({ t: 'transitions', items });
  }

  /** The layer blend modes; the worker compiles them and reports each result as `compiled`. */
  setBlends(items: IsfDescriptor[]): void {
    this.post({ t: 'blends', items });
  }

  /** Output pixels at normalized points (top-left origin), or null when the worker did not answer within the chain budget. */
  async sample(points: Array<[number, number]>): Promise<Array<[number, number, number, number]> | null> {
    const r = await this.calls.call<Extract<RenderToMain, { t: 'sample-reply' }> | FailureReply>(Date.now() + CHAIN_BUDGET_MS, (env) =>
      this.post({ t: 'sample', ...env, points }),
    );
    // A sample the worker failed to read is no pixels; one it never answered is none at all.
    if (!answered(r)) return null;
    return r.ok ? r.pixels : [];
  }

  /** The output's frame number (frames drawn so far), read from shared memory. */
  outputFrame(): number {
    return Atomics.load(this.counters, RENDER_COUNTERS.outputFrame);
  }

  /**
   * Runs a thumbnail job; the worker drops it undone once `job.deadline` passed. Resolves with an `expired` reply
   * when the worker does not answer by the deadline (a stalled frame loop), so the caller never waits longer.
   */
  async thumb(job: Omit<ThumbJob, 'id'>): Promise<ThumbResult> {
    if (!this.ready) return { ok: false, reason: 'failed', message: 'the renderer is not running' };
    // The job's own deadline is the envelope's: the worker drops it undone past it.
    return this.request<'thumb-reply', ThumbFailReason>(job.deadline, (env) => ({ t: 'thumb', ...job, ...env }), {
      graceMs: THUMB_GRACE_MS,
      timeoutMessage: 'the renderer did not read the frame back in time',
    });
  }

  setCatalog(effects: IsfDescriptor[], generators: IsfDescriptor[], noSignal: IsfDescriptor | null): void {
    this.post({ t: 'catalog', effects, generators, noSignal });
  }

  /** Rebuilds the saved chain; resolves once the worker published it (after compiling the catalog ahead). */
  restore(chain: ChainEntryWire[], ceiling: number, layer?: number): Promise<void> {
    const published = new Promise<void>((resolve) => {
      if (layer === undefined) this.once('snapshot', () => resolve());
      else {
        const on = (l: number): void => {
          if (l !== layer) return;
          this.off('layer-snapshot', on);
          resolve();
        };
        this.on('layer-snapshot', on);
      }
    });
    this.post({ t: 'restore', chain, ceiling, ...(layer !== undefined ? { layer } : {}) });
    return published;
  }

  /** Holds the output and blends the following frames over it (a scene recall's transition). */
  pictureTransition(transition: string, durationMs: number): void {
    this.post({ t: 'picture-transition', transition, durationMs });
  }

  /** The layer stack, bottom to top (see LayerWire). */
  setLayers(layers: LayerWire[]): void {
    this.post({ t: 'layers', layers });
  }

  /** Sets the program generator's input values (the worker ignores it when `key` is no longer the program). */
  setGeneratorValues(key: string, values: Record<string, unknown>, fire: string[]): void {
    this.post({ t: 'generator-values', key, values, fire });
  }

  /** Modulation outside the chain (generator, T-bar, dimmer) and freeze. */
  setModulation(s: ModulationState): void {
    this.post({ t: 'modulation', ...s });
  }

  /** Live reports of modulated values until epoch ms `untilMs` (while modulators exist). */
  wantLive(untilMs: number): void {
    this.post({ t: 'live-want', untilMs });
  }

  setGlobal(blackout: boolean, dimmer: number): void {
    this.post({ t: 'global', blackout, dimmer });
  }

  setPalette(colors: string[]): void {
    this.post({ t: 'palette', colors });
  }

  /** A reloaded render.scale or render.minScale: applies from the next frame. */
  setScale(scale: number | 'auto', minScale: number): void {
    this.post({ t: 'scale', scale, minScale });
  }

  /** How the encoders and the main thread kept up over the last second (an automatic scale follows it). */
  pressure(p: PipelinePressure): void {
    this.post({ t: 'pressure', ...p });
  }

  /** Program readback into `ring` once per frame while set (an output is active); null stops it. */
  setOutputRing(ring: SharedArrayBuffer | null): void {
    this.post({ t: 'output-ring', ring });
  }

  /**
   * Pixel mapping: samples the output every frame at `samples` (4 floats per fixture pixel) into `block`
   * (src/shared/pixel-samples.ts); null stops it. Kept here and sent again to a worker started anew
   * (the worker itself keeps it across a rebuilt context).
   */
  setPixelMap(samples: Float32Array | null, block: SharedArrayBuffer | null): void {
    this.pixelMap = { samples, block };
    this.post({ t: 'pixel-map', samples, block });
  }

  /** Output mapping: the mapped outputs that run now, each with its map and ring (kept and sent to a new worker). */
  setOutputMaps(items: OutputMapItem[]): void {
    this.outputMaps = items;
    this.post({ t: 'output-maps', items });
  }

  /** Holds the messages that follow until the first frame due at or after epoch ms `at` (once openGate(id) came). */
  shutGate(id: string, at: number): void {
    this.post({ t: 'gate', id, at });
  }

  /** The scheduled operation `id` has sent its messages: its gate opens on its frame. */
  openGate(id: string): void {
    this.post({ t: 'gate-open', id });
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
