// What `at` on an operation may be (docs/scheduling.md) and the wall-clock instant it comes to: an ISO 8601 instant,
// the next beat or bar of the tempo clock, or an absolute beat number. Each refusal names the instant and the limit.
import { ApiError } from '../errors.js';
import { SCHEDULE_LIMITS } from '../limits.js';
import { beatAt, type TempoClock } from '../shared/tempo-block.js';

/** Date, time and a zone: an instant without a zone would name another instant on every box. */
const ISO_INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** `at` as sent, once its shape is checked. */
export type AtRequest = string | { beat: number };

export interface ResolvedAt {
  /** Wall-clock epoch ms. */
  atMs: number;
  requested: AtRequest;
  /** The beat number the instant is, for the beat forms. */
  beat?: number;
}

export interface AtContext {
  /** Wall-clock epoch ms (Date.now()). */
  now: number;
  /** The tempo clock's epoch minus the wall clock's (the clock counts on the monotonic frame clock). */
  clockSkewMs: number;
  /** How far in the past an instant still counts as now: one frame period. */
  graceMs: number;
  /** The tempo clock, or null while it gives no beat grid. */
  grid: TempoClock | null;
}

export function resolveAt(raw: unknown, c: AtContext): ResolvedAt {
  const requested = parseAt(raw);
  const resolved = typeof requested === 'string' && !requested.startsWith('next') ? { atMs: isoMs(requested) } : onGrid(requested, c);
  const { atMs } = resolved;
  if (atMs < c.now - c.graceMs) {
    throw new ApiError(
      'AT_IN_PAST',
      `the instant ${iso(atMs)} passed ${Math.round(c.now - atMs)} ms ago (now ${iso(c.now)}; up to ${Math.round(c.graceMs)} ms ago counts as now); nothing was scheduled`,
      { at: iso(atMs), now: iso(c.now), graceMs: Math.round(c.graceMs) },
    );
  }
  if (atMs > c.now + SCHEDULE_LIMITS.aheadMaxMs) {
    throw new ApiError(
      'AT_TOO_FAR',
      `the instant ${iso(atMs)} is ${Math.round((atMs - c.now) / 1000)} s ahead; at most ${SCHEDULE_LIMITS.aheadMaxMs / 1000} s ahead is taken; nothing was scheduled`,
      { at: iso(atMs), now: iso(c.now), aheadMaxMs: SCHEDULE_LIMITS.aheadMaxMs },
    );
  }
  return { ...resolved, requested };
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function parseAt(raw: unknown): AtRequest {
  if (typeof raw === 'string') {
    if (raw.length > SCHEDULE_LIMITS.atMaxLength) throw invalid(`at is longer than ${SCHEDULE_LIMITS.atMaxLength} characters`);
    if (raw === 'nextBeat' || raw === 'nextBar' || ISO_INSTANT.test(raw)) return raw;
    throw invalid(`at "${raw}" is not an ISO 8601 instant with a zone (e.g. 2026-05-01T21:00:00.000Z), "nextBeat" or "nextBar"`);
  }
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const keys = Object.keys(raw);
    const beat = (raw as { beat?: unknown }).beat;
    if (keys.length === 1 && typeof beat === 'number' && Number.isFinite(beat) && beat >= 0 && beat <= SCHEDULE_LIMITS.beatMax) {
      return { beat };
    }
    throw invalid(`an object at must be {"beat": n} with n from 0 to ${SCHEDULE_LIMITS.beatMax}`);
  }
  throw invalid();
}

function invalid(message?: string): ApiError {
  return new ApiError('INVALID_AT', message);
}

function isoMs(text: string): number {
  const m = ISO_INSTANT.exec(text)!;
  // Date.parse reads milliseconds only: finer digits are cut, a shorter fraction padded.
  const ms = Date.parse(`${m[1]}.${(m[2] ?? '').padEnd(3, '0').slice(0, 3)}${m[3]}`);
  if (!Number.isFinite(ms)) throw invalid(`at "${text}" is not a calendar instant`);
  return ms;
}

/** The instant a beat form names, on the wall clock. */
function onGrid(requested: AtRequest, c: AtContext): { atMs: number; beat: number } {
  const g = c.grid;
  if (g === null) throw new ApiError('NO_BEAT_GRID');
  // A frame due at t shows the clock at t + offsetMs (the audio latency), so beat b is on the frame due offsetMs earlier.
  const beatInstant = (b: number): number => g.refTime + ((b - g.refBeat) * 60_000) / g.bpm - g.offsetMs - c.clockSkewMs;
  const pos = beatAt(g, c.now + c.clockSkewMs + g.offsetMs);
  const perBar = Math.max(1, g.beatsPerBar);
  let beat: number;
  if (requested === 'nextBeat') beat = pos.beatCount + 1;
  else if (requested === 'nextBar') beat = (pos.bar + 1) * perBar;
  else beat = (requested as { beat: number }).beat;
  return { atMs: beatInstant(beat), beat };
}
