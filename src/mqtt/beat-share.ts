// The show's beat clock (docs/show.md): the leader publishes its tempo grid retained whenever it moves, and every
// other box locks its own tempo clock to that grid, so BEAT_* modulation and beat-synced clips agree on boxes whose
// wall clocks are synchronised. The grid is linear in wall-clock time, so a member that stops hearing the leader
// keeps playing the last grid it had, beat for beat.
import { SHOW_LIMITS as L, TEMPO_LIMITS } from '../limits.js';
import { beatAt, clockNow, type TempoClock } from '../shared/tempo-block.js';
import type { SharedBeat } from '../tempo/types.js';
import { isShowName } from './topics.js';

export interface BeatShareLink {
  publish(topic: string, payload: string, opts: { retain?: boolean; qos?: 0 | 1 }): boolean;
  subscribe(filter: string, handler: (topic: string, payload: Buffer, retained: boolean) => void): void;
}

/** What the leader's tempo topic carries. */
export interface TempoMessage extends SharedBeat {
  box: string;
  at: string;
}

export interface BeatShareStats {
  /** `leader`: publishes its grid; `member`: follows the leader's. */
  role: 'leader' | 'member';
  /** The box whose grid this one follows, once one was heard. */
  following: string | null;
  /** When the grid last came in (member) or went out (leader). */
  lastAt: string | null;
  /** Grids taken (member) or sent (leader). */
  count: number;
  /** Tempo messages that were not a valid grid (size, JSON, fields), and ones from a second leader. */
  malformed: number;
  /** This box's own grid now: boxes locked together show the same one. */
  grid: SharedBeat;
}

type Grid = Pick<TempoClock, 'bpm' | 'refTime' | 'refBeat' | 'beatsPerBar'>;

const gridOf = (c: Grid): Grid => ({ bpm: c.bpm, refTime: c.refTime, refBeat: c.refBeat, beatsPerBar: c.beatsPerBar });

/** Whether two grids put the beat at the same place now and keep doing so. */
function sameGrid(a: Grid, b: Grid, now: number): boolean {
  const at = (g: Grid) => beatAt({ ...g, source: 'manual', confidence: 1, range: { min: 0, max: 0 }, offsetMs: 0 }, now).beats;
  return Math.abs(a.bpm - b.bpm) < L.bpmEpsilon && a.beatsPerBar === b.beatsPerBar && Math.abs(at(a) - at(b)) < L.beatEpsilon;
}

/** The grid a tempo payload names, or null when it is not one this box can take. */
export function parseTempo(payload: Buffer): TempoMessage | null {
  if (payload.length > L.tempoMaxBytes) return null;
  let v: unknown;
  try {
    v = JSON.parse(payload.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const m = v as Record<string, unknown>;
  const num = (k: string) => (typeof m[k] === 'number' && Number.isFinite(m[k]) ? (m[k] as number) : null);
  const bpm = num('bpm');
  const refTime = num('refTime');
  const refBeat = num('refBeat');
  const beatsPerBar = num('beatsPerBar');
  if (bpm === null || refTime === null || refBeat === null || beatsPerBar === null) return null;
  if (
    bpm < TEMPO_LIMITS.bpmMin ||
    bpm > TEMPO_LIMITS.bpmMax ||
    !Number.isInteger(beatsPerBar) ||
    beatsPerBar < 1 ||
    beatsPerBar > L.beatsPerBarMax
  )
    return null;
  if (typeof m.box !== 'string' || !isShowName(m.box)) return null;
  const at = typeof m.at === 'string' ? m.at.slice(0, 40) : '';
  return { box: m.box, bpm, refTime, refBeat, beatsPerBar, at };
}

export class BeatShare {
  private timer: NodeJS.Timeout | null = null;
  private sent: Grid | null = null;
  private sentAt = 0;
  private readonly s: BeatShareStats;

  constructor(
    private readonly topic: string,
    private readonly box: string,
    private readonly leader: boolean,
    private readonly link: BeatShareLink,
    private readonly tempo: { clock(): Grid; lock(shared: SharedBeat): Promise<unknown> },
    private readonly warn: (msg: string, detail: object) => void,
  ) {
    this.s = { role: leader ? 'leader' : 'member', following: null, lastAt: null, count: 0, malformed: 0, grid: gridOf(tempo.clock()) };
  }

  start(): void {
    this.link.subscribe(this.topic, (_t, payload) => this.heard(payload));
    if (this.leader) this.timer = setInterval(() => this.check(), L.tempoCheckMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  stats(): BeatShareStats {
    return { ...this.s, grid: gridOf(this.tempo.clock()) };
  }

  /** Leader: sends the grid when it moved, and again now and then (a restarted broker forgets retained messages). */
  check(): void {
    const c = this.tempo.clock();
    const now = clockNow();
    if (this.sent && sameGrid(this.sent, c, now) && now - this.sentAt < L.tempoRepublishMs) return;
    const grid = gridOf(c);
    const msg: TempoMessage = { box: this.box, ...grid, at: new Date(now).toISOString() };
    if (!this.link.publish(this.topic, JSON.stringify(msg), { retain: true, qos: 1 })) return;
    this.sent = grid;
    this.sentAt = now;
    this.s.count++;
    this.s.lastAt = msg.at;
  }

  private heard(payload: Buffer): void {
    const m = parseTempo(payload);
    if (!m) {
      this.s.malformed++;
      return;
    }
    if (m.box === this.box) return;
    if (this.leader) {
      // Two leaders would pull each other's clocks: this one keeps its own and says so.
      this.s.malformed++;
      this.warn('another box publishes the show tempo as leader; this leader keeps its own', { other: m.box });
      return;
    }
    this.s.following = m.box;
    this.s.lastAt = new Date().toISOString();
    if (sameGrid(m, this.tempo.clock(), clockNow())) return;
    this.s.count++;
    void this.tempo
      .lock({ bpm: m.bpm, refTime: m.refTime, refBeat: m.refBeat, beatsPerBar: m.beatsPerBar })
      .catch((err: unknown) => this.warn('the show tempo could not be taken', { err: (err as Error).message }));
  }
}
