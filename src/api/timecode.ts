// GET /timecode (docs/timecode.md): the show's timecode as the configured reader gives it, with its state
// (locked, freewheel, lost), rate, sender and the counts of what was read and refused.
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import type { TimecodeService } from '../timecode/service.js';
import type { TimecodeChase } from '../transport/chase.js';

const count = (description: string) => Type.Integer({ minimum: 0, description });
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description: string) =>
  Type.Union([t, Type.Null()], { description });

export const TimecodeBody = Type.Object({
  source: Type.String({ description: 'timecode.source: none, ltc, mtc or artnet' }),
  state: Type.Union(
    ['off', 'waiting', 'locked', 'freewheel', 'lost'].map((s) => Type.Literal(s)),
    {
      description: 'off (no reader), waiting (nothing read yet), locked, freewheel (running on after the signal stopped), lost',
    },
  ),
  timecode: nullable(Type.String(), 'HH:MM:SS:FF now (";" before the frames at 29.97 drop-frame), offset applied'),
  frames: nullable(Type.Integer(), 'frames since midnight now'),
  seconds: nullable(Type.Number(), 'seconds since midnight now'),
  rate: nullable(Type.Number(), 'frames per second of the label: 24, 25, 29.97 or 30'),
  running: Type.Boolean({ description: 'whether the time moves now' }),
  reverse: Type.Boolean({ description: 'the signal runs backwards' }),
  sender: nullable(Type.String(), 'who sent the last reading: a host, a MIDI port or an audio input'),
  lastReadingAt: nullable(Type.String({ format: 'date-time' }), 'when the last reading came'),
  offset: Type.String(),
  freewheelMs: Type.Integer(),
  lossAction: Type.String(),
  fps: nullable(Type.Number(), 'timecode.fps: the one rate taken, or null for any'),
  counts: Type.Object({
    readings: count('readings taken'),
    jumps: count('readings that moved the clock by more than two frames (a locate), or a lock after a loss'),
    losses: count('times the signal was lost past freewheel'),
    wrongRate: count('readings at a rate other than timecode.fps'),
    malformed: count('packets, messages or LTC words refused'),
  }),
  reader: nullable(
    Type.Object({
      state: Type.String({ description: 'starting, running, retrying or stopped' }),
      message: nullable(Type.String(), 'why it failed'),
    }),
    "LTC only: the reader's own ffmpeg on the input; null for the other sources",
  ),
  chase: Type.Object(
    {
      seeks: count('seeks made to bring a chasing clip back to the timecode'),
      stops: count('times a chasing clip held or went black as the timecode stopped'),
      seekMs: Type.Number({ description: 'how long a seek takes to show (smoothed): seeks aim that far ahead' }),
      errorMs: Type.Object(
        { count: Type.Integer(), p50: nullable(Type.Number(), ''), p99: nullable(Type.Number(), '') },
        {
          description:
            'timecode minus the position of a playing chasing clip (ms; positive: the clip is behind), sampled every 50 ms (the last 1024)',
        },
      ),
    },
    { description: 'clips locked to the timecode (POST /transport/chase)' },
  ),
});

export function timecodeRoutes(tc: TimecodeService, chase: Pick<TimecodeChase, 'stats'>): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/timecode`,
      auth: 'required',
      operationId: 'getTimecode',
      summary: 'The show timecode now',
      tags: ['cues'],
      feature: 'timecode',
      schema: {},
      responses: { 200: { description: 'the timecode', schema: TimecodeBody } },
      errors: [],
      handler: () => ({ json: { ...tc.view(), chase: chase.stats() } }),
    }),
  ];
}
