// Audio routes: the inputs with the current one and its state, selecting one (or none), the analysis levels, and
// the gain and latency offset settings.
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import { LIMITS, TEMPO_LIMITS } from '../limits.js';
import type { AudioService } from '../audio/service.js';
import { idOrNameInvalid, usableIdOrName } from './sources.js';
import { AudioInputKindSchema, audioInputRoutes } from './audio-inputs.js';

const Unit = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const AudioLevelsSchema = Type.Object(
  {
    level: Unit('RMS level of the latest hop under the gain'),
    bass: Unit('20-250 Hz'),
    lowMid: Unit('250-2000 Hz'),
    highMid: Unit('2000-6000 Hz'),
    high: Unit('6000-20000 Hz'),
    onset: Unit("1 on an onset's hop, decaying over the next hops"),
    onsets: Type.Integer({ minimum: 0, description: 'onsets detected since start' }),
    hops: Type.Integer({ minimum: 0, description: 'hops analysed since start' }),
    hopMs: Type.Number({ minimum: 0, description: 'analysis time of one hop of 512 samples in the audio worker (ms, smoothed)' }),
  },
  { description: 'the latest analysis values; all 0 while no input delivers samples' },
);

const AudioState = Type.Union([Type.Literal('stopped'), Type.Literal('starting'), Type.Literal('running'), Type.Literal('retrying')], {
  description: '`retrying`: the input failed and is retried with backoff (levels read 0 meanwhile)',
});

const AudioBody = Type.Object({
  inputs: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      kind: AudioInputKindSchema,
      device: Type.Optional(Type.String({ description: 'the ALSA PCM or PulseAudio source (device kinds only)' })),
      available: Type.Boolean({
        description:
          'true while the input can be opened: always for `test`, `stream`, `file` and `program`; a discovered device is listed only while present; a device pinned in the config is listed always and available while present',
      }),
    }),
  ),
  current: Type.Union([Type.String(), Type.Null()], { description: 'the selected input id; null when none' }),
  state: AudioState,
  message: Type.Union([Type.String(), Type.Null()], { description: 'why the input is retrying (the ffmpeg error); null otherwise' }),
  restarts: Type.Integer({
    minimum: 0,
    description: 'ffmpeg restarts of the current input since it was selected (retries after failures and stalls)',
  }),
  levels: AudioLevelsSchema,
  gain: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()], { description: 'a fixed analysis gain; null: automatic' }),
  offsetMs: Type.Number({ description: 'latency offset: frames use the analysis and beat of their due instant plus this' }),
});

const Gain = Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 1000 }), Type.Null()], {
  description: 'a fixed gain above 0 and at most 1000, or null for the automatic gain',
});
const Offset = Type.Number({
  minimum: -TEMPO_LIMITS.offsetMaxMs,
  maximum: TEMPO_LIMITS.offsetMaxMs,
  description: `milliseconds from -${TEMPO_LIMITS.offsetMaxMs} to ${TEMPO_LIMITS.offsetMaxMs}`,
});
const SettingsBody = Type.Object({ gain: Gain, offsetMs: Offset });

export function audioRoutes(audio: AudioService): RouteDef[] {
  const common = { auth: 'required' as const, tags: ['audio'], feature: 'audio' };
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: `${API_PREFIX}/audio`,
      operationId: 'getAudio',
      summary: 'Audio inputs, the current one with its state, and the levels',
      schema: {},
      responses: { 200: { description: 'audio inputs and analysis', schema: AudioBody } },
      errors: [],
      handler: () => {
        const s = audio.status();
        return {
          json: {
            inputs: audio.list(),
            current: s.input,
            state: s.state,
            message: s.message,
            restarts: s.restarts,
            levels: audio.levels(),
            ...audio.settings(),
          },
        };
      },
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: `${API_PREFIX}/audio/select`,
      operationId: 'selectAudio',
      summary: 'Select the audio input by id or name; "none" detaches it',
      description: `\`id\` is matched exactly first, then like a name; \`name\` uses flexible matching. \`"none"\` detaches the input (levels read 0). One of them is required, each 1-${LIMITS.selectIdMaxLength} characters. The choice is saved and survives a restart. 404 ITEM_NOT_FOUND has \`details {requested, kind, available}\`.`,
      schema: {
        body: Type.Intersect([
          Type.Object({
            id: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.selectIdMaxLength, description: 'audio input id, or "none"' })),
            name: Type.Optional(
              Type.String({ minLength: 1, maxLength: LIMITS.selectIdMaxLength, description: 'audio input name, flexible matching' }),
            ),
          }),
          usableIdOrName,
        ]),
      },
      invalid: idOrNameInvalid,
      responses: {
        200: {
          description: 'the input now selected (its ffmpeg is starting: GET /audio reports `running` once samples arrive)',
          schema: Type.Object({ success: Type.Literal(true), current: Type.Union([Type.String(), Type.Null()]) }),
        },
      },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND'],
      handler: async (req) => {
        const id = req.body.id?.trim() ? req.body.id : undefined;
        const name = req.body.name?.trim() ? req.body.name : undefined;
        if (id === undefined && name === undefined)
          throw new ApiError(
            'INVALID_REQUEST',
            `send a non-empty \`id\` or \`name\` string of 1 to ${LIMITS.selectIdMaxLength} characters`,
          );
        const input = audio.resolve({ id, name });
        await audio.select(input);
        return { json: { success: true, current: input?.id ?? null } };
      },
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: `${API_PREFIX}/audio/settings`,
      operationId: 'setAudioSettings',
      summary: 'Set the analysis gain and the latency offset',
      description: `Both fields are optional; the ones sent apply at once and are saved (they win over the config after a restart). \`gain\`: a number above 0 and at most 1000 replaces the automatic gain; null returns to it. \`offsetMs\` (-${TEMPO_LIMITS.offsetMaxMs}..${TEMPO_LIMITS.offsetMaxMs}): each frame uses the analysis values and beat position of its due instant plus this, to make up for output and projector latency.`,
      schema: { body: Type.Object({ gain: Type.Optional(Gain), offsetMs: Type.Optional(Offset) }) },
      invalid: (_where, problem) =>
        new ApiError(
          'INVALID_REQUEST',
          `\`gain\` must be null or a number above 0 and at most 1000; \`offsetMs\` a number from -${TEMPO_LIMITS.offsetMaxMs} to ${TEMPO_LIMITS.offsetMaxMs} (${problem})`,
        ),
      responses: { 200: { description: 'the settings now in force', schema: SettingsBody } },
      errors: ['INVALID_REQUEST', 'AUDIO_BUSY'],
      handler: async (req) => ({ json: await audio.setSettings(req.body) }),
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: `${API_PREFIX}/audio/levels`,
      operationId: 'getAudioLevels',
      summary: 'The latest audio analysis values (levels, bands, onset)',
      description: 'Read from the block the audio worker writes every hop; cheap to poll at any rate.',
      schema: {},
      responses: { 200: { description: 'levels', schema: AudioLevelsSchema } },
      errors: [],
      handler: () => ({ json: audio.levels() }),
    }),
    ...audioInputRoutes(audio),
  ];
}
