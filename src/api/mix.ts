// Mixer routes: GET /mix, POST /mix/cue, /mix/take, /mix/position, /mix/transition (program and preview buses,
// transitions, T-bar, the default transition) and GET /transitions (built-ins from assets/transitions plus the `transitions.dirs` folders).
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import { LIMITS } from '../limits.js';
import type { SourceManager } from '../sources/source-manager.js';
import { MAX_DURATION_MS, type Mixer } from '../sources/mixer.js';
import { kindsSelectedBy } from '../sources/kinds/index.js';
import type { IsfDescriptor } from '../shared/isf-types.js';
import type { Modulation } from '../modulation/service.js';
import { modulationFields } from '../modulation/schemas.js';
import { CurrentSourceSchema, idOrNameInvalid, usableIdOrName } from './sources.js';
import { LoadErrorField, withLoadError } from './load-error-field.js';
import type { TransportService } from '../transport/service.js';
import { armTbar, mixModulateRoute } from './mix-modulate.js';

export const TransitionName = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'transition type or name from GET /transitions (flexible matching)',
});
export const DurationMs = Type.Integer({
  minimum: 0,
  maximum: MAX_DURATION_MS,
  description: `transition length in ms, 0 to ${MAX_DURATION_MS}`,
});

export const MixSchema = Type.Object(
  {
    program: CurrentSourceSchema,
    preview: Type.Union([CurrentSourceSchema, Type.Null()], { description: 'the cued source; null when nothing is cued' }),
    position: Type.Number({ minimum: 0, maximum: 1, description: "the transition's progress (auto take or T-bar): 0 program, 1 preview" }),
    transition: Type.Object(
      { type: Type.String(), durationMs: Type.Integer({ minimum: 0, maximum: MAX_DURATION_MS }) },
      { description: 'the transition a take uses when it names none' },
    ),
    inTransition: Type.Boolean({ description: 'true while a take runs or the T-bar rests between its ends' }),
    ...modulationFields,
  },
  { description: 'the mixer' },
);

const CueBody = Type.Intersect([
  Type.Object({
    id: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.selectIdMaxLength, description: 'source id, matched first' })),
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: LIMITS.selectIdMaxLength, description: 'display name, flexible matching when no id matches' }),
    ),
  }),
  usableIdOrName,
]);

const TakeBody = Type.Object(
  {
    transition: Type.Optional(TransitionName),
    durationMs: Type.Optional(DurationMs),
    restart: Type.Optional(
      Type.Boolean({ description: 'true: a media clip cued on preview starts from its in point, playing (other sources as without it)' }),
    ),
  },
  { additionalProperties: false },
);
const PositionBody = Type.Object(
  {
    value: Type.Number({ minimum: 0, maximum: 1, description: 'T-bar position: 0 program, 1 preview (completes the take)' }),
    transition: Type.Optional(TransitionName),
  },
  { additionalProperties: false },
);

const TransitionBody = Type.Object(
  { transition: Type.Optional(TransitionName), durationMs: Type.Optional(DurationMs) },
  { additionalProperties: false },
);

const Answer = Type.Object({ success: Type.Literal(true), mix: MixSchema });

export interface MixDeps {
  mixer: Mixer;
  sources: SourceManager;
  transitions(): readonly IsfDescriptor[];
  /** The compile message of a transition or generator that does not load (GET /catalog/errors), else undefined. */
  loadError?(kind: 'transition' | 'generator', type: string): string | undefined;
  /** The T-bar's modulator and live position (absent: not shown). */
  modulation?: Modulation;
  /** A take's `restart`: the cued clip back to its in point. */
  transport?: Pick<TransportService, 'restartCued'>;
}

