// When the render loop serves thumbnail jobs: a guaranteed slice per frame (after the frame, the job with the
// earliest deadline; before or after it, any job that would expire waiting any longer), then more only in the idle
// time before the next frame, after the frame or as jobs arrive, up to a share of each frame period. Jobs already
// past their deadline are answered at once and never use up the slice.
import type { ThumbJob, ThumbReply } from '../../src/shared/protocol/render.js';
import { failure } from '../../src/shared/protocol/common.js';

export interface PendingThumb {
  job: ThumbJob;
  done: (reply: ThumbReply) => void;
}

/** Time kept back from a deadline for the reply to reach the main thread (whose own timer ends 20 ms after it). */
const REPLY_MARGIN_MS = 75;
/** Weight of the newest sample in the running estimates of a tick's and a job's duration. */
const EWMA = 0.25;
/** Part of each frame period jobs may use past the guaranteed one; the rest stays idle (outputs, encoders, the OS). */
const SHARE = 0.4;

export class ThumbSchedule {
  /** Ordered by deadline, earliest first (equal budgets make this arrival order). */
  private readonly jobs: PendingThumb[] = [];
  /** Running estimates (ms): one job, and the time from one post-frame slot to the next. */
  private jobMs = 5;
  private tickMs: number;
  private lastSlot = 0;
  /** Job time (ms) used since the last post-frame slot began, against `share`. */
  private spent = 0;
  private readonly share: number;

  constructor(
    period: number,
    private readonly run: (job: ThumbJob) => ThumbReply,
  ) {
    this.tickMs = period;
    this.share = period * SHARE;
  }

  get size(): number {
    return this.jobs.length;
  }

  push(p: PendingThumb): void {
    let i = this.jobs.length;
    while (i > 0 && this.jobs[i - 1]!.job.deadline > p.job.deadline) i--;
    this.jobs.splice(i, 0, p);
  }

  /**
   * Called before each frame: serves the jobs that would miss their deadline waiting for the frame. Jobs that
   * arrived while the last frame ran are seen here first (messages are read between frames).
   */
  serveUrgent(): void {
    for (;;) {
      this.dropExpired();
      if (this.jobs.length === 0 || !this.urgent()) return;
      this.runOne(this.jobs.shift()!);
    }
  }

  /**
   * Called after each frame. Serves the guaranteed slice, then further jobs within this period's share and before
   * `frameDue` (performance.now() time, a little before the next frame). What is left waits for idle time or the
   * next frame's slot.
   */
  serve(frameDue: number): void {
    const now = performance.now();
    if (this.lastSlot > 0) this.tickMs += EWMA * (now - this.lastSlot - this.tickMs);
    this.lastSlot = now;
    this.spent = 0;
    const stopAt = Math.min(frameDue, now + this.share);
    let first = true;
    for (;;) {
      this.dropExpired();
      if (this.jobs.length === 0) return;
      if (!first && performance.now() >= stopAt && !this.urgent()) return;
      first = false;
      this.runOne(this.jobs.shift()!);
    }
  }

  /**
   * Called between frames when jobs arrive: serves them while this period's share lasts and `frameDue` has not come.
   * At a low frame rate the wait for the next frame alone could pass a job's budget.
   */
  serveIdle(frameDue: number): void {
    for (;;) {
      this.dropExpired();
      if (this.jobs.length === 0 || this.spent >= this.share || performance.now() >= frameDue) return;
      this.runOne(this.jobs.shift()!);
    }
  }

  /**
   * True when some job would miss its deadline by waiting one more tick (a frame and its slot): served then in
   * deadline order, job i finishes about one tick plus i+1 jobs from now. Long ticks (slow frames, a loaded machine)
   * widen the window; on an idle machine it is the last ~110 ms of a 500 ms budget, so the idle-time rule serves
   * jobs long before.
   */
  private urgent(): boolean {
    const base = Date.now() + this.tickMs + REPLY_MARGIN_MS;
    return this.jobs.some((p, i) => p.job.deadline <= base + (i + 1) * this.jobMs);
  }

  private runOne(p: PendingThumb): void {
    const t0 = performance.now();
    let reply: ThumbReply;
    try {
      reply = this.run(p.job);
    } catch (err) {
      reply = failure(p.job.id, 'failed', (err as Error).message);
    }
    const took = performance.now() - t0;
    this.spent += took;
    this.jobMs += EWMA * (Math.min(took, 1000) - this.jobMs);
    p.done(reply);
  }

  /** Jobs past their deadline cost nothing: answered now, without drawing. */
  private dropExpired(): void {
    const now = Date.now();
    while (this.jobs.length > 0 && this.jobs[0]!.job.deadline < now) {
      const p = this.jobs.shift()!;
      p.done(thumbExpired(p.job.id));
    }
  }
}

/** The answer of a job the renderer reached past its deadline, drawn or not. */
export function thumbExpired(id: number): ThumbReply {
  return failure(id, 'expired', 'the job was past its deadline when the renderer reached it');
}
