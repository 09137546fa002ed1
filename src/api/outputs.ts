// Outputs: streams, recordings, a display and a v4l2 camera of the program. List, enable/disable, add and remove; the service does the work.
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { LIMITS, OUTPUT_LIMITS } from '../limits.js';
import type { OutputService } from '../outputs/service.js';
import { API_KINDS, OUTPUT_KINDS } from '../shared/output-kinds/index.js';
import { ENCODER_CHOICES, H264_ENCODERS } from '../shared/output-kinds/encoders.js';
import { STREAM_SCHEMES } from '../shared/url.js';
import { OutputMapSchema } from '../shared/output-map.js';

const CONFIG_ONLY = OUTPUT_KINDS.filter((k) => !API_KINDS.includes(k));

const Nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

/** One of `values` or null; typed by hand, as a union built from a mapped array would have no static type. */
export function nullableOf<T extends string>(values: readonly T[], description: string) {
  return Type.Unsafe<T | null>(Type.Union([...values.map((v) => Type.Literal(v)), Type.Null()], { description }));
}

export const OutputSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  kind: Type.Union(
    OUTPUT_KINDS.map((k) => Type.Literal(k)),
    { description: `${CONFIG_ONLY.map((k) => `\`${k}\``).join(' and ')} come from the config file only` },
  ),
  enabled: Type.Boolean(),
  state: Type.Union(
    [Type.Literal('stopped'), Type.Literal('starting'), Type.Literal('running'), Type.Literal('retrying'), Type.Literal('failed')],
    {
      description:
        '`running` once ffmpeg has taken a second of frames; `retrying` while it waits to restart after an exit; `failed` while the X display or video device is not there (checked again every 5 s), or when the hardware `encoder` asked for cannot run on this box (not retried; `lastError` says why)',
    },
  ),
  target: Nullable(
    'stream: the URL with credentials as `***`; record: the file being (or last) written to the recordings folder, null before the first; display: the X display; v4l2: the device',
  ),
  width: Type.Integer({ description: 'display: the window (the screen unless configured)' }),
  height: Type.Integer(),
  fps: Type.Integer(),
  framesSent: Type.Integer({ description: 'frames written to ffmpeg since the output was started' }),
  framesDropped: Type.Integer({ description: 'frame slots skipped because ffmpeg had not taken the previous frames' }),
  framesRepeated: Type.Integer({ description: 'frames sent again because the render had no newer one for the slot' }),
  restarts: Type.Integer({ description: 'ffmpeg restarts after an exit' }),
  startedAt: Nullable('ISO time the current ffmpeg started'),
  lastError: Nullable(
    'the last ffmpeg error line, URL credentials as `***`, or why the display, device or hardware encoder is missing; null while running cleanly',
  ),
  encoder: nullableOf(ENCODER_CHOICES, 'stream and record: the H.264 encoder asked for (default `auto`); null for display and v4l2'),
  encoderInUse: nullableOf(
    H264_ENCODERS,
    'the ffmpeg encoder the latest start got (`auto`: the first hardware encoder whose one-frame trial worked, else `libx264`); null before it is known and for display and v4l2',
  ),
  map: Type.Union([OutputMapSchema, Type.Null()], { description: 'output mapping (POST /outputs/{id}/map); null: the program as it is' }),
});

const Selector = {
  id: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.selectIdMaxLength, description: 'output id (exact)' })),
  name: Type.Optional(
    Type.String({ minLength: 1, maxLength: LIMITS.selectIdMaxLength, description: 'output name (case-insensitive), when no id is given' }),
  ),
};

const int = (r: { min: number; max: number }, description: string) =>
  Type.Optional(Type.Integer({ minimum: r.min, maximum: r.max, description }));

const AddBody = Type.Object({
  kind: Type.Union(
    API_KINDS.map((k) => Type.Literal(k)),
    { description: API_KINDS.map((k) => `\`${k}\``).join(' or ') },
  ),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'display name; default the id' })),
  url: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: OUTPUT_LIMITS.urlMaxLength,
      pattern: `^(${STREAM_SCHEMES.join('|')})://\\S+$`,
      description: `stream only: scheme one of ${STREAM_SCHEMES.join(', ')}; no whitespace`,
    }),
  ),
  bitrateKbps: int(OUTPUT_LIMITS.bitrateKbps, 'H.264 bitrate; default scales with size and fps (4000 at 1280×720@30)'),
  width: int(OUTPUT_LIMITS.width, 'default the render width'),
  height: int(OUTPUT_LIMITS.height, 'default the render height'),
  fps: int(OUTPUT_LIMITS.fps, 'default the render fps'),
  encoder: Type.Optional(
    Type.Union(
      ENCODER_CHOICES.map((c) => Type.Literal(c)),
      {
        description:
          'H.264 encoder: `auto` (default: the first of h264_nvenc, h264_qsv, h264_vaapi that encodes a trial frame here, else libx264), `x264`, or one hardware encoder (400 when ffmpeg does not have it; `failed` when it cannot run here)',
      },
    ),
  ),
});

