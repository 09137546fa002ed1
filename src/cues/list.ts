// The cue list as state (state.json's `cues`, like scenes): add, edit, move, delete and arm, each checked whole
// before it changes anything. An operation must name a POST route of the table (never a /cues route, so a cue
// cannot fire the list); its body is checked by that route when the cue fires, as any request's is.
import { ApiError, notFound } from '../errors.js';
import { CUE_LIMITS } from '../limits.js';
import { matchName } from '../shared/names.js';
import type { StateStore } from '../state/store.js';
import type { CuesSaved, Cue, CueAction } from './types.js';
import { parseTimecode } from '../shared/smpte.js';

export type CueFields = Omit<Cue, 'id'>;

export interface CueListDeps {
  state: StateStore;
  /** Whether POST /api/v1<op> is a route of the table. */
  isPostRoute(op: string): boolean;
}

function idOf(name: string, all: readonly Cue[]): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'cue';
  let id = base;
  for (let n = 2; all.some((c) => c.id === id); n++) id = `${base}-${n}`;
  return id;
}

const invalid = (field: string, message: string) => new ApiError('INVALID_REQUEST', `${field} ${message}`);

export class CueList {
  constructor(private readonly d: CueListDeps) {}

  private get saved(): Readonly<CuesSaved> {
    return this.d.state.peek().cues ?? { armed: true, list: [] };
  }

  get list(): readonly Cue[] {
    return this.saved.list;
  }

  get armed(): boolean {
    return this.saved.armed;
  }

  /** A cue by id, then by flexible name, or 404 naming the ids there are. */
  find(q: string): Cue {
    const all = this.list;
    const hit = all.find((c) => c.id === q) ?? matchName(all, q, [(c) => c.id, (c) => c.name]);
    if (!hit)
      throw notFound(
        'cue',
        q,
        all.map((c) => c.id),
      );
    return hit;
  }

  indexOf(id: string): number {
    return this.list.findIndex((c) => c.id === id);
  }

  add(fields: CueFields, index?: number): Cue {
    if (this.list.length >= CUE_LIMITS.cuesMax) throw new ApiError('CUE_LIMIT_REACHED');
    this.check(fields);
    const cue: Cue = { id: idOf(fields.name, this.list), ...fields };
    this.write((s) => s.list.splice(Math.min(index ?? s.list.length, s.list.length), 0, cue));
    return cue;
  }

  edit(id: string, change: Partial<CueFields>): Cue {
    const cur = this.find(id);
    const next: Cue = { ...cur, ...change, id: cur.id };
    this.check(next);
    this.write((s) => {
      s.list[s.list.findIndex((c) => c.id === cur.id)] = next;
    });
    return next;
  }

  move(id: string, index: number): Cue {
    const cue = this.find(id);
    this.write((s) => {
      s.list.splice(
        s.list.findIndex((c) => c.id === cue.id),
        1,
      );
      s.list.splice(Math.min(index, s.list.length), 0, cue);
    });
    return cue;
  }

  remove(id: string): Cue {
    const cue = this.find(id);
    this.write((s) => {
      s.list = s.list.filter((c) => c.id !== cue.id);
    });
    return cue;
  }

  arm(armed: boolean): void {
    this.write((s) => {
      s.armed = armed;
    });
  }

  private write(change: (s: CuesSaved) => void): void {
    this.d.state.update((st) => {
      const cur = st.cues ?? { armed: true, list: [] };
      const copy: CuesSaved = { armed: cur.armed, list: [...cur.list] };
      change(copy);
      st.cues = copy;
    });
  }

  /** What the schema cannot say: a timecode that is a time of day, operations on routes that exist. */
  private check(c: CueFields): void {
    if (c.trigger.kind === 'timecode') {
      const tc = parseTimecode(c.trigger.at);
      if (!tc || tc.hours > 23 || tc.minutes > 59 || tc.seconds > 59 || tc.frames > 29)
        throw invalid('trigger.at', `${JSON.stringify(c.trigger.at)} is not a time of day (00:00:00:00 to 23:59:59:29)`);
    }
    c.actions.forEach((a: CueAction, i) => {
      const field = `actions[${i}].op`;
      if (a.op.startsWith('/cues')) throw invalid(field, 'may not be a /cues route (a cue cannot run the list)');
      if (!this.d.isPostRoute(a.op)) throw invalid(field, `${JSON.stringify(a.op)} is not a POST route below /api/v1`);
      if (a.body !== undefined && 'at' in a.body)
        throw invalid(`actions[${i}].body.at`, "may not be set: a cue's operations take their instant from its trigger");
      if (a.body !== undefined && Buffer.byteLength(JSON.stringify(a.body), 'utf8') > CUE_LIMITS.actionBodyMaxBytes)
        throw invalid(`actions[${i}].body`, `is larger than ${CUE_LIMITS.actionBodyMaxBytes} bytes as JSON`);
    });
  }
}
