// The beat tracker's onset envelope: a fixed ring of the latest hops' onset strengths, read back in time order
// with the slow background removed, so the periodicity search sees the hits and not the loudness.

/** The background under the hits: a centred moving mean over this many seconds. */
const BACKGROUND_S = 0.3;

export class OnsetEnvelope {
  private readonly ring: Float64Array;
  private head = 0;
  private filled = 0;
  private readonly background: number;
  /** Epoch ms of the latest hop. */
  lastTime = 0;

  constructor(
    capacity: number,
    private readonly hopsPerSecond: number,
  ) {
    this.ring = new Float64Array(capacity);
    this.background = Math.max(1, Math.round((BACKGROUND_S * hopsPerSecond) / 2));
  }

  get length(): number {
    return this.filled;
  }

  get seconds(): number {
    return this.filled / this.hopsPerSecond;
  }

  push(strength: number, time: number): void {
    this.ring[this.head] = Number.isFinite(strength) && strength > 0 ? strength : 0;
    this.head = (this.head + 1) % this.ring.length;
    if (this.filled < this.ring.length) this.filled++;
    this.lastTime = time;
  }

  /** Forgets all but the latest `hops` (the music before them is another tempo's). */
  keep(hops: number): void {
    this.filled = Math.max(0, Math.min(this.filled, Math.floor(hops)));
  }

  clear(): void {
    this.ring.fill(0);
    this.head = 0;
    this.filled = 0;
    this.lastTime = 0;
  }

  /**
   * Writes the envelope, oldest first, into `out` (at least `length` long) as the strength above its local mean
   * (negative parts cut); `raw` receives the plain strengths.
   */
  read(out: Float64Array, raw: Float64Array): void {
    const n = this.filled;
    const cap = this.ring.length;
    const start = (this.head - n + cap) % cap;
    for (let i = 0; i < n; i++) raw[i] = this.ring[(start + i) % cap]!;
    // A running sum over the centred window keeps this linear in the envelope's length.
    const w = this.background;
    let sum = 0;
    let lo = 0;
    let hi = -1;
    for (let i = 0; i < n; i++) {
      const from = Math.max(0, i - w);
      const to = Math.min(n - 1, i + w);
      while (hi < to) sum += raw[++hi]!;
      while (lo < from) sum -= raw[lo++]!;
      const d = raw[i]! - sum / (to - from + 1);
      out[i] = Math.max(0, d);
    }
  }
}
