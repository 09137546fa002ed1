// Scheduled operations (`at` on any POST, docs/scheduling.md): the waiting ones with the record of the last ones that
// ran, and cancel.
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { SCHEDULE_LIMITS } from '../limits.js';
import type { Scheduler } from '../schedule/scheduler.js';

const Requested = Type.Union([Type.String(), Type.Object({ beat: Type.Number() })], { description: '`at` as sent' });

const Operation = {
  id: Type.String(),
  op: Type.String({ description: '`POST <path>`' }),
  at: Type.String({ description: 'ISO instant it resolved to (wall clock)' }),
  requested: Requested,
  beat: Type.Optional(Type.Number({ description: 'the beat number, for the beat forms' })),
  transport: Type.String({ description: 'what carried it: http, events, osc, mqtt, dispatch' }),
};

/** A waiting operation (also in GET /show's `scheduled`). */
export const OperationSchema = Type.Object(Operation);

/** An operation that ran (also in GET /show's `scheduled`). */
export const RecordSchema = Type.Object({
  ...Operation,
  state: Type.Union([Type.Literal('running'), Type.Literal('applied'), Type.Literal('failed')]),
  status: Type.Union([Type.Integer(), Type.Null()], { description: "the operation's own answer status" }),
  error: Type.Optional(Type.String({ description: 'why it failed: its error code, or the missing frame report' })),
  appliedFrame: Type.Union([Type.Integer(), Type.Null()], { description: 'the output frame number that applied it' }),
  appliedDueAt: Type.Union([Type.String(), Type.Null()], { description: 'ISO due instant of that frame (at or after `at`)' }),
  lateFrames: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: 'frame slots due at or after `at` before the one that applied it (0: the first)',
  }),
  whole: Type.Union([Type.Boolean(), Type.Null()], {
    description: 'false when its handler still waited on the renderer as the gate opened (its later commands landed later)',
  }),
  forced: Type.Optional(Type.Boolean({ description: 'the render worker opened the gate by its timeout' })),
});

export function scheduleRoutes(scheduler: Scheduler): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/show/scheduled`,
      auth: 'required',
      operationId: 'listScheduled',
      summary: 'Operations waiting for their instant, and the last ones applied',
      description: `Waiting operations by instant, and the last ${SCHEDULE_LIMITS.recentMax} that ran (oldest first) with the frame that applied them. See docs/scheduling.md.`,
      tags: ['schedule'],
      feature: 'schedule',
      schema: {},
      responses: {
        200: {
          description: 'the waiting and the recent operations',
          schema: Type.Object({
            waiting: Type.Array(OperationSchema),
            recent: Type.Array(RecordSchema),
            max: Type.Integer({ description: 'operations that may wait at once' }),
          }),
        },
      },
      errors: [],
      handler: () => ({ json: { ...scheduler.list(), max: SCHEDULE_LIMITS.waitingMax } }),
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/show/scheduled/:id/cancel`,
      paramPatterns: { id: '[A-Za-z0-9_-]{1,64}' },
      auth: 'required',
      operationId: 'cancelScheduled',
      summary: 'Cancel a waiting operation',
      description:
        'Only a waiting operation can be cancelled: one that already ran (its handler runs shortly before the instant) answers 404.',
      tags: ['schedule'],
      feature: 'schedule',
      emptyBody: true,
      schema: { params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }) },
      responses: { 200: { description: 'the cancelled operation', schema: Type.Object({ cancelled: OperationSchema }) } },
      errors: ['ITEM_NOT_FOUND'],
      handler: (req) => ({ json: { cancelled: scheduler.cancel(req.params.id) } }),
    }),
  ];
}
