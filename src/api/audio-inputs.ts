// Audio inputs managed live: the list of every input (config file, added, discovered) with what it reads and where
// it comes from, and add, edit and remove of the added ones, applied without a restart and kept in the data dir.
import Type from 'typebox';
import { ADDED_KINDS, ID_PATTERN } from '../audio/added-inputs.js';
import type { AudioService } from '../audio/service.js';
import { ApiError } from '../errors.js';
import { API_PREFIX, defineRoute, type RouteDef } from '../http/route.js';
import { AUDIO_LIMITS } from '../limits.js';
import { INPUT_SCHEMES } from '../shared/url.js';

export const AUDIO_INPUT_KINDS = ['test', 'stream', 'file', 'program', 'alsa', 'pulse'] as const;

export const AudioInputKindSchema = Type.Union(
  AUDIO_INPUT_KINDS.map((k) => Type.Literal(k)),
  {
    description:
      "`test`: a generated ffmpeg lavfi audio source (config file only); `stream`: a URL; `file`: a media library file, looped; `program`: the program source's audio track; `alsa`, `pulse`: a capture device",
  },
);

const Item = Type.Object({
  id: Type.String(),
  name: Type.String(),
  kind: AudioInputKindSchema,
  target: Type.Union([Type.String(), Type.Null()], {
    description:
      'what it reads: the URL (credentials as `***`), the library file as it was named, the device, or the lavfi source; null for `program`',
  }),
  origin: Type.Union([Type.Literal('config'), Type.Literal('added'), Type.Literal('discovered')], {
    description:
      '`config`: config file audio.inputs; `added`: POST /audio/inputs/add (editable, removable); `discovered`: a capture device on this box',
  }),
  available: Type.Boolean({ description: 'false while a named capture device is not there' }),
  selected: Type.Boolean({ description: 'true on the input the audio worker has open' }),
});

const kindList = ADDED_KINDS.map((k) => `"${k}"`).join(', ');
const fields = {
  name: Type.String({ minLength: 1, maxLength: AUDIO_LIMITS.nameMaxLength, description: 'display name; default from what it reads' }),
  url: Type.String({
    minLength: 1,
    maxLength: AUDIO_LIMITS.urlMaxLength,
    description: `kind stream: a URL with scheme ${INPUT_SCHEMES.join(', ')}; no spaces, never option text`,
  }),
  file: Type.String({
    minLength: 1,
    maxLength: AUDIO_LIMITS.fileMaxLength,
    description:
      'kind file: a media id from GET /browse (`media-…`), or a path inside a media root (`loops/tone.wav`); never an absolute path or `..`',
  }),
  device: Type.String({
    minLength: 1,
    maxLength: AUDIO_LIMITS.deviceMaxLength,
    description: 'kinds alsa and pulse: the capture device (GET /audio/inputs lists the ones found on this box)',
  }),
};
const Kind = Type.Union(
  ADDED_KINDS.map((k) => Type.Literal(k)),
  { description: `${kindList}; "test" inputs come from the config file only` },
);
const Id = Type.String({
  minLength: 1,
  maxLength: AUDIO_LIMITS.idMaxLength,
  pattern: ID_PATTERN,
  description: `1 to ${AUDIO_LIMITS.idMaxLength} characters from A-Z a-z 0-9 _ -`,
});
const opt = Type.Optional;

/** INVALID_REQUEST with `details.field`, so a form can show the refusal next to the field. */
const invalid = (_where: string, problem: string): ApiError => {
  const field = /^body\.([A-Za-z]+)/.exec(problem)?.[1];
  return new ApiError('INVALID_REQUEST', problem, field ? { field } : undefined);
};

const ok = Type.Literal(true);

const Field = Type.Object(
  { field: Type.String({ description: 'the body field refused: `id`, `name`, `kind`, `url`, `file` or `device`' }) },
  { additionalProperties: false, description: 'the field the refusal is about (absent when the body itself is malformed)' },
);
const FIELD_DETAILS = {
  INVALID_REQUEST: Field,
  AUDIO_INPUT_EXISTS: Field,
  AUDIO_INPUT_CONFIGURED: Type.Object(
    {
      field: Type.Literal('id'),
      origin: Type.Union([Type.Literal('config'), Type.Literal('discovered')], { description: 'where that input comes from' }),
    },
    { additionalProperties: false },
  ),
};

