// Main-thread side of the thumbnail encode pool: hands encode tasks to piscina workers (workers/encode) and keeps counters.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Logger } from '../log.js';
import type { EncodeResult, EncodeTask } from '../shared/protocol/encode.js';

/** dist/src/thumbnails → dist/workers/encode: the compiled task module. */
const WORKER_FILE = fileURLToPath(new URL('../../workers/encode/main.js', import.meta.url));
/** Enough recent encodes for a stable median without remembering the whole uptime. */
const WINDOW = 256;

export interface EncodePoolStats {
  threads: number;
  /** Tasks waiting for a free thread. */
  queued: number;
  /** Tasks a thread is working on now. */
  running: number;
  /** Tasks finished since start, failed ones included. */
  completed: number;
  /** Median worker-side encode time over the last 256 tasks; 0 before the first. */
  encodeMsP50: number;
}

/** One thread is left to the main thread, and more than 4 would only starve render and ingest of cores. */
export function defaultEncodeThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

export class EncodePool {
  private readonly pool: Piscina<EncodeTask, EncodeResult>;
  private readonly threads: number;
  private readonly log: Logger | undefined;
  private readonly recentMs = new Float64Array(WINDOW);
  private recentCount = 0;
  private inFlight = 0;
  private completed = 0;
  private closing: Promise<void> | null = null;

  constructor(opts: { threads?: number; log?: Logger } = {}) {
    const threads = opts.threads ?? defaultEncodeThreads();
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`encode pool threads must be a positive integer, got ${threads}`);
    this.threads = threads;
    this.log = opts.log;
    // Fixed size with no idle timeout: a thumbnail page asks for dozens of images at once, and a thread that had
    // to start (and load libvips) first would add its start-up time to the first of them.
    this.pool = new Piscina<EncodeTask, EncodeResult>({
      filename: WORKER_FILE,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Infinity,
    });
    this.pool.on('error', (err: unknown) => this.log?.error({ err }, 'encode worker failed'));
    this.log?.debug({ threads, worker: WORKER_FILE }, 'encode pool started');
  }

  /** Encodes on a worker thread; pixels stay in the task's SharedArrayBuffer, this thread never reads them. */
  async run(task: EncodeTask): Promise<EncodeResult> {
    if (this.closing) throw new Error('encode pool is closed');
    this.inFlight++;
    try {
      const result = await this.pool.run(task);
      this.recentMs[this.recentCount % WINDOW] = result.ms;
      this.recentCount++;
      return result;
    } finally {
      this.inFlight--;
      this.completed++;
    }
  }

  stats(): EncodePoolStats {
    const queued = this.pool.queueSize;
    return {
      threads: this.threads,
      queued,
      running: Math.max(0, this.inFlight - queued),
      completed: this.completed,
      encodeMsP50: this.p50(),
    };
  }

  /** Lets started tasks finish, then stops the threads; safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= this.pool.close().then(() => undefined);
    return this.closing;
  }

  private p50(): number {
    const n = Math.min(this.recentCount, WINDOW);
    if (n === 0) return 0;
    const sorted = this.recentMs.slice(0, n).sort();
    return n % 2 === 1 ? sorted[n >> 1]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
  }
}
