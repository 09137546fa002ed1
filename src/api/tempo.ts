// Tempo routes: the clock's view, tap, manual BPM, resync, nudge, half/double, the source and the tracker's range.
import Type, { type TSchema } from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import { TEMPO_LIMITS } from '../limits.js';
import { rangeProblem } from '../config/audio.js';
import { TEMPO_SOURCES } from '../shared/tempo-block.js';
import type { Tempo, TempoView } from '../tempo/types.js';

const { bpmMin, bpmMax, nudgeMaxMs, rangeMinRatio, tapResetMs } = TEMPO_LIMITS;

const Source = Type.Union(
  TEMPO_SOURCES.map((s) => Type.Literal(s)),
  { description: '`auto`: the beat tracker; `tap`: POST /tempo/tap; `manual`: POST /tempo/bpm' },
);

const Range = Type.Object(
  {
    min: Type.Number({ minimum: bpmMin, maximum: bpmMax, description: 'BPM' }),
    max: Type.Number({ minimum: bpmMin, maximum: bpmMax, description: 'BPM' }),
  },
  { description: "the beat tracker's search range" },
);

export const TempoViewSchema = Type.Object({
  bpm: Type.Number({ minimum: bpmMin, maximum: bpmMax }),
  source: Source,
  confidence: Type.Number({ minimum: 0, maximum: 1, description: '1 for tap and manual; the tracker’s certainty for auto' }),
  beat: Type.Integer({ description: 'whole beats since beat 1 of the first bar' }),
  bar: Type.Integer({ description: 'whole bars since then' }),
  phase: Type.Number({ minimum: 0, maximum: 1, description: '0..1 within the current beat' }),
  beatsPerBar: Type.Integer({ minimum: 1 }),
  range: Range,
  position: Type.Number({ description: 'beats since beat 1 of the first bar, fractional, at the instant `at`' }),
  at: Type.Number({
    description: "epoch milliseconds on the server's clock at which this answer held: beat(t) = position + (t − at) × bpm / 60000",
  }),
});

/** A validation failure with the rule spelled out, then the validator's own words. */
const explain =
  (rule: string) =>
  (_where: string, problem: string): ApiError =>
    new ApiError('INVALID_REQUEST', `${rule} (${problem})`);

export function tempoRoutes(tempo: Tempo): RouteDef[] {
  const common = {
    auth: 'required' as const,
    tags: ['tempo'],
    feature: 'tempo',
    errors: ['INVALID_REQUEST' as const, 'AUDIO_BUSY' as const],
  };
  const answer = { 200: { description: 'the clock after the change', schema: TempoViewSchema } };
  const reply = async (v: Promise<TempoView>) => ({ json: await v });
  const post = <B extends TSchema>(
    path: string,
    operationId: string,
    summary: string,
    description: string,
    body: B | null,
    rule: string | null,
    run: (body: never) => Promise<TempoView>,
  ): RouteDef =>
    defineRoute({
      ...common,
      method: 'POST',
      path: `${API_PREFIX}/tempo/${path}`,
      operationId,
      summary,
      description,
      schema: body ? { body } : {},
      ...(body ? {} : { emptyBody: true }),
      ...(rule ? { invalid: explain(rule) } : {}),
      responses: answer,
      handler: (req) => reply(run(req.body as never)),
    });
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: `${API_PREFIX}/tempo`,
      operationId: 'getTempo',
      summary: 'The tempo clock: BPM, source, confidence and the beat position now',
      description: 'Computed from the shared clock at the instant of the request; cheap to poll.',
      schema: {},
      errors: [],
      responses: { 200: { description: 'the clock now', schema: TempoViewSchema } },
      handler: () => ({ json: tempo.view() }),
    }),
    post(
      'tap',
      'tapTempo',
      'Tap the tempo: the source becomes tap',
      `Empty body. The instant the request arrives is a beat. From the second tap on, BPM is the median of the last ${TEMPO_LIMITS.tapIntervals} intervals (clamped to ${bpmMin}-${bpmMax}); a tap more than ${tapResetMs} ms after the previous one starts over (it sets the phase only).`,
      null,
      null,
      () => tempo.tap(),
    ),
    post(
      'bpm',
      'setTempoBpm',
      'Set the tempo by hand: the source becomes manual',
      `\`bpm\` is a number from ${bpmMin} to ${bpmMax}. The beat position goes on from where it is (no jump).`,
      Type.Object({ bpm: Type.Number({ minimum: bpmMin, maximum: bpmMax, description: 'beats per minute' }) }),
      `\`bpm\` must be a number from ${bpmMin} to ${bpmMax}`,
      (b: { bpm: number }) => tempo.setBpm(b.bpm),
    ),
    post(
      'resync',
      'resyncTempo',
      'This instant is beat 1 of a bar',
      'Empty body. The tempo stays; the beat count moves on to the start of the next bar.',
      null,
      null,
      () => tempo.resync(),
    ),
    post(
      'nudge',
      'nudgeTempo',
      'Shift the phase by some milliseconds',
      `\`ms\` from -${nudgeMaxMs} to ${nudgeMaxMs}: positive makes the beats land later, negative earlier. The tempo stays.`,
      Type.Object({ ms: Type.Number({ minimum: -nudgeMaxMs, maximum: nudgeMaxMs, description: 'milliseconds' }) }),
      `\`ms\` must be a number from -${nudgeMaxMs} to ${nudgeMaxMs}`,
      (b: { ms: number }) => tempo.nudge(b.ms),
    ),
    post(
      'multiply',
      'multiplyTempo',
      'Halve or double the tempo',
      `\`factor\` is 0.5 or 2 (clamped to ${bpmMin}-${bpmMax}). With source auto it also halves or doubles what the tracker finds, until the source or range changes.`,
      Type.Object({ factor: Type.Union([Type.Literal(0.5), Type.Literal(2)], { description: '0.5 or 2' }) }),
      '`factor` must be 0.5 or 2',
      (b: { factor: 0.5 | 2 }) => tempo.multiply(b.factor),
    ),
    post(
      'source',
      'setTempoSource',
      'Choose what drives the clock: auto, tap or manual',
      'Switching keeps the beat position. `manual` plays the last manual BPM; `auto` free-wheels at the current tempo until the tracker is confident; `tap` keeps the tempo until the next taps.',
      Type.Object({ source: Source }),
      '`source` must be one of auto, tap, manual',
      (b: { source: (typeof TEMPO_SOURCES)[number] }) => tempo.setSource(b.source),
    ),
    post(
      'range',
      'setTempoRange',
      "Set the beat tracker's search range",
      `\`min\` and \`max\` in BPM from ${bpmMin} to ${bpmMax}, with max at least ${rangeMinRatio} times min. The tracker reports tempos inside it only, so 75 is never heard as 150 with the default 75-150.`,
      Range,
      `\`min\` and \`max\` must be numbers from ${bpmMin} to ${bpmMax}`,
      (b: { min: number; max: number }) => {
        const bad = rangeProblem(b.min, b.max);
        if (bad) throw new ApiError('INVALID_REQUEST', bad);
        return tempo.setRange(b.min, b.max);
      },
    ),
  ];
}
