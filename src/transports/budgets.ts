// Per-sender budgets of the desk transports: messages per second and log lines per window, each with a global
// ceiling and a bounded sender table, so neither many packets nor many senders can buy unbounded work or log output.
// OSC's limits came first and are the defaults every transport shares.
import { OSC_LIMITS } from '../limits.js';

/**
 * Counts per sender within fixed windows. The table is emptied at each new window; while it is full, senders not in
 * it share one overflow entry, so its size stays bounded whatever the number of senders.
 */
export class WindowBudget {
  private window = -1;
  private total = 0;
  private readonly used = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly perSender: number,
    private readonly overall: number,
    private readonly sendersMax: number = OSC_LIMITS.sendersMax,
  ) {}

  /** Whether the sender may spend one more unit in this window (and spends it if so). */
  take(sender: string, now = Date.now()): boolean {
    const w = Math.floor(now / this.windowMs);
    if (w !== this.window) {
      this.window = w;
      this.total = 0;
      this.used.clear();
    }
    if (this.total >= this.overall) return false;
    const key = this.used.has(sender) || this.used.size < this.sendersMax ? sender : '(overflow)';
    const n = this.used.get(key) ?? 0;
    if (n >= this.perSender) return false;
    this.used.set(key, n + 1);
    this.total++;
    return true;
  }
}

/** Log lines for refused input: one per sender per window, a few per window overall, and a count of the rest. */
export class LogBudget {
  private readonly budget = new WindowBudget(OSC_LIMITS.logEveryMs, 1, OSC_LIMITS.logLinesPerWindow);
  private suppressed = 0;

  /** Null when the line is to be left out; else how many were left out before it. */
  take(sender: string): number | null {
    if (!this.budget.take(sender)) {
      this.suppressed++;
      return null;
    }
    const n = this.suppressed;
    this.suppressed = 0;
    return n;
  }
}
