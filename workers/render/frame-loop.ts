// The render loop's pacing: a frame at every period on a drift-free schedule that skips missed slots rather than
// queueing a burst, and the idle time between frames handed to the work that may wait (thumbnail jobs, spare
// programs, fused compiles). The loop owns only time; what a frame draws is frame.ts's, what the idle time does
// engine-stages.ts's, and engine.ts wires them to the loop.

export interface LoopWork {
  /** Before each frame: work that cannot wait for the frame (an urgent preview). */
  beforeFrame(): void;
  /** Draws one frame; `due` is its slot in epoch ms. Throws when the frame failed. */
  frame(now: number, due: number): void;
  /** After each frame: null when it drew, the error message when it threw (the loop goes on). */
  onFrame(error: string | null): void;
  /** Slots skipped because the loop fell behind. */
  skipped(slots: number): void;
  /** The idle time until `next` (performance.now() ms), after the messages that came in during the frame. */
  idle(next: number): void;
}

export class FrameLoop {
  private timer: NodeJS.Timeout | null = null;
  private afterFrame: NodeJS.Immediate | null = null;
  private soon: NodeJS.Immediate | null = null;
  /** When the next frame is due (performance.now() ms). */
  next = 0;

  constructor(
    readonly period: number,
    private readonly work: LoopWork,
  ) {}

  get running(): boolean {
    return this.timer !== null;
  }

  start(): void {
    this.next = performance.now();
    const tick = (): void => {
      this.work.beforeFrame();
      const now = performance.now();
      const late = now - this.next;
      if (late >= this.period) {
        // Behind schedule: skip the missed slots instead of rendering a burst to catch up.
        const missed = Math.floor(late / this.period);
        this.work.skipped(missed);
        this.next += missed * this.period;
      }
      try {
        // The slot this frame was due at (not when the timer fired): audio and beat values belong to it.
        this.work.frame(now, performance.timeOrigin + this.next);
        this.work.onFrame(null);
      } catch (err) {
        this.work.onFrame((err as Error).message);
      }
      this.next += this.period;
      // The idle work runs after the messages that came in during the frame (parameter changes, takes): an
      // immediate runs after the event loop's poll phase, which delivers them, so they never queue behind it.
      this.afterFrame = setImmediate(idle);
    };
    const idle = (): void => {
      this.afterFrame = null;
      if (this.timer === null) return;
      this.work.idle(this.next);
      this.timer = setTimeout(tick, Math.max(0, this.next - performance.now()));
    };
    this.timer = setTimeout(tick, 0);
  }

  /** Runs `fn` in the idle time now (once per burst of calls), between frames, while the loop runs. */
  between(fn: (next: number) => void): void {
    if (this.timer === null || this.soon !== null) return;
    this.soon = setImmediate(() => {
      this.soon = null;
      if (this.timer !== null) fn(this.next);
    });
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.soon) clearImmediate(this.soon);
    this.soon = null;
    if (this.afterFrame) clearImmediate(this.afterFrame);
    this.afterFrame = null;
  }
}
