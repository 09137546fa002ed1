// A cue of the cue list (docs/cues.md): a name, what fires it, and the operations it runs. The schemas check a cue
// as a request sends it and as state.json holds it, so a hand-edited file loads only the cues a request could make.
import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { CUE_LIMITS } from '../limits.js';

const Timecode = Type.String({ pattern: '^\\d{2}:\\d{2}:\\d{2}[:;.]\\d{2}$', description: 'a timecode "HH:MM:SS:FF"' });

export const TriggerSchema = Type.Union(
  [
    Type.Object({ kind: Type.Literal('manual') }, { additionalProperties: false }),
    Type.Object({ kind: Type.Literal('timecode'), at: Timecode }, { additionalProperties: false }),
    Type.Object(
      {
        kind: Type.Literal('follow'),
        delayMs: Type.Integer({ minimum: 0, maximum: CUE_LIMITS.followMaxMs, description: 'after the previous cue fired' }),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        kind: Type.Literal('beats'),
        count: Type.Integer({ minimum: 1, maximum: CUE_LIMITS.beatsMax }),
        unit: Type.Union([Type.Literal('beat'), Type.Literal('bar')]),
      },
      { additionalProperties: false, description: 'on the count-th beat or bar line of the tempo clock after the previous cue fired' },
    ),
  ],
  {
    description:
      'what fires the cue: {kind: "manual"} (GO), {kind: "timecode", at: "HH:MM:SS:FF"}, {kind: "follow", delayMs} or {kind: "beats", count, unit: "beat" | "bar"}',
  },
);

const Scalar = Type.Union([Type.String({ maxLength: 1024 }), Type.Number(), Type.Boolean(), Type.Null()]);
/** A body field: a scalar, a list of scalars, or an object of scalars and lists (what route bodies hold). */
const JsonValue = Type.Union([
  Scalar,
  Type.Array(Scalar, { maxItems: 64 }),
  Type.Record(Type.String(), Type.Union([Scalar, Type.Array(Scalar, { maxItems: 64 })])),
]);

export const ActionSchema = Type.Object(
  {
    op: Type.String({
      minLength: 2,
      maxLength: 200,
      pattern: '^/[A-Za-z0-9_./:-]*$',
      description: 'the path of a POST route below /api/v1, such as "/scenes/recall" (not a /cues route)',
    }),
    body: Type.Optional(Type.Record(Type.String(), JsonValue, { description: "the route's JSON body (two levels deep at most)" })),
  },
  { additionalProperties: false, description: 'an operation {op, body?}: POST /api/v1<op> with the body' },
);

export const CueFieldsSchema = {
  name: Type.String({ minLength: 1, maxLength: CUE_LIMITS.nameMax, description: `a name of 1 to ${CUE_LIMITS.nameMax} characters` }),
  trigger: TriggerSchema,
  actions: Type.Array(ActionSchema, {
    maxItems: CUE_LIMITS.actionsMax,
    description: `at most ${CUE_LIMITS.actionsMax} operations, run in order`,
  }),
  fireOnJump: Type.Boolean({
    description: 'a timecode jump past this cue (or onto it) fires it; otherwise a jump only moves the list',
  }),
};

export const CueSchema = Type.Object(
  { id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }), ...CueFieldsSchema },
  { additionalProperties: false },
);

export type Trigger = Static<typeof TriggerSchema>;
export type CueAction = Static<typeof ActionSchema>;
export type Cue = Static<typeof CueSchema>;

/** What fired a cue: GO, back, jump, its own trigger, or a timecode jump (relocate). */
export type FiredBy = 'go' | 'back' | 'jump' | 'timecode' | 'follow' | 'beats' | 'relocate';

export interface CuesSaved {
  armed: boolean;
  list: Cue[];
}

const checkCue = Compile(CueSchema);

/** The saved cues whose shape is right (at most the limit); null when the part is not there. */
export function sanitizeCues(v: unknown): CuesSaved | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const p = v as Partial<CuesSaved>;
  const list = Array.isArray(p.list) ? p.list.filter((c) => checkCue.Check(c)).slice(0, CUE_LIMITS.cuesMax) : [];
  return { armed: p.armed !== false, list };
}
