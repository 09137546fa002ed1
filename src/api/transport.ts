// Transport routes: play, pause, seek, speed or tempo sync, loop mode, in/out and cue points of the clip on a bus.
import Type, { type TSchema } from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import { TRANSPORT_LIMITS } from '../limits.js';
import { CLIP_LOOPS } from '../shared/protocol/ingest.js';
import type { Bus, TransportService, TransportView } from '../transport/service.js';
import { CLIP_ENDS, type ClipEnd } from '../transport/settings.js';
import { outsideSpan } from '../transport/positions.js';

const { speedMin, speedMax, beatsMax, cueNameMaxLength } = TRANSPORT_LIMITS;

const BusField = Type.Optional(
  Type.Union([Type.Literal('program'), Type.Literal('preview')], { description: 'the bus whose clip to drive (default program)' }),
);
const Seconds = Type.Number({ minimum: 0, description: 'seconds from the start of the file' });
const Loop = Type.Union(
  CLIP_LOOPS.map((m) => Type.Literal(m)),
  {
    description:
      '`loop` back to the in point; `once` holds the last frame; `once-black` shows black at the end; `ping-pong` plays back to the in point and forward again',
  },
);

const End = Type.Union(
  CLIP_ENDS.map((m) => Type.Literal(m)),
  {
    description:
      "what follows the end in `once` modes: `hold` as the loop mode says, `black`, `take` (the cued source, with the mixer's transition) or `next` (the next video of the same media folder, wrapping); `take` and `next` act for the program bus",
  },
);

export const TransportViewSchema = Type.Object({
  bus: Type.Union([Type.Literal('program'), Type.Literal('preview')]),
  id: Type.String({ description: 'media file id' }),
  name: Type.String(),
  state: Type.Union([Type.Literal('playing'), Type.Literal('paused'), Type.Literal('ended'), Type.Literal('opening')]),
  positionS: Type.Number({ description: 'position of the frame on the output (s)' }),
  durationS: Type.Union([Type.Number(), Type.Null()], { description: "the file's length (null: unknown)" }),
  remainingS: Type.Union([Type.Number(), Type.Null()], { description: 'seconds to the out point at the current speed' }),
  speed: Type.Number({ description: 'the speed playing now (a synced clip: the one its tempo gives)' }),
  sync: Type.Union([Type.Object({ beats: Type.Number() }), Type.Null()], { description: 'the in-out span lasts this many beats' }),
  loop: Loop,
  end: End,
  in: Type.Union([Seconds, Type.Null()]),
  out: Type.Union([Seconds, Type.Null()]),
  cues: Type.Array(Type.Object({ name: Type.String(), positionS: Type.Number() })),
  chase: Type.Union(
    [
      Type.Object({ start: Type.String(), onStop: Type.Union([Type.Literal('hold'), Type.Literal('black')]), thresholdMs: Type.Number() }),
      Type.Null(),
    ],
    { description: 'the timecode the clip follows (POST /transport/chase), or null' },
  ),
});
const Nullable = Type.Union([TransportViewSchema, Type.Null()], { description: 'null while the bus holds no clip' });
const Answer = Type.Object({ success: Type.Literal(true), transport: TransportViewSchema });
const CueName = Type.String({ minLength: 1, maxLength: cueNameMaxLength, description: 'cue point name' });

const explain =
  (rule: string) =>
  (_where: string, problem: string): ApiError =>
    new ApiError('INVALID_REQUEST', `${rule} (${problem})`);

