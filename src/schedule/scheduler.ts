// Operations held for an instant (`at`, docs/scheduling.md): the waiting list and its timers on the main thread, which
// never blocks on them. Shortly before an instant the operation's gate shuts in the render worker, the operation runs
// through the route table (its handler posts its render messages as usual) and the gate opens; the worker handles
// those messages at the start of the first frame due at or after the instant and reports that frame
// (workers/render/gate.ts). One gate is shut at a time, so each gate holds one operation's messages.
import { ApiError, notFound } from '../errors.js';
import type { ScheduleHook, ScheduleRequest } from '../http/dispatch.js';
import type { Reply } from '../http/route.js';
import { SCHEDULE_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';
import { clockNow, type TempoClock } from '../shared/tempo-block.js';
import type { GateApplied } from '../workers/render-client.js';
import { type AtRequest, iso, resolveAt } from './at.js';
import { type OperationView, type RecordView, Records } from './records.js';

/**
 * How long before its instant an operation runs: room for its handler and its messages to reach the render worker
 * on a loaded box, yet short, since state reads see the change from then on and unrelated commands wait for the gate.
 */
const LEAD_MS = 150;
/**
 * The gate opens this long before the instant even while the handler still waits (on the renderer, say), so what
 * it sent so far still makes its frame.
 */
const OPEN_BEFORE_MS = 40;
/** A frame the worker never reports (it restarted) is recorded as failed this long after the instant. */
const REPORT_TIMEOUT_MS = 3000;

export interface SchedulerDeps {
  gate: {
    shut(id: string, atFrameClock: number): void;
    open(id: string): void;
    onApplied(fn: (a: GateApplied) => void): void;
  };
  /** The tempo clock, or null while it gives no beat grid. */
  grid(): TempoClock | null;
  /** The frame period (ms): an instant up to one period ago counts as now. */
  periodMs(): number;
  log: Logger;
}

interface Waiting extends OperationView {
  atMs: number;
  run: () => Promise<Reply>;
  timer: NodeJS.Timeout | null;
}

export class Scheduler implements ScheduleHook {
  private readonly waiting = new Map<string, Waiting>();
  private readonly records = new Records();
  /** Started operations by id until their frame is reported, with the clock skew their gate was set with. */
  private readonly reports = new Map<string, { record: RecordView; skewMs: number }>();
  /** The gates in firing order: the next shuts once the one before has opened. */
  private chain: Promise<void> = Promise.resolve();
  private seq = 0;
  private stopped = false;
  /** Told when the list may have changed (the `show` events topic re-reads it then). */
  private readonly watchers: Array<() => void> = [];

  constructor(private readonly d: SchedulerDeps) {
    d.gate.onApplied((a) => {
      const r = this.reports.get(a.id);
      if (!r) return;
      this.reports.delete(a.id);
      this.records.applied(r.record, a, r.skewMs);
      this.changed();
    });
  }

  /** Calls `fn` whenever an operation is added, cancelled, starts or has its frame reported. */
  onChange(fn: () => void): void {
    this.watchers.push(fn);
  }

  add(req: ScheduleRequest): Reply {
    const now = Date.now();
    const resolved = resolveAt(req.at, { now, clockSkewMs: skew(), graceMs: this.d.periodMs(), grid: this.d.grid() });
    if (this.waiting.size >= SCHEDULE_LIMITS.waitingMax) throw new ApiError('SCHEDULE_FULL');
    const w: Waiting = {
      id: `s${++this.seq}`,
      op: req.op,
      at: iso(resolved.atMs),
      atMs: resolved.atMs,
      requested: resolved.requested as AtRequest,
      ...(resolved.beat !== undefined ? { beat: resolved.beat } : {}),
      transport: req.transport,
      run: req.run,
      timer: null,
    };
    this.waiting.set(w.id, w);
    this.arm(w);
    this.changed();
    return { status: 202, json: { scheduled: viewOf(w) } };
  }

  /** `at` as the instant it names now (ISO), refused as add() would: a leader sends its boxes an instant, not "nextBar". */
  resolve(raw: unknown): string {
    return iso(resolveAt(raw, { now: Date.now(), clockSkewMs: skew(), graceMs: this.d.periodMs(), grid: this.d.grid() }).atMs);
  }

  /** Takes a waiting operation off the list (404 ITEM_NOT_FOUND once it ran or for an unknown id). */
  cancel(id: string): OperationView {
    const w = this.waiting.get(id);
    if (!w) throw notFound('scheduled operation', id, [...this.waiting.keys()], 'no waiting operation matches');
    if (w.timer) clearTimeout(w.timer);
    this.waiting.delete(id);
    this.changed();
    return viewOf(w);
  }

  list(): { waiting: OperationView[]; recent: readonly RecordView[] } {
    const waiting = [...this.waiting.values()].sort((a, b) => a.atMs - b.atMs).map(viewOf);
    return { waiting, recent: this.records.views() };
  }

  stop(): void {
    this.stopped = true;
    for (const w of this.waiting.values()) if (w.timer) clearTimeout(w.timer);
    this.waiting.clear();
  }

  /** A timer to the lead before the instant; re-armed when the wall clock moved meanwhile. */
  private arm(w: Waiting): void {
    const wait = w.atMs - LEAD_MS - Date.now();
    if (wait <= 0) return this.fire(w);
    w.timer = setTimeout(() => this.arm(w), Math.min(wait, 60_000));
    w.timer.unref();
  }

  private fire(w: Waiting): void {
    w.timer = null;
    this.waiting.delete(w.id);
    this.chain = this.chain.then(() => (this.stopped ? undefined : this.runGated(w)));
    this.changed();
  }

  private changed(): void {
    for (const fn of this.watchers) fn();
  }

  /** Shuts the gate, runs the operation, and resolves once the gate is open again. */
  private runGated(w: Waiting): Promise<void> {
    const record = this.records.start(viewOf(w));
    const skewMs = skew();
    this.reports.set(w.id, { record, skewMs });
    this.d.gate.shut(w.id, w.atMs + skewMs);
    const unreported = setTimeout(
      () => {
        if (this.reports.delete(w.id)) this.records.unreported(record);
      },
      Math.max(0, w.atMs - Date.now()) + REPORT_TIMEOUT_MS,
    );
    unreported.unref();
    return new Promise<void>((resolve) => {
      let opened = false;
      const open = (): void => {
        if (opened) return;
        opened = true;
        clearTimeout(early);
        this.d.gate.open(w.id);
        resolve();
      };
      const early = setTimeout(open, Math.max(0, w.atMs - OPEN_BEFORE_MS - Date.now()));
      w.run().then(
        (reply) => {
          const status = reply.status ?? 200;
          const code = status >= 400 ? (reply.json as { code?: string } | undefined)?.code : undefined;
          this.records.answered(record, status, code, !opened);
          if (status >= 400) this.d.log.warn({ id: w.id, op: w.op, status, code }, 'a scheduled operation was refused');
          open();
        },
        (err: unknown) => {
          this.records.answered(record, 500, 'INTERNAL', !opened);
          this.d.log.error({ id: w.id, op: w.op, err: (err as Error).message }, 'a scheduled operation failed');
          open();
        },
      );
    });
  }
}

function viewOf(w: Waiting): OperationView {
  return {
    id: w.id,
    op: w.op,
    at: w.at,
    requested: w.requested,
    ...(w.beat !== undefined ? { beat: w.beat } : {}),
    transport: w.transport,
  };
}

/** The frame clock (clockNow: the tempo clock's and the frames' epoch) minus the wall clock. */
function skew(): number {
  return clockNow() - Date.now();
}
