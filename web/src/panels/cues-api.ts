// The cue panel's shapes, reads and calls: GET /cues and GET /timecode (the `cues` and `timecode` topics) as the
// generated description types them, the POST /cues routes, and a trigger, a countdown and a timecode state in words.
import { call, problem } from '../api';
import type { ApiPaths, Got, Op, RequestBody } from '../api-shapes';
import { changed } from '../live';
import { notify, update, type LiveState } from '../store';

export type CuesView = Got<'/cues'>;
export type Cue = CuesView['cues'][number];
export type Trigger = Cue['trigger'];
export type CueAction = Cue['actions'][number];
export type TimecodeView = Got<'/timecode'>;
export type TcState = TimecodeView['state'];

/** The POST routes of the cue list, and the body each takes. */
export type CuePath = Extract<ApiPaths<'POST'>, `/cues/${string}`>;
export type CueBody<P extends CuePath> = RequestBody<Op<'POST', P>>;

/** Both GETs into the store (the page start and a reconnect, and after each change here). Whether the server has the cue list. */
export async function readCues(): Promise<boolean> {
  const [cues, tc] = await Promise.all([call('GET', '/cues'), call('GET', '/timecode')]);
  const patch: Partial<LiveState> = {};
  if (cues.ok) {
    patch.cues = cues.body;
    patch.cuesAt = performance.now();
  }
  if (tc.ok) patch.timecode = tc.body;
  update(patch);
  return cues.ok;
}

/** One POST /cues route; an error answer goes to the notice line. Whether it worked. */
export async function cueOp<P extends CuePath>(path: P, body: CueBody<P>): Promise<boolean> {
  const r = await call('POST', path, { body });
  // The socket pushes the change too; reading it back keeps the panel right without one.
  changed();
  void readCues();
  if (!r.ok) notify(problem(r));
  return r.ok;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function triggerWords(t: Trigger): string {
  switch (t.kind) {
    case 'timecode':
      return `at ${t.at}`;
    case 'follow':
      return `follow ${Math.round(t.delayMs / 100) / 10} s`;
    case 'beats':
      return plural(t.count, t.unit);
    default:
      return 'manual';
  }
}

/** A countdown as seconds with a tenth, or m:ss past a minute. */
export function countdown(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
}

export const TC_TONE: Record<TcState, string> = { off: '', waiting: 'warn', locked: 'ok', freewheel: 'warn', lost: 'error' };

/** What a cue does, short: the common operations by name, any other by its path. */
export function actionWords(a: CueAction): string {
  const b = a.body ?? {};
  if (a.op === '/global/blackout') return b.enabled ? 'blackout on' : 'blackout off';
  if (a.op === '/scenes/recall') return `scene ${String(b.name ?? b.id ?? '')}`;
  if (a.op === '/sources/select') return `source ${String(b.id ?? b.name ?? '')}`;
  return a.op;
}
