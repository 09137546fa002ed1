// Source routes: the source list, the current source, and the three select routes (live input, media file, any source).
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import { LIMITS } from '../limits.js';
import type { SourceManager } from '../sources/source-manager.js';
import { kindsSelectedBy, type Selector } from '../sources/kinds/index.js';
import { MAX_DURATION_MS, type Mixer, type Transition } from '../sources/mixer.js';
import { LoadErrorField, withLoadError } from './load-error-field.js';
import type { TransportService } from '../transport/service.js';

const Text = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.selectIdMaxLength, description }));

export const CurrentSourceSchema = Type.Object(
  {
    id: Type.String({ description: 'device id, media file id, `source:<type>` or `preset:<name>`; "" when nothing is selected yet' }),
    name: Type.String({ description: 'display name; "" when nothing is selected yet' }),
    sourceKind: Type.String({ description: '`live`, `file`, `generator`, `preset`, or `none` before the first selection' }),
    type: Type.String({ description: '`live`, `video`, `image`, `generator`, or `none` before the first selection' }),
  },
  { description: 'the current source' },
);

const Selected = Type.Object({ success: Type.Literal(true), current: CurrentSourceSchema });

/** One of `id` or `name` must say something (not only whitespace); a blank one counts as absent. */
export const usableIdOrName = Type.Union([
  Type.Object({ id: Type.String({ pattern: '\\S' }) }, { description: 'a usable id' }),
  Type.Object({ name: Type.String({ pattern: '\\S' }) }, { description: 'a usable name' }),
]);

/** `{}` or only blank fields: the message says what to send. */
export const idOrNameInvalid = (_where: string, problem: string): ApiError =>
  new ApiError(
    'INVALID_REQUEST',
    problem.startsWith('body must have required')
      ? `send a non-empty \`id\` or \`name\` string of 1 to ${LIMITS.selectIdMaxLength} characters`
      : problem,
  );

const SelectBody = Type.Intersect([
  Type.Object({
    id: Text('id, matched first (exactly, then case-insensitively)'),
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: LIMITS.selectIdMaxLength, description: 'display name, flexible matching when no id matches' }),
    ),
    transition: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'transition type or name (GET /transitions); default: config `mix.transition` (`cut`)',
      }),
    ),
    durationMs: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_DURATION_MS,
        description: `transition length, 0 to ${MAX_DURATION_MS} ms; default: config \`mix.durationMs\` (0)`,
      }),
    ),
  }),
  usableIdOrName,
]);

/** The select routes that can pick a media clip also take where it starts. */
const ClipSelectBody = Type.Intersect([
  SelectBody,
  Type.Object({
    positionS: Type.Optional(
      Type.Number({
        minimum: 0,
        description:
          "a media video starts at this position (s, inside its in-out range; 400 names the range); 409 NOT_A_CLIP for any other source. Absent: as before (a clip's reader goes on where it is, a new one starts at the in point)",
      }),
    ),
  }),
]);

// CHAIN_BUSY only with a transition: the renderer did not take the mix command in time (nothing changed).
// SOURCE_LOAD_FAILED and TRANSITION_LOAD_FAILED: the generator's or the transition's shader does not compile (at once).
const SELECT_ERRORS = [
  'INVALID_REQUEST',
  'ITEM_NOT_FOUND',
  'SOURCE_LOAD_FAILED',
  'TRANSITION_LOAD_FAILED',
  'ACTIVATION_TIMEOUT',
  'CHAIN_BUSY',
] as const;

/** The mixer the select routes run transitions through, and config `mix` (their default transition). */
export interface SelectMix {
  mixer: Mixer;
  defaults(): Transition;
}

type SelectRequest = {
  body: {
    id?: string | undefined;
    name?: string | undefined;
    transition?: string | undefined;
    durationMs?: number | undefined;
    positionS?: number | undefined;
  };
};

/** `loadError` of a listed generator type (GET /catalog/errors), else undefined. */
type GeneratorLoadError = (kind: 'generator', type: string) => string | undefined;

