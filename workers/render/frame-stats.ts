// Render loop statistics: measured fps over a 1 s window, frame-time percentiles, dropped frames.

const WINDOW = 240;

export class FrameStats {
  private readonly times = new Float64Array(WINDOW);
  private readonly stamps: number[] = [];
  private n = 0;
  frames = 0;
  dropped = 0;

  /** Records one rendered frame: when it started and how long it took (ms). */
  record(startMs: number, durationMs: number): void {
    this.times[this.n % WINDOW] = durationMs;
    this.n++;
    this.frames++;
    this.stamps.push(startMs);
    while (this.stamps.length > 0 && this.stamps[0]! < startMs - 1000) this.stamps.shift();
  }

  /** Frames rendered in the last second before `nowMs`. */
  fps(nowMs: number): number {
    while (this.stamps.length > 0 && this.stamps[0]! < nowMs - 1000) this.stamps.shift();
    return this.stamps.length;
  }

  /** p50 and p99 of the recent frame times (ms), 0 before the first frame. */
  percentiles(): { p50: number; p99: number } {
    const count = Math.min(this.n, WINDOW);
    if (count === 0) return { p50: 0, p99: 0 };
    const sorted = Array.from(this.times.subarray(0, count)).sort((a, b) => a - b);
    const at = (q: number): number => sorted[Math.min(count - 1, Math.floor(q * count))]!;
    return { p50: round2(at(0.5)), p99: round2(at(0.99)) };
  }
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
