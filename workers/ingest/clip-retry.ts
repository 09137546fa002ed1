// Retry and stall rules of a clip under transport control: when a failed or stalled reader is replaced (backoff
// that resets once a reader has run stably), and which reader counts as stalled.
import { Backoff } from '../../src/shared/ffmpeg-supervisor.js';

export class ClipRetry {
  private readonly backoff = new Backoff({ firstMs: 1000, maxMs: 10_000, stableMs: 10_000 });
  private timer: NodeJS.Timeout | null = null;

  /** The wait before the next retry. */
  get nextMs(): number {
    return this.backoff.nextMs;
  }

  /** A fresh start on request: the next failure waits the shortest time again. */
  reset(): void {
    this.backoff.reset();
  }

  /** A reader delivered a frame: the backoff starts over once it has run long enough. */
  delivered(startedAt: number, now: number): void {
    this.backoff.resetIfStable(startedAt, now);
  }

  /** Runs `retry` after the backoff; replaces a retry already waiting. */
  schedule(retry: () => void): void {
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = null;
      retry();
    }, this.backoff.take());
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * Why the clip counts as stalled now, or null: a seek's reader without a first frame, or the current reader owing
 * a frame (since `waitingSince`, 0 when it owes none), for longer than `stallMs`.
 */
export function stallOf(
  seekSince: number | null,
  waitingSince: number,
  now: number,
  stallMs: number,
): { seek: boolean; message: string } | null {
  if (seekSince !== null && now - seekSince > stallMs) return { seek: true, message: `no first frame within ${stallMs} ms` };
  if (waitingSince && now - waitingSince > stallMs) return { seek: false, message: `no new frame for ${stallMs} ms` };
  return null;
}
