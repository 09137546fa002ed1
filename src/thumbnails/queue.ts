// The thumbnail admission queue: depth counts queued plus running jobs; above 32 new work is rejected until the
// depth falls back to 16 (explicit hysteresis), and identical requests in flight share one job.
import { ApiError } from '../errors.js';

export interface QueueOptions {
  /** A new job that would take the depth above this is rejected, and rejection starts (spec: 32). */
  high: number;
  /** Rejection stops once the depth is at or below this (spec: 16). */
  low: number;
  /** Jobs running at once; the rest wait in order. */
  concurrency: number;
}

export interface QueueStats {
  depth: number;
  queued: number;
  running: number;
  rejecting: boolean;
  /** Jobs admitted (each one is render and/or encode work). */
  jobs: number;
  /** Requests that joined a job already in flight instead of creating one. */
  shared: number;
  rejected: number;
  completed: number;
  failed: number;
}

/** Seconds a client is told to wait after THUMBNAIL_QUEUE_FULL. */
export const RETRY_AFTER_S = 1;

export class ThumbQueue {
  private readonly waiting: Array<() => void> = [];
  private readonly inflight = new Map<string, Promise<unknown>>();
  private running = 0;
  private rejecting = false;
  private readonly counts = { jobs: 0, shared: 0, rejected: 0, completed: 0, failed: 0 };

  constructor(private readonly opts: QueueOptions) {}

  get depth(): number {
    return this.waiting.length + this.running;
  }

  /**
   * Runs `work` under `key`, or joins the job already running under that key. Throws 503 THUMBNAIL_QUEUE_FULL
   * (with Retry-After) when admission is closed; a rejected request never creates work.
   */
  submit<T>(key: string, work: () => Promise<T>): Promise<T> {
    const running = this.inflight.get(key);
    if (running) {
      this.counts.shared++;
      return running as Promise<T>;
    }
    if (this.rejecting || this.depth >= this.opts.high) {
      this.rejecting = true;
      this.counts.rejected++;
      throw new ApiError(
        'THUMBNAIL_QUEUE_FULL',
        `thumbnail queue depth is ${this.depth}; new work is refused until it falls to ${this.opts.low}; retry after a short wait`,
        undefined,
        {
          'Retry-After': String(RETRY_AFTER_S),
        },
      );
    }
    this.counts.jobs++;
    const job = this.admit(work).finally(() => this.inflight.delete(key));
    this.inflight.set(key, job);
    return job;
  }

  private async admit<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.opts.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      const value = await work();
      this.counts.completed++;
      return value;
    } catch (err) {
      this.counts.failed++;
      throw err;
    } finally {
      this.release();
    }
  }

  /** A job ended: hand its running slot to the next waiter (the depth drops by one either way). */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
    if (this.rejecting && this.depth <= this.opts.low) this.rejecting = false;
  }

  /** Grows with every admission, join, rejection and completion (allocation-free, for memoised status bodies). */
  version(): number {
    const c = this.counts;
    return c.jobs + c.shared + c.rejected + c.completed + c.failed;
  }

  stats(): QueueStats {
    return { depth: this.depth, queued: this.waiting.length, running: this.running, rejecting: this.rejecting, ...this.counts };
  }
}
