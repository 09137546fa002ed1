// A media file's transport settings as vjd keeps them (per media file id in state.json): speed or tempo sync, loop
// mode, in/out points and named cue points; and what the clip reader is told of them.
import { CLIP_LOOPS, type ClipLoop, type ClipSettings } from '../shared/protocol/ingest.js';
import { TRANSPORT_LIMITS } from '../limits.js';

/** What follows a clip's end (loop modes `once`, `once-black`): as the mode says, black, a take of the cued source, or the next clip of the folder. */
export type ClipEnd = 'hold' | 'black' | 'take' | 'next';
export const CLIP_ENDS: readonly ClipEnd[] = ['hold', 'black', 'take', 'next'];

export interface TransportSaved {
  speed: number;
  /** The in-out span lasts `beats` beats at the current tempo; null: `speed` applies. */
  sync: { beats: number } | null;
  loop: ClipLoop;
  end: ClipEnd;
  in: number | null;
  out: number | null;
  cues: Record<string, number>;
  /** Follows the show timecode from `start` (src/transport/chase.ts); null: plays on its own. */
  chase?: ChaseSaved | null;
  /** Epoch ms of the last change: the oldest are forgotten first past the limit. */
  at: number;
}

export interface ChaseSaved {
  /** The timecode at which the clip's first frame shows, "HH:MM:SS:FF". */
  start: string;
  /** While the timecode does not run (or is outside the clip): hold the frame, or show black. */
  onStop: 'hold' | 'black';
  /** How far the clip may drift from the timecode before it is sought back. */
  thresholdMs: number;
}

const TC_TEXT = /^\d{2}:\d{2}:\d{2}[:;.]\d{2}$/;

export const DEFAULT_SAVED: TransportSaved = { speed: 1, sync: null, loop: 'loop', end: 'hold', in: null, out: null, cues: {}, at: 0 };

/** Seconds from the in to the out point (null when the clip's length is unknown). */
export function spanS(s: TransportSaved, durationS: number | null): number | null {
  const end = s.out ?? durationS;
  return end === null ? null : end - (s.in ?? 0);
}

/** The speed the reader plays: `sync` fits the span into its beats at `bpm`, within the speed limits. */
export function effectiveSpeed(s: TransportSaved, durationS: number | null, bpm: number): number {
  const span = spanS(s, durationS);
  if (!s.sync || span === null || span <= 0) return s.speed;
  const raw = span / ((s.sync.beats * 60) / bpm);
  return Math.min(TRANSPORT_LIMITS.speedMax, Math.max(TRANSPORT_LIMITS.speedMin, raw));
}

export function clipSettings(s: TransportSaved, durationS: number | null, bpm: number): ClipSettings {
  // `black` turns a held last frame into black; the reader knows only its loop modes. A chasing clip never loops:
  // past its end it holds, or shows black when its chase says so.
  const loop = s.chase
    ? s.chase.onStop === 'black'
      ? 'once-black'
      : 'once'
    : s.loop === 'once' && s.end === 'black'
      ? 'once-black'
      : s.loop;
  return { speed: effectiveSpeed(s, durationS, bpm), loop, inS: s.in, outS: s.out };
}

/** The saved settings with media file `id`'s replaced by `next`; past the limit the least recently changed are forgotten. */
export function withSaved(all: Record<string, TransportSaved>, id: string, next: TransportSaved): Record<string, TransportSaved> {
  const out = { ...all, [id]: next };
  const ids = Object.keys(out);
  if (ids.length > TRANSPORT_LIMITS.savedMax) {
    ids.sort((x, y) => out[x]!.at - out[y]!.at);
    for (const gone of ids.slice(0, ids.length - TRANSPORT_LIMITS.savedMax)) delete out[gone];
  }
  return out;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const point = (v: unknown): number | null => (isNum(v) && v >= 0 ? v : null);

/** The saved entries of a parsed state.json that have the right shape (hand-edited files load). */
export function sanitizeTransport(t: unknown): Record<string, TransportSaved> | undefined {
  if (!t || typeof t !== 'object') return undefined;
  const out: Record<string, TransportSaved> = {};
  for (const [id, raw] of Object.entries(t as Record<string, unknown>).slice(0, TRANSPORT_LIMITS.savedMax)) {
    if (id.length > 64 || !raw || typeof raw !== 'object') continue;
    const v = raw as Partial<TransportSaved>;
    const speed = isNum(v.speed) && v.speed >= TRANSPORT_LIMITS.speedMin && v.speed <= TRANSPORT_LIMITS.speedMax ? v.speed : 1;
    const beats = v.sync && isNum(v.sync.beats) && v.sync.beats > 0 && v.sync.beats <= TRANSPORT_LIMITS.beatsMax ? v.sync.beats : null;
    const cues: Record<string, number> = {};
    if (v.cues && typeof v.cues === 'object') {
      for (const [name, pos] of Object.entries(v.cues).slice(0, TRANSPORT_LIMITS.cuesMax)) {
        if (name.length <= TRANSPORT_LIMITS.cueNameMaxLength && point(pos) !== null) cues[name] = pos as number;
      }
    }
    out[id] = {
      speed,
      sync: beats === null ? null : { beats },
      loop: CLIP_LOOPS.includes(v.loop as ClipLoop) ? (v.loop as ClipLoop) : 'loop',
      end: CLIP_ENDS.includes(v.end as ClipEnd) ? (v.end as ClipEnd) : 'hold',
      in: point(v.in),
      out: point(v.out),
      cues,
      chase: sanitizeChase(v.chase),
      at: isNum(v.at) ? v.at : 0,
    };
  }
  return out;
}

function sanitizeChase(c: unknown): ChaseSaved | null {
  if (!c || typeof c !== 'object') return null;
  const v = c as Partial<ChaseSaved>;
  if (typeof v.start !== 'string' || !TC_TEXT.test(v.start)) return null;
  const t = TRANSPORT_LIMITS;
  const thresholdMs = isNum(v.thresholdMs)
    ? Math.min(t.chaseThresholdMaxMs, Math.max(t.chaseThresholdMinMs, v.thresholdMs))
    : t.chaseThresholdDefaultMs;
  return { start: v.start, onStop: v.onStop === 'black' ? 'black' : 'hold', thresholdMs };
}