export function transportRoutes(t: TransportService): RouteDef[] {
  const common = { auth: 'required' as const, tags: ['transport'], feature: 'transport' };
  const post = <B extends TSchema>(
    path: string,
    operationId: string,
    summary: string,
    description: string,
    body: B,
    rule: string,
    run: (body: never, bus: Bus) => Promise<TransportView>,
    errors: Array<'ITEM_NOT_FOUND'> = [],
    invalid: (where: 'query' | 'params' | 'body', problem: string, value: unknown) => ApiError = explain(rule),
  ): RouteDef =>
    defineRoute({
      ...common,
      method: 'POST',
      path: `${API_PREFIX}/transport/${path}`,
      operationId,
      summary,
      description: `${description} On the program bus unless \`bus\` is \`preview\`. 409 NOT_A_CLIP when the bus holds no media clip; 504 ACTIVATION_TIMEOUT when the clip's reader did not show the change in time.`,
      schema: { body },
      emptyBody: true,
      invalid,
      responses: { 200: { description: 'the clip after the change', schema: Answer } },
      errors: ['INVALID_REQUEST', 'NOT_A_CLIP', 'ACTIVATION_TIMEOUT', ...errors],
      handler: async (req) => {
        const b = req.body as { bus?: Bus };
        return { json: { success: true, transport: await run(req.body as never, b.bus ?? 'program') } };
      },
    });
  const seekRule = '`positionS` must be a number of seconds ≥ 0, `fraction` a number from 0 to 1, `cue` a name of 1-64 characters';
  // The schema turns a negative position away before the clip is looked at: with a clip on the bus, the answer
  // names its range as one past the out point does.
  const seekInvalid = (where: 'query' | 'params' | 'body', problem: string, value: unknown): ApiError => {
    const b = value as { bus?: unknown; positionS?: unknown } | null;
    const bus = b?.bus ?? 'program';
    const negative = typeof b?.positionS === 'number' && b.positionS < 0 && problem.startsWith('body.positionS');
    const clip = negative && (bus === 'program' || bus === 'preview') ? t.viewOf(bus) : null;
    return clip ? outsideSpan(clip, clip.durationS) : explain(seekRule)(where, problem);
  };
  const busOnly = Type.Object({ bus: BusField });
  const busRule = '`bus` may be program or preview';
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: `${API_PREFIX}/transport`,
      operationId: 'getTransport',
      summary: 'The transport of the clip on each bus',
      description:
        'State, position of the frame on the output, length, time remaining to the out point, speed, loop mode, in/out and cue points; a bus without a clip is null.',
      schema: {},
      errors: [],
      responses: { 200: { description: 'both buses', schema: Type.Object({ program: Nullable, preview: Nullable }) } },
      handler: () => ({ json: t.view() }),
    }),
    post('play', 'playTransport', 'Play the clip', 'An ended clip starts again from its in point.', busOnly, busRule, (_b, bus) =>
      t.play(bus),
    ),
    post('pause', 'pauseTransport', 'Pause the clip', 'The output holds the frame it shows.', busOnly, busRule, (_b, bus) => t.pause(bus)),
    post('toggle', 'toggleTransport', 'Play a paused clip, pause a playing one', '', busOnly, busRule, (_b, bus) => t.toggle(bus)),
    post(
      'restart',
      'restartTransport',
      'Play the clip from its in point',
      'Answers once the in point is on the output.',
      busOnly,
      busRule,
      (_b, bus) => t.restart(bus),
    ),
    post(
      'seek',
      'seekTransport',
      'Move to a position, a fraction of the in-out span, or a cue point',
      'Exactly one of `positionS` (seconds from the in point to below the out point; 400 names the range), `fraction` (0..1 of the in-out span) or `cue` (a cue point name; 404 ITEM_NOT_FOUND lists the clip’s cue points). The output holds the last frame until the new position is decoded; the answer comes once that frame is on the output. Play or pause stays as it was.',
      Type.Object({
        bus: BusField,
        positionS: Type.Optional(Seconds),
        fraction: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
        cue: Type.Optional(CueName),
      }),
      seekRule,
      (b: { positionS?: number; fraction?: number; cue?: string }, bus) => t.seek(bus, b),
      ['ITEM_NOT_FOUND'],
      seekInvalid,
    ),
    post(
      'speed',
      'setTransportSpeed',
      'Set the speed, or sync the clip to the tempo',
      `Exactly one of \`speed\` (${speedMin}-${speedMax}) or \`sync: {beats}\` (1-${beatsMax}): the in-out span then lasts that many beats at the current tempo, following tempo changes (speed = span ÷ (beats × 60 / BPM), kept within ${speedMin}-${speedMax}). Applies from the next frame. Saved per media file.`,
      Type.Object({
        bus: BusField,
        speed: Type.Optional(Type.Number({ minimum: speedMin, maximum: speedMax })),
        sync: Type.Optional(Type.Object({ beats: Type.Number({ minimum: 1, maximum: beatsMax }) })),
      }),
      `\`speed\` must be a number from ${speedMin} to ${speedMax}, \`sync.beats\` a number from 1 to ${beatsMax}`,
      (b: { speed?: number; sync?: { beats: number } }, bus) => t.speed(bus, b),
    ),
    post(
      'loop',
      'setTransportLoop',
      'Set what happens at the out point',
      `\`mode\`: \`loop\` (the default), \`once\` (hold the last frame, state \`ended\`), \`once-black\` or \`ping-pong\` (backwards to the in point, then forwards again, over and over; \`positionS\` goes down on the way back). Ping-pong keeps the in-out span decoded in memory: at the render size in RGBA it must fit ${TRANSPORT_LIMITS.pingPongMaxBytes / (1024 * 1024)} MiB, else 400 names the clip's need (set in/out points to shorten it). Saved per media file.`,
      Type.Object({ bus: BusField, mode: Loop }),
      `\`mode\` must be one of ${CLIP_LOOPS.join(', ')}`,
      (b: { mode: (typeof CLIP_LOOPS)[number] }, bus) => t.loop(bus, b.mode),
    ),
    post(
      'end',
      'setTransportEnd',
      'Set what follows the end of a clip that plays once',
      "`mode`: `hold` (the default: `once` holds the last frame, `once-black` shows black), `black`, `take` (takes the cued source with the mixer's transition) or `next` (selects the next video of the same media folder, wrapping to the first). Acts when the clip ends in loop mode `once` or `once-black`, for the clip on the program bus; a failed take or select is logged. Saved per media file.",
      Type.Object({ bus: BusField, mode: End }),
      '`mode` must be one of hold, black, take, next',
      (b: { mode: ClipEnd }, bus) => t.end(bus, b.mode),
    ),
    post(
      'inout',
      'setTransportInOut',
      'Set the in and out points',
      '`in` and `out` in seconds; a field left out keeps its value, `null` clears it (the file’s start or end). 400 names the valid range. Saved per media file.',
      Type.Object({
        bus: BusField,
        in: Type.Optional(Type.Union([Seconds, Type.Null()])),
        out: Type.Optional(Type.Union([Seconds, Type.Null()])),
      }),
      '`in` and `out` must be numbers of seconds ≥ 0 or null',
      (b: { in?: number | null; out?: number | null }, bus) => t.inout(bus, b),
    ),
    post(
      'cues',
      'addTransportCue',
      'Add or move a named cue point',
      'Seek to it with `POST /transport/seek {"cue": name}`. Saved per media file.',
      Type.Object({ bus: BusField, name: CueName, positionS: Seconds }),
      '`name` must be 1-64 characters and `positionS` a number of seconds ≥ 0',
      (b: { name: string; positionS: number }, bus) => t.addCue(bus, b.name, b.positionS),
    ),
    post(
      'cues/remove',
      'removeTransportCue',
      'Remove a named cue point',
      '404 ITEM_NOT_FOUND lists the clip’s cue points.',
      Type.Object({ bus: BusField, name: CueName }),
      '`name` must be 1-64 characters',
      (b: { name: string }, bus) => t.removeCue(bus, b.name),
      ['ITEM_NOT_FOUND'],
    ),
    post(
      'chase',
      'setTransportChase',
      'Lock the clip to the show timecode',
      `\`start\`: the timecode at which the clip's first frame shows ("HH:MM:SS:FF"; null: the clip plays on its own again). The clip plays by itself and is sought only when it drifts more than \`thresholdMs\` (default ${TRANSPORT_LIMITS.chaseThresholdDefaultMs}) from the timecode; while the timecode stops, is lost or points before the clip it holds its frame (\`onStop\` "hold", the default) or shows black ("black"); past its end it holds or shows black the same way. A chasing clip does not loop. Saved per media file. See docs/timecode.md.`,
      Type.Object({
        bus: BusField,
        start: Type.Union([Type.String({ pattern: '^\\d{2}:\\d{2}:\\d{2}[:;.]\\d{2}$' }), Type.Null()]),
        onStop: Type.Optional(Type.Union([Type.Literal('hold'), Type.Literal('black')])),
        thresholdMs: Type.Optional(
          Type.Integer({ minimum: TRANSPORT_LIMITS.chaseThresholdMinMs, maximum: TRANSPORT_LIMITS.chaseThresholdMaxMs }),
        ),
      }),
      `\`start\` must be a timecode "HH:MM:SS:FF" or null, \`onStop\` hold or black, \`thresholdMs\` an integer from ${TRANSPORT_LIMITS.chaseThresholdMinMs} to ${TRANSPORT_LIMITS.chaseThresholdMaxMs}`,
      (b: { start: string | null; onStop?: 'hold' | 'black'; thresholdMs?: number }, bus) =>
        t.chase(
          bus,
          b.start === null
            ? null
            : { start: b.start, onStop: b.onStop ?? 'hold', thresholdMs: b.thresholdMs ?? TRANSPORT_LIMITS.chaseThresholdDefaultMs },
        ),
    ),
  ];
}
