// Main-thread handle of the pixel-out sender (workers/pixelout): hands it the patch and settings, keeps its latest
// counters for /status, and restarts it with the same settings (with backoff) when it dies.
import { Worker } from 'node:worker_threads';
import { PIXELMAP_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';
import { newCid } from '../shared/pixelmap/packets.js';
import { relayLog } from '../shared/protocol/common.js';
import type { MainToPixelOut, PixelOutInit, PixelOutSettings, PixelOutStats, PixelOutToMain } from '../shared/protocol/pixelout.js';
import { RpcCalls } from '../shared/rpc.js';
import { stopWorker } from './stop-worker.js';

const STOP_TIMEOUT_MS = 3000;

export interface PixelOutOptions {
  /** config pixelmap.destinations: the only addresses the sender may use. */
  destinations: string[];
  artnetPort: number;
  sacnPort: number;
  sourceName?: string;
  statsMs?: number;
  /** The sACN source id; a fresh one per process by default. */
  cid?: Uint8Array;
}

export interface PixelOutStatus extends PixelOutStats {
  running: boolean;
  /** Restarts after a crash since the client started. */
  restarts: number;
}

export class PixelOutClient {
  private worker: Worker | null = null;
  private readonly calls = new RpcCalls();
  private readonly init: PixelOutInit;
  /** The settings last given, sent again to a restarted worker. */
  private wanted: PixelOutSettings | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private restartDelayMs: number = PIXELMAP_LIMITS.workerRestartFirstMs;
  private startedAt = 0;
  private stopped: Promise<void> | null = null;
  /** Frames sent by workers that have since died, so the count runs on across restarts. */
  private framesBase = 0;
  status: PixelOutStatus = { running: false, restarts: 0, packetsPerSecond: 0, framesSent: 0, lastError: null };

  constructor(
    opts: PixelOutOptions,
    private readonly log: Logger,
  ) {
    this.init = {
      destinations: [...opts.destinations],
      artnetPort: opts.artnetPort,
      sacnPort: opts.sacnPort,
      // One CID at least for the life of the process: a restarted worker is the same source to sACN receivers.
      cid: opts.cid ?? newCid(),
      sourceName: opts.sourceName ?? 'vjd pixel map',
      statsMs: opts.statsMs ?? 1000,
    };
  }

  /** Sends `settings` (the patch, the samples block, rate, keep-alive, sync, test), starting the worker if needed. */
  configure(settings: PixelOutSettings): void {
    if (this.stopped) return;
    this.wanted = settings;
    const worker = this.ensureWorker();
    this.send(worker, { t: 'fixtures', ...settings });
  }

  stop(): Promise<void> {
    if (this.stopped) return this.stopped;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const worker = this.worker;
    this.stopped = (async () => {
      if (worker) await stopWorker(worker, this.calls, STOP_TIMEOUT_MS, (env) => this.send(worker, { t: 'stop', ...env }));
      this.calls.failAll('pixel-out client stopped');
      this.status = { ...this.status, running: false, packetsPerSecond: 0 };
    })();
    return this.stopped;
  }

  /** Ends the worker thread as a crash would (test hook): the supervision must bring the sending back. */
  killWorker(): boolean {
    if (!this.worker || this.stopped) return false;
    void this.worker.terminate();
    return true;
  }

  private send(worker: Worker, msg: MainToPixelOut): void {
    worker.postMessage(msg);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('../../workers/pixelout/main.js', import.meta.url), { workerData: this.init });
    this.worker = worker;
    this.startedAt = Date.now();
    this.status = { ...this.status, running: true };
    worker.on('message', (msg: PixelOutToMain) => this.onMessage(msg));
    worker.on('error', (err) => this.log.error({ worker: 'pixelout', error: err.message }, 'pixel-out worker crashed'));
    worker.on('exit', (code) => this.onExit(worker, code));
    return worker;
  }

  private onExit(worker: Worker, code: number): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.calls.failAll('pixel-out worker exited');
    this.framesBase = this.status.framesSent;
    this.status = { ...this.status, running: false, packetsPerSecond: 0 };
    if (this.stopped) return;
    // A worker that dies again and again is restarted less and less often, so a crash loop cannot eat a core.
    if (Date.now() - this.startedAt >= PIXELMAP_LIMITS.workerStableMs) this.restartDelayMs = PIXELMAP_LIMITS.workerRestartFirstMs;
    const delay = this.restartDelayMs;
    this.restartDelayMs = Math.min(delay * 2, PIXELMAP_LIMITS.workerRestartMaxMs);
    this.log.error({ worker: 'pixelout', code, retryInMs: delay }, 'pixel-out worker exited unexpectedly; restarting it');
    this.status = { ...this.status, lastError: 'pixel-out worker exited; restarting' };
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopped || !this.wanted) return;
      this.status = { ...this.status, restarts: this.status.restarts + 1 };
      this.configure(this.wanted);
    }, delay);
  }

  private onMessage(msg: PixelOutToMain): void {
    switch (msg.t) {
      case 'stats':
        this.status = {
          ...this.status,
          packetsPerSecond: msg.packetsPerSecond,
          framesSent: this.framesBase + msg.framesSent,
          lastError: msg.lastError,
        };
        return;
      case 'stopped':
        this.calls.settle(msg.id, msg);
        return;
      case 'log':
        relayLog(this.log, msg, { worker: 'pixelout' });
        return;
    }
  }
}
