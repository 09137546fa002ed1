// Main-thread handle of the ingest worker: opens and closes sources, tracks their states, relays the worker's logs,
// and restarts the worker (with backoff) when it dies, reopening every source still held onto its old ring.
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import { log } from '../log.js';
import { INGEST_LIMITS } from '../limits.js';
import type {
  ClipCommand,
  ClipStart,
  ClipStatus,
  IngestInit,
  IngestInput,
  IngestOpenReply,
  IngestState,
  IngestToMain,
  MainToIngest,
} from '../shared/protocol/ingest.js';
import { answered, NO_DEADLINE, RpcCalls, type RpcOutcome } from '../shared/rpc.js';
import { type FailureReply, relayLog, replyOf } from '../shared/protocol/common.js';
import { stopWorker } from './stop-worker.js';

export interface OpenOptions {
  /** Watch for stalls (live inputs). Every open source is retried with backoff until it is closed. */
  live: boolean;
}

export interface SourceStatus {
  state: IngestState;
  message?: string;
}

type StateListener = (key: string, state: IngestState, message: string | undefined) => void;
type ClipListener = (key: string, status: ClipStatus) => void;
type ClipReply = Extract<IngestToMain, { t: 'clip-reply' }> | FailureReply;

const STOP_TIMEOUT_MS = 5000;

export interface IngestClient {
  on(event: 'state', listener: StateListener): this;
  off(event: 'state', listener: StateListener): this;
  once(event: 'state', listener: StateListener): this;
}

/** A clip reader's transport changed or moved on (several times a second while it plays). */
export interface IngestClient {
  on(event: 'clip', listener: ClipListener): this;
  off(event: 'clip', listener: ClipListener): this;
}

/** A source opened and not closed since: reopened on a restarted worker, onto its ring once it has one. */
interface Held {
  input: IngestInput;
  live: boolean;
  ring: SharedArrayBuffer | null;
  /** The PCM ring of its audio track, once the worker made one. */
  pcm: SharedArrayBuffer | null;
  /** The latest open sent for it (a restarted worker's reopen replaces the open its dead predecessor never answered). */
  call: Promise<RpcOutcome<IngestOpenReply | FailureReply>>;
}