export function mixRoutes(d: MixDeps): RouteDef[] {
  const m = d.mixer;
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/mix`,
      auth: 'required',
      operationId: 'getMix',
      summary: 'The mixer: program and preview buses, transition, position',
      tags: ['mix'],
      feature: 'mixer',
      schema: {},
      responses: { 200: { description: 'the mixer', schema: MixSchema } },
      errors: [],
      handler: () => {
        const mod = d.modulation;
        if (!mod) return { json: m.view() };
        const modulator = mod.view.mix;
        return { json: { ...m.view(), modulator, live: modulator ? (mod.live?.mix ?? null) : null } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/mix/cue`,
      auth: 'required',
      operationId: 'cueSource',
      summary: 'Load a source on the preview bus',
      description:
        `Any source (generator, preset, live input, media file); \`id\` and \`name\` match as in POST /sources/select. The answer is sent once the source's first frame is ready (budget ${LIMITS.activationTimeoutMs} ms); the program is never touched. ` +
        'A cued input or file keeps its reader running, so a take shows it on the next frame. 504 ACTIVATION_TIMEOUT: the preview is unchanged. 404 ITEM_NOT_FOUND as for the select routes. ' +
        '500 SOURCE_LOAD_FAILED at once when the generator does not compile (`message` has the `.fs` line); the preview is unchanged. ' +
        "While the T-bar has a modulator (POST /mix/modulate), the cued source then starts the mixer's transition at the held position, so the modulator moves it.",
      tags: ['mix'],
      feature: 'mixer',
      schema: { body: CueBody },
      invalid: idOrNameInvalid,
      responses: { 200: { description: 'the mixer with the source on preview', schema: Answer } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'SOURCE_LOAD_FAILED', 'ACTIVATION_TIMEOUT'],
      handler: async (req) => {
        const started = Date.now();
        const id = usable(req.body.id);
        const name = usable(req.body.name);
        if (id === undefined && name === undefined)
          throw new ApiError(
            'INVALID_REQUEST',
            `send a non-empty \`id\` or \`name\` string of 1 to ${LIMITS.selectIdMaxLength} characters`,
          );
        const entry = d.sources.resolve(kindsSelectedBy('source'), { id, name }, 'source');
        const view = await m.cue(entry, started);
        // A modulated T-bar moves only once the renderer holds the mixer's transition (src/api/mix-modulate.ts). The
        // cue stands either way: a transition that cannot run leaves the T-bar at rest, as before.
        if (!d.modulation?.view.mix) return { json: { success: true, mix: view } };
        await armTbar(m).catch(() => undefined);
        return { json: { success: true, mix: m.view() } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/mix/take`,
      auth: 'required',
      operationId: 'takeMix',
      summary: 'Run the transition from program to preview',
      description:
        "Answers when the transition's first frame is on the output; at its end the buses swap (the old program waits on preview). `transition` and `durationMs` default to the mixer's transition (GET /mix) and become it. " +
        '`cut` swaps on the next frame whatever the duration. 409 NOTHING_CUED when the preview is empty; 404 ITEM_NOT_FOUND for an unknown transition (`details.available` lists the types); ' +
        '500 TRANSITION_LOAD_FAILED at once when the transition does not compile (`message` has the `.fs` line; nothing changed, the mixer keeps its transition). ' +
        '`restart: true` first puts a media clip cued on preview back to its in point, playing (504 ACTIVATION_TIMEOUT when its reader did not get there in time; nothing was taken).',
      tags: ['mix'],
      feature: 'mixer',
      schema: { body: TakeBody },
      responses: { 200: { description: 'the mixer as the transition starts', schema: Answer } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'NOTHING_CUED', 'TRANSITION_LOAD_FAILED', 'CHAIN_BUSY', 'ACTIVATION_TIMEOUT'],
      handler: async (req) => {
        // Before the take: the clip's in point is then the first frame the transition shows of it.
        if (req.body.restart === true) await d.transport?.restartCued();
        return { json: { success: true, mix: await m.take({ transition: req.body.transition, durationMs: req.body.durationMs }) } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/mix/position`,
      auth: 'required',
      operationId: 'setMixPosition',
      summary: 'Move the T-bar',
      description:
        '0 shows the program, 1 the preview, values between show the transition at that progress (held until the next move). Reaching 1 completes the take: the buses swap and the position is 0 again. ' +
        'Answers after the first output frame at the new position. 409 NOTHING_CUED when the preview is empty; 500 TRANSITION_LOAD_FAILED at once when the transition does not compile.',
      tags: ['mix'],
      feature: 'mixer',
      schema: { body: PositionBody },
      responses: { 200: { description: 'the mixer at the new position', schema: Answer } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'NOTHING_CUED', 'TRANSITION_LOAD_FAILED', 'CHAIN_BUSY'],
      handler: async (req) => ({ json: { success: true, mix: await m.setPosition(req.body.value, req.body.transition) } }),
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/mix/transition`,
      auth: 'required',
      operationId: 'setMixTransition',
      summary: "Set the mixer's transition without taking",
      description:
        "Sets what GET /mix calls `transition`: the transition and duration a take (and the control page's scene buttons) use when they name none. Nothing is taken and the picture does not change. Either field may be left out (it keeps its value); an empty body is 400 INVALID_REQUEST. " +
        '404 ITEM_NOT_FOUND for an unknown transition (`details.available` lists the types); 500 TRANSITION_LOAD_FAILED when its shader does not load (nothing changed).',
      tags: ['mix'],
      feature: 'mixer',
      schema: { body: TransitionBody },
      responses: { 200: { description: 'the mixer with its new transition', schema: Answer } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'TRANSITION_LOAD_FAILED'],
      handler: (req) => {
        const { transition, durationMs } = req.body;
        if (transition === undefined && durationMs === undefined)
          throw new ApiError('INVALID_REQUEST', 'send `transition` (a type from GET /transitions), `durationMs`, or both');
        if (transition !== undefined) {
          const type = m.resolveTransition(transition);
          const problem = d.loadError?.('transition', type);
          if (problem !== undefined) throw new ApiError('TRANSITION_LOAD_FAILED', `transition "${type}" does not load: ${problem}`);
        }
        return { json: { success: true, mix: m.setTransition({ transition, durationMs }) } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/transitions`,
      auth: 'required',
      operationId: 'listTransitions',
      summary: 'Installed transitions: built-in cut, fade, dip, wipe and ISF transition files',
      tags: ['mix'],
      feature: 'mixer',
      schema: {},
      responses: {
        200: {
          description: 'the transitions',
          schema: Type.Object({
            count: Type.Integer({ minimum: 0 }),
            items: Type.Array(Type.Object({ type: Type.String(), name: Type.String(), loadError: Type.Optional(LoadErrorField) })),
          }),
        },
      },
      errors: [],
      handler: () => {
        const items = d.transitions().map((t) => withLoadError({ type: t.type, name: t.name }, d.loadError?.('transition', t.type)));
        return { json: { count: items.length, items } };
      },
    }),
    ...(d.modulation ? [mixModulateRoute(m, d.modulation)] : []),
  ];
}

function usable(s: string | undefined): string | undefined {
  return s !== undefined && s.trim() !== '' ? s : undefined;
}