export function audioInputRoutes(audio: AudioService): RouteDef[] {
  const common = { auth: 'required' as const, tags: ['audio'], feature: 'audio' };
  const post = { ...common, method: 'POST' as const, invalid, errorDetails: FIELD_DETAILS };
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: `${API_PREFIX}/audio/inputs`,
      operationId: 'listAudioInputs',
      summary: 'Every audio input: config file, added and discovered, with what it reads',
      schema: {},
      responses: {
        200: {
          description: 'config file inputs first, then added ones, then discovered devices',
          schema: Type.Object({
            count: Type.Integer(),
            current: Type.Union([Type.String(), Type.Null()], { description: 'the selected input id; null when none' }),
            items: Type.Array(Item),
          }),
        },
      },
      errors: [],
      handler: () => {
        const items = audio.items();
        return { json: { count: items.length, current: audio.current(), items } };
      },
    }),
    defineRoute({
      ...post,
      path: `${API_PREFIX}/audio/inputs/add`,
      operationId: 'addAudioInput',
      summary: 'Add an audio input (a stream URL, a library file, a capture device, the program); no restart',
      description: `Kept in \`<dataDir>/audio-inputs.json\` across restarts; POST /audio/select opens it at once. \`url\` (kind stream) must use one of ${INPUT_SCHEMES.join(', ')}; \`file\` must name a file of the media library (a media id from GET /browse or a path inside a media root); \`device\` must be a capture device name. Anything else is 400 INVALID_REQUEST with \`details.field\`. \`id\` defaults to one made from the name; an id another input has is 409 AUDIO_INPUT_EXISTS. At most ${AUDIO_LIMITS.addedMax} added inputs.`,
      schema: {
        body: Type.Object(
          { id: opt(Id), name: opt(fields.name), kind: Kind, url: opt(fields.url), file: opt(fields.file), device: opt(fields.device) },
          { additionalProperties: false },
        ),
      },
      responses: { 200: { description: 'the new input', schema: Type.Object({ success: ok, input: Item }) } },
      errors: ['INVALID_REQUEST', 'AUDIO_INPUT_EXISTS', 'AUDIO_INPUT_LIMIT_REACHED'],
      handler: async (req) => ({ json: { success: true, input: await audio.add(req.body) } }),
    }),
    defineRoute({
      ...post,
      path: `${API_PREFIX}/audio/inputs/edit`,
      operationId: 'editAudioInput',
      summary: 'Change an added audio input; the selected one restarts its reader',
      description:
        "The fields sent replace the input's; a new `kind` needs its own target field. Checked like an add. An input from the config file or a discovered device is 409 AUDIO_INPUT_CONFIGURED (change the config file instead); an unknown id is 404 ITEM_NOT_FOUND.",
      schema: {
        body: Type.Object(
          { id: Id, name: opt(fields.name), kind: opt(Kind), url: opt(fields.url), file: opt(fields.file), device: opt(fields.device) },
          { additionalProperties: false },
        ),
      },
      responses: {
        200: {
          description: 'the input after the change',
          schema: Type.Object({
            success: ok,
            input: Item,
            restarted: Type.Boolean({ description: 'true when it was selected and what it reads changed: its reader restarted' }),
          }),
        },
      },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'AUDIO_INPUT_CONFIGURED'],
      handler: async (req) => ({ json: { success: true, ...(await audio.edit(req.body)) } }),
    }),
    defineRoute({
      ...post,
      path: `${API_PREFIX}/audio/inputs/remove`,
      operationId: 'removeAudioInput',
      summary: 'Remove an added audio input; the selected one is detached first',
      description:
        'Removing the selected input detaches it: the selection becomes none (`detached: true`, levels read 0). Config file inputs and discovered devices are 409 AUDIO_INPUT_CONFIGURED; an unknown id is 404 ITEM_NOT_FOUND.',
      schema: { body: Type.Object({ id: Id }, { additionalProperties: false }) },
      responses: {
        200: {
          description: 'the removed input',
          schema: Type.Object({
            success: ok,
            removed: Item,
            detached: Type.Boolean({ description: 'true when it was selected: no audio input is selected now' }),
          }),
        },
      },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'AUDIO_INPUT_CONFIGURED'],
      handler: async (req) => ({ json: { success: true, ...(await audio.remove(req.body.id)) } }),
    }),
  ];
}
