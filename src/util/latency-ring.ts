// The latest few durations of one kind of work, for a status view: its median and tail over that window.

export interface LatencyView {
  /** Samples in the window. */
  count: number;
  p50: number | null;
  p99: number | null;
}

export class LatencyRing {
  private readonly samples: Float64Array;
  private n = 0;

  constructor(size: number) {
    this.samples = new Float64Array(size);
  }

  add(ms: number): void {
    this.samples[this.n % this.samples.length] = ms;
    this.n++;
  }

  /** Milliseconds rounded to microseconds; nulls while empty. */
  view(): LatencyView {
    const count = Math.min(this.n, this.samples.length);
    if (count === 0) return { count, p50: null, p99: null };
    const sorted = Array.from(this.samples.subarray(0, count)).sort((a, b) => a - b);
    const at = (q: number): number => Math.round(sorted[Math.min(count - 1, Math.floor(q * count))]! * 1000) / 1000;
    return { count, p50: at(0.5), p99: at(0.99) };
  }
}
