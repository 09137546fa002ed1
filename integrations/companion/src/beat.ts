// The tempo clock kept locally: the `tempo` topic gives a line (bpm, fractional beat `position` at server instant
// `at`), so the beat flash is timed here from that line instead of waiting for one event per beat.

export class BeatClock {
  private bpm = 0;
  private position = 0;
  private atLocal = 0;
  /** Smallest (local receive time − server `at`) seen: the server-to-local clock offset plus the least latency. */
  private offset: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  beatsPerBar = 4;

  constructor(private readonly edge: () => void) {}

  /** A `tempo` event or GET /tempo answer. */
  update(t: { bpm: number; position: number; at: number; beatsPerBar?: number }, receivedAt = Date.now()): void {
    if (!Number.isFinite(t.bpm) || !Number.isFinite(t.position) || !Number.isFinite(t.at)) return;
    const seen = receivedAt - t.at;
    // A slower clock or a late event: the offset only ever moves down, except after a big jump (a clock step).
    if (this.offset === null || seen < this.offset || seen - this.offset > 5000) this.offset = seen;
    this.bpm = t.bpm;
    this.position = t.position;
    this.atLocal = t.at + this.offset;
    if (t.beatsPerBar) this.beatsPerBar = t.beatsPerBar;
    if (this.running) this.schedule();
  }

  known(): boolean {
    return this.bpm > 0;
  }

  /** Fractional beat position now. */
  positionAt(now = Date.now()): number {
    return this.position + ((now - this.atLocal) * this.bpm) / 60_000;
  }

  /** True in the first `fraction` of a beat (every beat) or of beat 1 of a bar (`bar`). */
  flashOn(fraction: number, unit: 'beat' | 'bar', now = Date.now()): boolean {
    if (!this.known()) return false;
    const p = this.positionAt(now);
    const span = unit === 'bar' ? this.beatsPerBar : 1;
    const within = ((p % span) + span) % span;
    return within < fraction * span;
  }

  /** A flash length in use (part of a beat, or of a bar): its end is an edge to redraw at. */
  addFlash(fraction: number, unit: 'beat' | 'bar'): void {
    const f = (unit === 'bar' ? fraction * this.beatsPerBar : fraction) % 1;
    if (f > 0 && !this.fractions.includes(f)) this.fractions.push(f);
  }

  /** Runs the edge callback at every beat start and flash end while some beat flash is shown. */
  setRunning(on: boolean): void {
    if (on === this.running) return;
    this.running = on;
    if (on) this.schedule();
    else if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  private fractions: number[] = [];

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.running || !this.known()) return;
    const p = this.positionAt();
    const within = p - Math.floor(p);
    // Next edge: the next flash end inside this beat, else the next beat start.
    const ends = this.fractions.filter((f) => f > within + 1e-6).sort((a, b) => a - b);
    const beats = (ends[0] ?? 1) - within;
    const ms = Math.max(5, (beats * 60_000) / this.bpm);
    this.timer = setTimeout(() => {
      this.edge();
      this.schedule();
    }, ms + 2);
  }
}