export class IngestClient extends EventEmitter {
  private worker: Worker | null = null;
  private readonly held = new Map<string, Held>();
  private startedAt = 0;
  private restartDelayMs: number = INGEST_LIMITS.workerRestartFirstMs;
  private restartTimer: NodeJS.Timeout | null = null;
  private readonly statuses = new Map<string, SourceStatus>();
  /** Every request in flight to the worker: opens and the stop, one id space, one deadline rule. */
  private readonly calls = new RpcCalls();
  /** Set while a dead worker awaits its restart; settled once the next one has reopened every held key. */
  private nextWorker: { started: Promise<void>; settle: () => void } | null = null;
  /** ffmpeg pids by key, killed synchronously if this process exits with the worker still running. */
  private readonly pids = new Map<string, number>();
  private stopped: Promise<void> | null = null;
  /** The transport a media video's reader starts with; undefined reads the file as a plain loop. */
  clipStart: ((key: string, input: IngestInput) => ClipStart | undefined) | null = null;
  private readonly clips = new Map<string, ClipStatus>();
  private readonly onProcessExit = (): void => {
    for (const pid of this.pids.values()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };

  constructor(private readonly init: Omit<IngestInit, 'stall'>) {
    super();
    process.on('exit', this.onProcessExit);
  }

  /** Opens (or rejoins) a source; resolves with its frame ring as soon as the worker created it. */
  open(key: string, input: IngestInput, opts: OpenOptions): Promise<SharedArrayBuffer> {
    if (this.stopped) return Promise.reject(new Error('ingest client is stopped'));
    // Started before the key is recorded: a fresh worker reopens only the keys held before this call.
    const worker = this.ensureWorker();
    const known = this.held.get(key);
    // Same key, other input: the worker replaces the process and its ring.
    const same = known !== undefined && JSON.stringify([known.input, known.live]) === JSON.stringify([input, opts.live]);
    // Its call is the open sent just below.
    const held = { input, live: opts.live, ring: same ? known.ring : null, pcm: same ? known.pcm : null } as Held;
    this.held.set(key, held);
    this.sendOpen(worker, key, held, false);
    return this.ringOf(key, held);
  }

  /** Sends the key's open as a call; `reopen` hands the ring back so a restarted worker writes on it. */
  private sendOpen(worker: Worker, key: string, held: Held, reopen: boolean): void {
    const ring = reopen && held.ring ? { ring: held.ring, ...(held.pcm ? { pcm: held.pcm } : {}) } : {};
    // A reopen after a worker restart goes on from the position last reported.
    const clip = this.clipStart?.(key, held.input);
    const last = reopen ? this.clips.get(key) : undefined;
    const start = clip && last ? { ...clip, positionS: last.positionS, paused: last.state !== 'playing' } : clip;
    held.call = this.calls.call<IngestOpenReply | FailureReply>(NO_DEADLINE, (env) =>
      this.send(worker, { t: 'open', ...env, key, input: held.input, live: held.live, ...ring, ...(start ? { clip: start } : {}) }),
    );
    void held.call.then((r) => {
      if (answered(r) && r.ok && this.held.get(key) === held) {
        held.ring = r.ring;
        held.pcm = r.pcm ?? null;
      }
    });
  }

  /**
   * The ring of an open, or why it failed. A worker that dies before answering leaves it to its successor, which
   * reopens every key still held; a key closed meanwhile has no ring to give.
   */
  private async ringOf(key: string, held: Held): Promise<SharedArrayBuffer> {
    for (;;) {
      const call = held.call;
      const r = await call;
      if (answered(r)) {
        if (r.ok) return r.ring;
        throw new Error(r.message);
      }
      await this.nextWorker?.started;
      if (this.stopped) throw new Error('ingest client stopped');
      const now = this.held.get(key);
      if (!now) throw new Error('source closed before it opened');
      if (now.call === call) throw new Error(r.message);
      held = now;
    }
  }

  /** The PCM ring of the key's audio track once it is open (null: none asked for, or not open yet). */
  pcm(key: string): SharedArrayBuffer | null {
    return this.held.get(key)?.pcm ?? null;
  }

  /** Starts the key's process again now (a reader the caller knows is not delivering), with the backoff reset. */
  restart(key: string): void {
    if (!this.worker || this.stopped) return;
    this.send(this.worker, { t: 'restart', key });
  }

  /** The key's last reported transport; undefined when it is not open as a clip. */
  clip(key: string): ClipStatus | undefined {
    return this.clips.get(key);
  }

  /** Sends a transport command to the key's clip reader; resolves once its effect is in the ring. */
  async clipCommand(key: string, cmd: ClipCommand, deadline: number): Promise<ClipStatus> {
    const worker = this.worker;
    if (!worker || this.stopped) throw new Error('the ingest worker is not running');
    const r = replyOf(
      await this.calls.call<ClipReply>(deadline, (env) => this.send(worker, { t: 'clip', ...env, key, cmd }), {
        graceMs: 100,
        timeoutMessage: 'the clip did not show the new position in time',
      }),
    );
    if (!r.ok) throw new Error(r.message);
    this.clips.set(key, r.status);
    return r.status;
  }

  close(key: string): void {
    this.held.delete(key);
    this.clips.delete(key);
    if (!this.worker || this.stopped) return;
    this.send(this.worker, { t: 'close', key });
  }

  /** Ends the worker thread as a crash would (test hook): the supervision must bring every held source back. */
  killWorker(): boolean {
    if (!this.worker || this.stopped) return false;
    void this.worker.terminate();
    return true;
  }

  /** The key's last reported state; undefined when it was never opened or is closed. */
  state(key: string): IngestState | undefined {
    return this.statuses.get(key)?.state;
  }

  /** The key's last state with its message (the ffmpeg error text for `retrying` and `failed`). */
  status(key: string): SourceStatus | undefined {
    return this.statuses.get(key);
  }

  /** Kills every ffmpeg and waits for the worker thread to end. */
  stop(): Promise<void> {
    if (this.stopped) return this.stopped;
    const worker = this.worker;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    this.stopped = (async () => {
      if (worker) await stopWorker(worker, this.calls, STOP_TIMEOUT_MS, (env) => this.send(worker, { t: 'stop', ...env }));
      this.onProcessExit();
      process.off('exit', this.onProcessExit);
      this.calls.failAll('ingest client stopped');
      this.settleNextWorker();
      this.statuses.clear();
      this.pids.clear();
      this.held.clear();
    })();
    return this.stopped;
  }

  private send(worker: Worker, msg: MainToIngest): void {
    worker.postMessage(msg);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const workerData: IngestInit = { ...this.init, stall: { fileMs: INGEST_LIMITS.fileStallMs, frames: INGEST_LIMITS.stallFrames } };
    const worker = new Worker(new URL('../../workers/ingest/main.js', import.meta.url), { workerData });
    this.worker = worker;
    this.startedAt = Date.now();
    worker.on('message', (msg: IngestToMain) => this.onMessage(msg));
    worker.on('error', (err) => log.error({ worker: 'ingest', error: err.message }, 'ingest worker crashed'));
    worker.on('exit', (code) => this.onExit(worker, code));
    // Sources held when the previous worker died: the same rings, so whoever shows them sees frames again.
    for (const [key, h] of this.held) this.sendOpen(worker, key, h, true);
    this.settleNextWorker();
    return worker;
  }

  private settleNextWorker(): void {
    this.nextWorker?.settle();
    this.nextWorker = null;
  }

  private onExit(worker: Worker, code: number): void {
    if (this.worker !== worker) return;
    this.worker = null;
    // Calls in flight die with the worker: a stop is done, and opens wait for the next worker's reopen.
    if (!this.stopped && !this.nextWorker) {
      let settle = (): void => {};
      const started = new Promise<void>((resolve) => (settle = resolve));
      this.nextWorker = { started, settle };
    }
    this.calls.failAll('ingest worker exited');
    if (this.stopped) return;
    // Its ffmpeg children died with it (parent-death signal), and the pids left are killed here too.
    this.onProcessExit();
    this.pids.clear();
    if (Date.now() - this.startedAt >= INGEST_LIMITS.workerStableMs) this.restartDelayMs = INGEST_LIMITS.workerRestartFirstMs;
    const delay = this.restartDelayMs;
    this.restartDelayMs = Math.min(delay * 2, INGEST_LIMITS.workerRestartMaxMs);
    log.error({ worker: 'ingest', code, held: this.held.size, restartInMs: delay }, 'ingest worker exited unexpectedly; restarting it');
    for (const key of [...this.statuses.keys()]) this.setStatus(key, 'retrying', 'ingest worker exited; restarting');
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopped || this.worker) return;
      this.ensureWorker();
    }, delay);
  }

  private onMessage(msg: IngestToMain): void {
    switch (msg.t) {
      case 'open-reply':
      case 'clip-reply':
      case 'failure':
      case 'stopped':
        this.calls.settle(msg.id, msg);
        return;
      case 'state':
        if (msg.pid !== undefined) this.pids.set(msg.key, msg.pid);
        else if (msg.state !== 'stalled') this.pids.delete(msg.key);
        this.setStatus(msg.key, msg.state, msg.message);
        return;
      case 'clip-status':
        // A status of a key closed meanwhile is stale.
        if (!this.held.has(msg.key)) return;
        this.clips.set(msg.key, msg.status);
        this.emit('clip', msg.key, msg.status);
        return;
      case 'log':
        relayLog(log, msg, { worker: 'ingest' });
        return;
    }
  }

  private setStatus(key: string, state: IngestState, message: string | undefined): void {
    if (state === 'closed') this.statuses.delete(key);
    else this.statuses.set(key, message === undefined ? { state } : { state, message });
    this.emit('state', key, state, message);
  }
}
