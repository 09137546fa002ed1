// The pipeline pressure meter: once a second, how many offered frames the outputs dropped (their encoder's pipe was
// full) and how late the main thread's event loop ran, sent to the render worker, whose automatic scale follows it,
// and kept for GET /status. It reads counters only; nothing here touches a frame.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { PipelinePressure } from '../shared/protocol/render.js';
import { pipelineShort } from '../shared/pipeline-pressure.js';

const PERIOD_MS = 1000;
/** The event-loop delay histogram's sampling resolution (ms). */
const RESOLUTION_MS = 10;

export class PressureMeter {
  private readonly lag: IntervalHistogram;
  private timer: NodeJS.Timeout | null = null;
  private prev = { sent: 0, dropped: 0 };
  last: PipelinePressure = { encodeDropPct: 0, mainLagMs: 0 };

  constructor(
    private readonly totals: () => { sent: number; dropped: number },
    private readonly send: (p: PipelinePressure) => void,
  ) {
    this.lag = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  }

  start(): void {
    if (this.timer) return;
    this.lag.enable();
    this.prev = this.totals();
    this.timer = setInterval(() => this.tick(), PERIOD_MS);
    this.timer.unref();
  }

  /** One report; public so a test can drive it without waiting. */
  tick(): PipelinePressure {
    const now = this.totals();
    // Counters start over when an output restarts: a negative step counts as nothing.
    const sent = Math.max(0, now.sent - this.prev.sent);
    const dropped = Math.max(0, now.dropped - this.prev.dropped);
    this.prev = now;
    // The histogram holds nanoseconds; its floor is the resolution itself, which is not lateness.
    // p90: a main thread late for a tenth of the second is short of time; one late tick (a GC pause) is not.
    const lagMs = Math.max(0, this.lag.percentile(90) / 1e6 - RESOLUTION_MS);
    this.lag.reset();
    this.last = {
      encodeDropPct: sent + dropped > 0 ? Math.round((dropped / (sent + dropped)) * 1000) / 10 : 0,
      mainLagMs: Math.round(lagMs * 10) / 10,
    };
    this.send(this.last);
    return this.last;
  }

  /** Whether the last report found the pipeline short (previews then shed ticks). */
  short(): boolean {
    return pipelineShort(this.last) !== null;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.lag.disable();
  }
}
