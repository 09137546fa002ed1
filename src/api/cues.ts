// The cue list (docs/cues.md): list, add, edit, move, delete, arm, and GO, back and jump. A cue's operations run
// through the route table as any request does; GET /cues (and the `cues` topic) says where the list stands.
import Type, { type TSchema } from 'typebox';
import type { CueList } from '../cues/list.js';
import type { CueRunner } from '../cues/runner.js';
import { CueFieldsSchema, CueSchema } from '../cues/types.js';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { CUE_LIMITS } from '../limits.js';

export interface CueRouteDeps {
  list: CueList;
  runner: CueRunner;
}

const nullable = (t: typeof CueSchema, description: string) => Type.Union([t, Type.Null()], { description });
const Id = Type.String({ minLength: 1, maxLength: 64, description: 'a cue id, or its name' });
const Index = Type.Integer({ minimum: 0, maximum: CUE_LIMITS.cuesMax, description: '0-based place in the list (past the end: last)' });

const Fired = Type.Object({
  id: Type.String(),
  name: Type.String(),
  by: Type.String({ description: 'go, back, jump, timecode, follow, beats or relocate (a timecode jump)' }),
  at: Type.String({ description: 'ISO instant it fired (for a triggered cue: the instant its operations were held for)' }),
  statuses: Type.Array(Type.Integer(), { description: "each operation's answer status (202: held for the instant)" }),
});

const cuesFields = {
  cues: Type.Array(CueSchema),
  armed: Type.Boolean({ description: 'whether timecode triggers fire (and timecode jumps move the list)' }),
  current: nullable(CueSchema, 'the cue last fired, or the one a timecode jump moved the list to'),
  next: nullable(CueSchema, 'the cue after the current one (the first while none is current)'),
  nextInMs: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: 'when the next cue fires by its trigger, from now; null while it waits for GO (or its trigger cannot be worked out yet)',
  }),
  recent: Type.Array(Fired, { description: `the last ${CUE_LIMITS.recentMax} cues fired, oldest first` }),
  max: Type.Integer({ description: 'cues the list may hold' }),
};
export const CuesBody = Type.Object(cuesFields);

const CueReply = Type.Object({ cue: CueSchema });
const FiredBody = Type.Object({ fired: CueSchema, ...cuesFields });

export function cueRoutes(d: CueRouteDeps): RouteDef[] {
  const state = () => ({ cues: d.list.list, max: CUE_LIMITS.cuesMax, ...d.runner.view() });
  const changed = <T>(v: T): T => {
    d.runner.changed();
    return v;
  };
  const post = (
    name: string,
    operationId: string,
    summary: string,
    body: Parameters<typeof Type.Object>[0],
    reply: TSchema,
    errors: RouteDef['errors'],
    handler: (b: Record<string, unknown>) => unknown,
    description?: string,
  ): RouteDef =>
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/cues/${name}`,
      auth: 'required',
      operationId,
      summary,
      ...(description ? { description } : {}),
      tags: ['cues'],
      feature: 'cues',
      ...(Object.keys(body).length === 0 ? { emptyBody: true } : {}),
      schema: { body: Type.Object(body, { additionalProperties: false }) },
      responses: { 200: { description: 'done', schema: reply } },
      errors: ['INVALID_REQUEST', ...errors],
      handler: async (req) => ({ json: await handler(req.body as Record<string, unknown>) }),
    });
  const fired = async (cue: Promise<unknown>) => ({ fired: await cue, ...state() });
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/cues`,
      auth: 'required',
      operationId: 'listCues',
      summary: 'The cue list and where it stands',
      tags: ['cues'],
      feature: 'cues',
      schema: {},
      responses: { 200: { description: 'the cue list', schema: CuesBody } },
      errors: [],
      handler: () => ({ json: state() }),
    }),
    post(
      'add',
      'addCue',
      'Add a cue',
      {
        name: CueFieldsSchema.name,
        trigger: Type.Optional(CueFieldsSchema.trigger),
        actions: Type.Optional(CueFieldsSchema.actions),
        fireOnJump: Type.Optional(CueFieldsSchema.fireOnJump),
        index: Type.Optional(Index),
      },
      CueReply,
      ['CUE_LIMIT_REACHED'],
      (b) =>
        changed({
          cue: d.list.add(
            {
              name: String(b.name),
              trigger: (b.trigger as never) ?? { kind: 'manual' },
              actions: (b.actions as never) ?? [],
              fireOnJump: b.fireOnJump === true,
            },
            b.index as number | undefined,
          ),
        }),
      `Each operation must be a POST route below /api/v1 (not /cues); its body is checked by that route when the cue fires. At ${CUE_LIMITS.cuesMax} cues: 403 CUE_LIMIT_REACHED.`,
    ),
    post(
      'edit',
      'editCue',
      'Change a cue',
      {
        id: Id,
        name: Type.Optional(CueFieldsSchema.name),
        trigger: Type.Optional(CueFieldsSchema.trigger),
        actions: Type.Optional(CueFieldsSchema.actions),
        fireOnJump: Type.Optional(CueFieldsSchema.fireOnJump),
      },
      CueReply,
      ['ITEM_NOT_FOUND'],
      ({ id, ...change }) => changed({ cue: d.list.edit(String(id), change) }),
    ),
    post('move', 'moveCue', 'Move a cue to another place in the list', { id: Id, index: Index }, CueReply, ['ITEM_NOT_FOUND'], (b) =>
      changed({ cue: d.list.move(String(b.id), b.index as number) }),
    ),
    post('delete', 'deleteCue', 'Delete a cue', { id: Id }, Type.Object({ deleted: CueSchema }), ['ITEM_NOT_FOUND'], (b) =>
      changed({ deleted: d.list.remove(String(b.id)) }),
    ),
    post('arm', 'armCues', 'Arm or disarm the timecode triggers', { armed: Type.Boolean() }, CuesBody, [], (b) => {
      d.list.arm(b.armed === true);
      d.runner.changed();
      return state();
    }),
    post(
      'go',
      'goCue',
      'GO: fire the next cue now',
      {},
      FiredBody,
      ['CUE_LIST_END'],
      () => fired(d.runner.go()),
      'Fires the cue after the current one (the first when none is current) whatever its trigger, and makes it current. At the end: 409 CUE_LIST_END.',
    ),
    post('back', 'backCue', 'Back: fire the cue before the current one', {}, FiredBody, ['CUE_LIST_END'], () => fired(d.runner.back())),
    post('jump', 'jumpCue', 'Fire a cue by id or name and make it current', { id: Id }, FiredBody, ['ITEM_NOT_FOUND'], (b) =>
      fired(d.runner.jump(String(b.id))),
    ),
  ];
}