export function sourcesRoutes(
  m: SourceManager,
  mix: SelectMix,
  loadError?: GeneratorLoadError,
  clips?: Pick<TransportService, 'selectAt'>,
): RouteDef[] {
  // The route's selector names the kinds it takes and is the `kind` of its 404.
  const select = (by: Exclude<Selector, 'first-run'>) => async (req: SelectRequest) => {
    const started = Date.now();
    const id = usable(req.body.id);
    const name = usable(req.body.name);
    if (id === undefined && name === undefined)
      throw new ApiError('INVALID_REQUEST', `send a non-empty \`id\` or \`name\` string of 1 to ${LIMITS.selectIdMaxLength} characters`);
    const entry = m.resolve(kindsSelectedBy(by), { id, name }, by);
    const def = mix.defaults();
    const type = req.body.transition !== undefined ? mix.mixer.resolveTransition(req.body.transition) : def.type;
    // A transition named without a length lasts config `mix.durationMs`, or 1000 ms where that is 0 (a cut default).
    const durationMs = req.body.durationMs ?? (req.body.transition !== undefined && def.durationMs === 0 ? 1000 : def.durationMs);
    await mix.mixer.endTransition();
    // A cut keeps the plain switch (answer after the first frame, preview bus untouched); others go through the mixer.
    const run = () =>
      type === 'cut' || durationMs === 0 ? m.select(entry, started) : mix.mixer.selectWith(entry, { type, durationMs }, started);
    const at = req.body.positionS;
    const current = at !== undefined && clips ? await clips.selectAt(entry, at, run) : await run();
    return { json: { success: true, current } };
  };
  const activation =
    `The answer is sent after the new source drew its first frame to the output (budget ${LIMITS.activationTimeoutMs} ms). On 504 ACTIVATION_TIMEOUT the previous ` +
    'source keeps driving the output; `details` has `requested`, `kind`, `reason` (expired | superseded | failed) and `timeoutMs`. ' +
    'A generator or preset whose shader does not compile answers 500 SOURCE_LOAD_FAILED at once, the compile message with the `.fs` line in `message` (its list item has `loadError`); a transition that does not compile answers 500 TRANSITION_LOAD_FAILED. ' +
    'Selecting the current item answers 200 at once without interrupting it. A mixer transition still running (or a T-bar between its ends) is ended at the program end first, so the selected source stays on program. 404 ITEM_NOT_FOUND has `details {requested, kind, available}` (at most 50 ids). ' +
    'Optional `transition` and `durationMs` (default: config `mix`, `cut`/0; a transition without `durationMs` lasts `mix.durationMs`, or 1000 ms where that is 0) blend into the new source through the mixer: it is cued on preview and taken, and the answer is sent after the first output frame the new source takes part in; ' +
    'an unknown transition is 404 ITEM_NOT_FOUND (`details.kind` `transition`).';
  const startsAt =
    'Optional `positionS`: a media video starts there (a reader already open is sought first, so the switch shows that position; 400 INVALID_REQUEST outside its in-out range, 409 NOT_A_CLIP for another kind of source).';
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/sources`,
      auth: 'required',
      operationId: 'listSources',
      summary: 'Every selectable source: generators, presets, live inputs, media files (in that order)',
      tags: ['sources'],
      feature: 'sources',
      schema: {},
      responses: {
        200: {
          description: 'the sources; `active` marks the current one',
          schema: Type.Object({
            count: Type.Integer({ minimum: 0 }),
            items: Type.Array(
              Type.Object({
                id: Type.String(),
                name: Type.String(),
                sourceKind: Type.String(),
                type: Type.String(),
                active: Type.Boolean(),
                loadError: Type.Optional(LoadErrorField),
              }),
            ),
          }),
        },
      },
      errors: [],
      handler: () => {
        const cur = m.currentSource();
        const items = m.list().map((e) =>
          withLoadError(
            {
              id: e.id,
              name: e.name,
              sourceKind: e.sourceKind,
              type: e.type,
              active: e.id === cur.id && e.sourceKind === cur.sourceKind,
            },
            e.spec.kind === 'generator' ? loadError?.('generator', e.spec.type) : undefined,
          ),
        );
        return { json: { count: items.length, items } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/sources/current`,
      auth: 'required',
      operationId: 'getCurrentSource',
      summary: 'The current source',
      description: 'Before anything was ever selected the answer is 200 with `id` and `name` "" and `sourceKind`/`type` `none`.',
      tags: ['sources'],
      feature: 'sources',
      schema: {},
      responses: { 200: { description: 'the current source', schema: CurrentSourceSchema } },
      errors: [],
      handler: () => ({ json: m.currentSource() }),
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/sources/select`,
      auth: 'required',
      operationId: 'selectSource',
      summary: 'Select any source by id or name',
      description: `\`id\` matches any source id exactly first; \`name\` uses flexible matching over generators, presets, live inputs, then files (the first match wins). ${activation} ${startsAt}`,
      tags: ['sources'],
      feature: 'sources',
      schema: { body: ClipSelectBody },
      invalid: idOrNameInvalid,
      responses: { 200: { description: 'the new current source', schema: Selected } },
      errors: [...SELECT_ERRORS, 'NOT_A_CLIP'],
      handler: select('source'),
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/inputs/live/select`,
      auth: 'required',
      operationId: 'selectLiveInput',
      summary: 'Make a live input the current source',
      description: `\`id\` is a device id or a browse node id \`liveInput:<id>\`. ${activation}`,
      tags: ['sources'],
      feature: 'live-inputs',
      schema: { body: SelectBody },
      invalid: idOrNameInvalid,
      responses: { 200: { description: 'the new current source', schema: Selected } },
      errors: [...SELECT_ERRORS],
      handler: select('live'),
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/inputs/file/select`,
      auth: 'required',
      operationId: 'selectFileInput',
      summary: 'Make a media file the current source',
      description: `\`id\` is a media file id from browse. Videos loop; stills stay. ${activation} ${startsAt}`,
      tags: ['sources'],
      feature: 'media-files',
      schema: { body: ClipSelectBody },
      invalid: idOrNameInvalid,
      responses: { 200: { description: 'the new current source', schema: Selected } },
      errors: [...SELECT_ERRORS, 'NOT_A_CLIP'],
      handler: select('file'),
    }),
  ];
}

/** A string that still says something after trimming, else undefined. */
function usable(s: string | undefined): string | undefined {
  return s !== undefined && s.trim() !== '' ? s : undefined;
}
