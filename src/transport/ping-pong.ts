// The memory check of loop mode `ping-pong`: the in-out span, decoded at the ingest box size (RGBA), must fit the
// byte limit, since the reader keeps one whole pass of frames to play it backwards.
import { ApiError } from '../errors.js';
import { TRANSPORT_LIMITS } from '../limits.js';
import { fmt, spanOf } from './positions.js';
import type { TransportSaved } from './settings.js';

const MIB = 1024 * 1024;

/** Bytes one pass of the in-out span takes decoded; infinite when the clip's length is unknown and no out point is set. */
export function pingPongBytes(s: TransportSaved, durationS: number | null, fps: number, box: { width: number; height: number }): number {
  const { lo, hi } = spanOf(s, durationS);
  return (Math.ceil((hi - lo) * fps) + 1) * box.width * box.height * 4;
}

/** 400 when settings `s` ask for ping-pong over a span whose frames do not fit the limit. */
export function checkPingPong(s: TransportSaved, durationS: number | null, fps: number, box: { width: number; height: number }): void {
  if (s.loop !== 'ping-pong') return;
  const need = pingPongBytes(s, durationS, fps, box);
  const limit = TRANSPORT_LIMITS.pingPongMaxBytes;
  if (need <= limit) return;
  const { lo, hi } = spanOf(s, durationS);
  const what = Number.isFinite(need)
    ? `its in-out span (${fmt(hi - lo)} s at ${fps} fps, ${box.width}x${box.height} RGBA) needs ${Math.ceil(need / MIB)} MiB`
    : 'the clip has no known length; set an out point';
  throw new ApiError('INVALID_REQUEST', `ping-pong keeps the clip's frames in memory, at most ${limit / MIB} MiB: ${what}`);
}
