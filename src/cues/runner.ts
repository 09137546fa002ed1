// Running the cue list: GO, back and jump fire a cue now; the next cue's own trigger (a timecode, a beat or bar of
// the tempo clock, a delay after the previous one) fires it at its instant. Its operations go through the one
// dispatch with `at` a little ahead, so they land on the instant's frame as any scheduled request does; a timecode
// that jumps or stops before the instant cancels them. A timecode jump moves the list to the cue the new time
// belongs to, firing only the cues that ask for it.
import { EventEmitter } from 'node:events';
import { API_PREFIX } from '../http/route.js';
import { CUE_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';
import { ApiError } from '../errors.js';
import { clockNow } from '../shared/tempo-block.js';
import type { Dispatch } from '../transports/request.js';
import type { CueList } from './list.js';
import type { Cue, FiredBy } from './types.js';
import { cueInstant, timecodeFrames, type PlanClocks } from './plan.js';

export interface FiredRecord {
  id: string;
  name: string;
  by: FiredBy;
  at: string;
  /** Each operation's answer status (202: held for its instant). */
  statuses: number[];
}

interface Pending {
  cue: Cue;
  /** clockNow() base. */
  atMs: number;
  by: FiredBy;
  /** Scheduled operation ids once handed over. */
  scheduled: string[] | null;
  /** What `recent` lists once the instant comes. */
  record?: FiredRecord;
  timer: NodeJS.Timeout | null;
}

const wallIso = (clockMs: number): string => new Date(Date.now() + (clockMs - clockNow())).toISOString();
/** How often a timecode cue's instant is worked out again from the running clock (it drifts with the signal). */
const REPLAN_MS = 100;

export class CueRunner extends EventEmitter {
  private currentId: string | null = null;
  private firedAtMs: number | null = null;
  private pending: Pending | null = null;
  private readonly recent: FiredRecord[] = [];
  private replan: NodeJS.Timeout | null = null;
  private relocating: Promise<void> = Promise.resolve();

  constructor(
    private readonly list: CueList,
    private readonly clocks: PlanClocks,
    private readonly dispatch: Dispatch,
    private readonly cancelScheduled: (id: string) => void,
    private readonly log: Logger,
  ) {
    super();
  }

  start(): void {
    this.replan = setInterval(() => {
      if (this.pending?.by === 'timecode' && this.pending.scheduled === null) this.plan();
      else if (!this.pending) this.plan();
    }, REPLAN_MS);
    this.replan.unref();
    this.plan();
  }

  stop(): void {
    if (this.replan) clearInterval(this.replan);
    this.replan = null;
    this.drop();
  }

  get current(): Cue | null {
    const i = this.currentId === null ? -1 : this.list.indexOf(this.currentId);
    return i < 0 ? null : this.list.list[i]!;
  }

  get next(): Cue | null {
    const i = this.currentId === null ? -1 : this.list.indexOf(this.currentId);
    return this.list.list[i + 1] ?? null;
  }

  view() {
    const next = this.next;
    const p = this.pending;
    return {
      current: this.current,
      next,
      /** When the next cue fires by its trigger (ms from now), null when it waits for GO. */
      nextInMs: p && next && p.cue.id === next.id ? Math.max(0, Math.round(p.atMs - clockNow())) : null,
      armed: this.list.armed,
      recent: [...this.recent],
    };
  }

  async go(): Promise<Cue> {
    const next = this.next;
    if (!next) throw new ApiError('CUE_LIST_END', this.list.list.length === 0 ? 'the cue list is empty' : 'the current cue is the last');
    await this.fire(next, 'go');
    return next;
  }

  async back(): Promise<Cue> {
    const i = this.currentId === null ? -1 : this.list.indexOf(this.currentId);
    const prev = i > 0 ? this.list.list[i - 1]! : null;
    if (!prev) throw new ApiError('CUE_LIST_END', 'there is no cue before the current one');
    await this.fire(prev, 'back');
    return prev;
  }

  async jump(q: string): Promise<Cue> {
    const cue = this.list.find(q);
    await this.fire(cue, 'jump');
    return cue;
  }

  /** The list changed (a cue added, edited, moved or deleted, or arming): the next cue's instant is worked out again. */
  changed(): void {
    if (this.currentId !== null && this.list.indexOf(this.currentId) < 0) this.currentId = null;
    this.drop();
    this.plan();
    this.emit('change');
  }

  /** The timecode stopped (lost, held): what was handed over for its instants is taken back. */
  timecodeStopped(): void {
    if (this.pending?.by !== 'timecode') return;
    this.drop();
    this.plan();
    this.emit('change');
  }

  /** The timecode jumped, locked or stopped: the list moves to the cue the time belongs to, and plans again. */
  timecodeMoved(): void {
    this.drop();
    const frames = this.clocks.timecodeNow();
    if (this.list.armed && frames !== null) this.relocate(frames);
    this.plan();
    this.emit('change');
  }

  private relocate(now: number): void {
    const all = this.list.list;
    let target = -1;
    all.forEach((c, i) => {
      const f = timecodeFrames(c, this.clocks.timecodeRate());
      if (f !== null && f <= now) target = i;
    });
    const from = this.currentId === null ? -1 : this.list.indexOf(this.currentId);
    if (target === from) return;
    // A jump forward fires the skipped cues that ask for it; the cue landed on fires if it asks.
    const skipped = target > from ? all.slice(from + 1, target) : [];
    const landed = all[target];
    this.currentId = landed?.id ?? null;
    this.firedAtMs = clockNow();
    // In list order, one cue's operations after the other's, as GO would have run them.
    const fire = [...skipped, ...(landed ? [landed] : [])].filter((c) => c.fireOnJump);
    this.relocating = fire.reduce((chain, c) => chain.then(() => this.run(c, 'relocate', null).then(() => undefined)), this.relocating);
  }

  private async fire(cue: Cue, by: FiredBy, atMs: number | null = null): Promise<void> {
    this.drop();
    this.currentId = cue.id;
    this.firedAtMs = atMs ?? clockNow();
    await this.run(cue, by, null);
    this.plan();
    this.emit('change');
  }

  /**
   * Runs a cue's operations in order; with `atMs`, each is held for that instant (and the record waits for the
   * instant: `land` writes it, so a hand-over cancelled by a jump leaves none). Returns the scheduled ids.
   */
  private async run(cue: Cue, by: FiredBy, atMs: number | null, pending: Pending | null = null): Promise<string[]> {
    const statuses: number[] = [];
    const ids: string[] = [];
    // One instant for every operation of the cue (and its record), written once.
    const at = atMs === null ? undefined : wallIso(atMs);
    for (const a of cue.actions) {
      // The dispatch answers every fault as a status; one that throws anyway counts as a 500, never a rejection.
      const reply = await this.dispatch({
        method: 'POST',
        path: `${API_PREFIX}${a.op}`,
        body: a.body ?? {},
        trusted: true,
        awaitDurable: false,
        at,
        transport: 'cues',
      }).catch((err: Error) => ({ status: 500, json: { message: err.message } }));
      statuses.push(reply.status);
      const id = (reply.json as { scheduled?: { id?: string } } | undefined)?.scheduled?.id;
      if (reply.status === 202 && id) ids.push(id);
      if (reply.status >= 300)
        this.log.warn(
          { cue: cue.id, op: a.op, status: reply.status, message: (reply.json as { message?: string })?.message },
          'cue operation refused',
        );
    }
    const record = { id: cue.id, name: cue.name, by, at: at ?? wallIso(clockNow()), statuses };
    if (pending) pending.record = record;
    else this.remember(record);
    return ids;
  }

  private remember(record: FiredRecord): void {
    this.recent.push(record);
    if (this.recent.length > CUE_LIMITS.recentMax) this.recent.shift();
  }

  /** Works out when the next cue fires by its trigger and sets the timers for it. */
  private plan(): void {
    const next = this.next;
    const planned = next ? cueInstant(next, this.firedAtMs, this.list.armed, this.clocks) : null;
    if (
      this.pending &&
      (this.pending.scheduled !== null || (planned && this.pending.cue.id === next?.id && Math.abs(planned.atMs - this.pending.atMs) < 1))
    )
      return;
    this.drop();
    if (!next || !planned) return;
    const p: Pending = { cue: next, atMs: planned.atMs, by: planned.by, scheduled: null, timer: null };
    this.pending = p;
    const handOver = (): void => {
      p.timer = setTimeout(() => this.land(p), Math.max(0, p.atMs - clockNow()));
      p.scheduled = [];
      const ahead = p.atMs - clockNow() > 5;
      void this.run(p.cue, p.by, ahead ? p.atMs : null, p).then((ids) => {
        if (this.pending === p) p.scheduled = ids;
        else for (const id of ids) this.cancel(id);
      });
    };
    const wait = p.atMs - CUE_LIMITS.leadMs - clockNow();
    if (wait <= 0) handOver();
    else p.timer = setTimeout(handOver, wait);
  }

  /** The instant came: the cue is the current one now. */
  private land(p: Pending): void {
    if (this.pending !== p) return;
    this.pending = null;
    if (p.record) this.remember(p.record);
    else this.remember({ id: p.cue.id, name: p.cue.name, by: p.by, at: wallIso(p.atMs), statuses: [] });
    this.currentId = p.cue.id;
    this.firedAtMs = p.atMs;
    this.plan();
    this.emit('change');
  }

  /** Forgets the planned cue, cancelling what was handed to the scheduler. */
  private drop(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    if (p.timer) clearTimeout(p.timer);
    for (const id of p.scheduled ?? []) this.cancel(id);
  }

  private cancel(id: string): void {
    try {
      this.cancelScheduled(id);
    } catch {
      // already applied or gone
    }
  }
}
