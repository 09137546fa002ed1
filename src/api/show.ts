// GET /show: the MQTT show link (docs/show.md): this box's place in the show, the broker connection, every box the
// show's state topics describe, the counters of the commands heard, and the scheduled operations (the `show` events
// topic carries this answer whole, so a page or desk needs one read). Without a show, `enabled: false`.
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import type { ShowStats } from '../mqtt/link.js';
import type { Scheduler } from '../schedule/scheduler.js';
import { OperationSchema, RecordSchema } from './schedule.js';

export interface ShowRouteDeps {
  stats(): ShowStats;
}

const count = (description: string) => Type.Integer({ minimum: 0, description });
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description: string) =>
  Type.Union([t, Type.Null()], { description });

const Tempo = Type.Object({ bpm: Type.Number(), source: Type.String(), beatsPerBar: Type.Integer({ minimum: 0 }) });
const Scene = Type.Object({ id: Type.String(), name: Type.String() });
const Source = Type.Object({ kind: Type.String(), id: Type.String(), name: Type.String() });

const Box = Type.Object({
  box: Type.String(),
  groups: Type.Array(Type.String()),
  online: Type.Boolean({ description: 'false once the box stopped (cleanly, or its last will when its connection dropped)' }),
  leader: Type.Boolean(),
  fps: nullable(Type.Number(), 'frames rendered in its last second, as it last said'),
  scene: nullable(Scene, 'the scene it last recalled'),
  source: nullable(Source, 'its program source'),
  tempo: nullable(Tempo, 'its tempo clock'),
  version: nullable(Type.String(), 'its vjd version'),
  lastSeen: Type.String({ format: 'date-time', description: 'when this box last heard its state' }),
});

const Broker = Type.Object(
  {
    url: Type.String({ description: 'show.broker.url without credentials' }),
    connected: Type.Boolean(),
    since: nullable(Type.String({ format: 'date-time' }), 'when `connected` last changed'),
    lastError: nullable(Type.String(), 'the last error, kept after a reconnect (a refused login reads "not authorized …")'),
    reconnects: count('tries to connect again after a loss or a refusal'),
  },
  { description: 'the broker connection' },
);

const ShowBody = Type.Object({
  enabled: Type.Boolean({ description: 'false: no show is configured, the box runs alone' }),
  show: nullable(Type.String(), 'show.name'),
  box: nullable(Type.String(), 'show.box'),
  groups: Type.Array(Type.String(), { description: 'show.groups' }),
  leader: Type.Boolean({ description: 'show.leader' }),
  broker: nullable(Broker, 'null without a show'),
  boxes: Type.Array(Box, { description: "every box heard on the show's state topics, this one included, by name" }),
  counters: Type.Object(
    {
      received: count('command messages heard'),
      applied: count('operations answered with a 2xx'),
      refused: count('operations the route refused (a bad body, a missing item, …)'),
      malformed: count('payloads that are not a command: not JSON, the wrong shape, not POST /api/v1/…'),
      oversized: count('payloads larger than the command limit, dropped unread'),
      unknownRoute: count('operations on a path no route serves'),
      retainedIgnored: count('command messages with the retain flag, never applied'),
      dropped: count('commands over the backlog, dropped unapplied'),
    },
    { description: 'what became of the commands heard' },
  ),
  clock: nullable(
    Type.Object({
      role: Type.Union([Type.Literal('leader'), Type.Literal('member')], {
        description: 'a leader publishes its beat grid; a member locks its tempo clock to the leader’s',
      }),
      following: nullable(Type.String(), 'the box whose grid this member follows'),
      lastAt: nullable(Type.String(), 'when a grid last came in (member) or went out (leader)'),
      count: count('grids taken (member) or sent (leader)'),
      malformed: count('tempo messages that were no valid grid, or came from a second leader'),
      grid: Type.Object(
        { bpm: Type.Number(), refTime: Type.Number(), refBeat: Type.Number(), beatsPerBar: Type.Integer({ minimum: 1 }) },
        { description: "this box's beat grid now: beat(t) = refBeat + (t − refTime) × bpm / 60000, t in epoch ms" },
      ),
    }),
    'the shared beat clock; null without a show',
  ),
  scenes: Type.Record(Type.String(), Type.Union([Type.Object({ id: Type.String() }), Type.Object({ name: Type.String() })]), {
    description:
      'the scene per target (all, a group, a box) the leader keeps retained; a box that connects recalls the one naming it most closely',
  }),
  scheduled: Type.Object(
    { waiting: Type.Array(OperationSchema), recent: Type.Array(RecordSchema) },
    { description: 'GET /show/scheduled without `max`: the operations waiting for their instant and the last ones that ran' },
  ),
});

const NONE = { waiting: [], recent: [] };

export function showRoutes(d: ShowRouteDeps, scheduler: Pick<Scheduler, 'list'> | null = null): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/show`,
      auth: 'required',
      operationId: 'getShow',
      summary: 'The MQTT show link: the broker connection, the boxes of the show and the commands heard',
      description:
        "This box's show, name, groups and role; the broker connection (never its credentials); each box as its retained state says (online, fps, scene, source, tempo); the counters; and the scheduled operations (as GET /show/scheduled lists them). " +
        'Without a show configured, `enabled` is false, `broker` null and the lists empty.',
      tags: ['desks'],
      feature: 'show',
      schema: {},
      responses: { 200: { description: 'the show link', schema: ShowBody } },
      errors: [],
      handler: () => ({ json: { ...d.stats(), scheduled: scheduler?.list() ?? NONE } }),
    }),
  ];
}
