// What GET /show/scheduled shows: the operations still waiting, and a record of the last ones that ran (the frame that
// applied them and their own answer), kept to SCHEDULE_LIMITS.recentMax.
import { SCHEDULE_LIMITS } from '../limits.js';
import type { GateApplied } from '../workers/render-client.js';
import { type AtRequest, iso } from './at.js';

/** One operation as the list shows it. */
export interface OperationView {
  id: string;
  op: string;
  /** ISO instant it resolved to. */
  at: string;
  requested: AtRequest;
  beat?: number;
  /** The transport that carried it (http, events, osc, mqtt…). */
  transport: string;
}

/**
 * `running`: its handler ran and its frame is not reported yet; `applied`: the frame is reported and its handler
 * answered 2xx; `failed`: its handler refused it, or the renderer never reported its frame.
 */
export type RecordState = 'running' | 'applied' | 'failed';

export interface RecordView extends OperationView {
  state: RecordState;
  /** The operation's own answer status (null while its handler runs). */
  status: number | null;
  /** The error code of a refused operation. */
  error?: string;
  appliedFrame: number | null;
  appliedDueAt: string | null;
  /** Frame slots due at or after `at` that passed before the frame that applied it (0: the first one). */
  lateFrames: number | null;
  /**
   * False when the handler still waited (on the renderer, say) when the gate opened: what it sent after that
   * landed on later frames.
   */
  whole: boolean | null;
  /** The worker opened the gate by its timeout rather than on the main thread's word. */
  forced?: boolean;
}

export class Records {
  private readonly list: RecordView[] = [];

  /** Starts the record of an operation that runs now (the oldest record drops out past the limit). */
  start(op: OperationView): RecordView {
    const r: RecordView = {
      ...op,
      state: 'running',
      status: null,
      appliedFrame: null,
      appliedDueAt: null,
      lateFrames: null,
      whole: null,
    };
    this.list.push(r);
    if (this.list.length > SCHEDULE_LIMITS.recentMax) this.list.shift();
    return r;
  }

  /** The handler's answer. */
  answered(r: RecordView, status: number, error: string | undefined, whole: boolean): void {
    r.status = status;
    r.whole = whole;
    if (error !== undefined) r.error = error;
    this.settle(r);
  }

  /** The worker's report of the frame, its due instant moved to the wall clock by `skewMs`. */
  applied(r: RecordView, a: GateApplied, skewMs: number): void {
    r.appliedFrame = a.frame;
    r.appliedDueAt = iso(a.dueAt - skewMs);
    r.lateFrames = a.lateFrames;
    if (a.forced) r.forced = true;
    this.settle(r);
  }

  /** No report came: the renderer restarted or stopped answering. */
  unreported(r: RecordView): void {
    if (r.appliedFrame !== null) return;
    r.state = 'failed';
    r.error ??= 'the renderer did not report the frame';
  }

  /** Newest last. */
  views(): readonly RecordView[] {
    return this.list;
  }

  private settle(r: RecordView): void {
    if (r.status === null) return;
    if (r.status >= 400) r.state = 'failed';
    else if (r.appliedFrame !== null) r.state = 'applied';
  }
}