const Current = Type.Object({ success: Type.Literal(true), current: OutputSchema });

export function outputRoutes(outputs: OutputService): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/outputs`,
      auth: 'required',
      operationId: 'listOutputs',
      summary: 'Streams and recordings of the program',
      tags: ['outputs'],
      feature: 'outputs',
      schema: {},
      responses: {
        200: {
          description: 'every output, config file ones first',
          schema: Type.Object({ count: Type.Integer(), items: Type.Array(OutputSchema) }),
        },
      },
      errors: [],
      handler: () => {
        const items = outputs.list();
        return { json: { count: items.length, items } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/outputs/enabled`,
      auth: 'required',
      operationId: 'setOutputEnabled',
      summary: 'Start or stop an output',
      description: 'Idempotent. A recording starts a new file at every enable.',
      tags: ['outputs'],
      feature: 'outputs',
      schema: { body: Type.Object({ ...Selector, enabled: Type.Boolean() }) },
      responses: { 200: { description: 'the output after the change', schema: Current } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND'],
      handler: async (req) => ({ json: { success: true, current: await outputs.setEnabled(outputs.find(req.body), req.body.enabled) } }),
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/outputs/add`,
      auth: 'required',
      operationId: 'addOutput',
      summary: 'Add a stream or recording (enabled at once, kept across restarts)',
      description: `At most ${OUTPUT_LIMITS.max} outputs in all. A stream URL must use one of ${STREAM_SCHEMES.join(', ')}; anything else is 400 INVALID_REQUEST naming \`url\`. A record takes no URL: files are named \`<id>-<UTC timestamp>.mkv\` in the recordings folder (\`<dataDir>/recordings/\` unless the config file's \`recordings.dir\` says otherwise). Display and v4l2 outputs are defined in the config file only.`,
      tags: ['outputs'],
      feature: 'outputs',
      schema: { body: AddBody },
      responses: { 200: { description: 'the new output', schema: Current } },
      errors: ['INVALID_REQUEST', 'OUTPUT_LIMIT_REACHED'],
      handler: async (req) => ({ json: { success: true, current: await outputs.add(req.body) } }),
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/outputs/:id/map`,
      paramPatterns: { id: '[A-Za-z0-9_-]{1,64}' },
      auth: 'required',
      operationId: 'setOutputMap',
      summary: "Set an output's map: a slice of the program, a corner-pin or mesh warp, soft edges, a test card",
      description:
        'Applied from the next frame without restarting the output, and kept across restarts; `map: null` shows the program as it is again. Coordinates are shares of the picture, origin top-left. An output whose encoder also feeds other outputs (streams and recordings of the same settings share one) and that gains or loses a picture of its own moves to an encoder of its own: that output alone restarts. A map that cannot be drawn (a slice past the edge, folded corners, a mesh with the wrong point count, corners and a mesh together) is 400 INVALID_REQUEST naming the field.',
      tags: ['outputs'],
      feature: 'outputs',
      schema: {
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        body: Type.Object({ map: Type.Union([OutputMapSchema, Type.Null()]) }, { additionalProperties: false }),
      },
      responses: { 200: { description: 'the output with its new map', schema: Current } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND'],
      handler: async (req) => ({
        json: { success: true, current: await outputs.setMap(outputs.find({ id: req.params.id }), req.body.map) },
      }),
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/outputs/remove`,
      auth: 'required',
      operationId: 'removeOutput',
      summary: 'Remove an added output',
      description: 'Outputs from the config file cannot be removed (409 OUTPUT_CONFIGURED); disable them instead.',
      tags: ['outputs'],
      feature: 'outputs',
      schema: { body: Type.Object(Selector) },
      responses: {
        200: { description: 'the removed output', schema: Type.Object({ success: Type.Literal(true), removed: OutputSchema }) },
      },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'OUTPUT_CONFIGURED'],
      handler: async (req) => ({ json: { success: true, removed: await outputs.remove(outputs.find(req.body)) } }),
    }),
  ];
}
