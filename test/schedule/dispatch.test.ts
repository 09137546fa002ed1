// `at` through the shared dispatch, as every transport but HTTP passes it (the events socket, a show link): taken out
// of the body before the route's validation or passed beside it, the body still checked at once, refused on GET, and
// the held handler run later without `at`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Type from 'typebox';
import { ApiKeyGuard } from '../../src/http/auth.js';
import { dispatchRequest, type ScheduleRequest } from '../../src/http/dispatch.js';
import { defineRoute } from '../../src/http/route.js';
import { compileRoutes } from '../../src/http/router.js';
import { log } from '../../src/log.js';

const seen: unknown[] = [];
const held: ScheduleRequest[] = [];
const router = compileRoutes([
  defineRoute({
    method: 'POST',
    path: '/x',
    auth: 'none',
    operationId: 'x',
    summary: 'x',
    tags: ['x'],
    schema: { body: Type.Object({ value: Type.Number() }, { additionalProperties: false }) },
    responses: { 200: { description: 'x' } },
    errors: [],
    handler: (req) => {
      seen.push(req.body);
      return { json: { ok: true } };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/y',
    auth: 'none',
    operationId: 'y',
    summary: 'y',
    tags: ['x'],
    schema: {},
    responses: { 200: { description: 'y' } },
    errors: [],
    handler: () => ({ json: {} }),
  }),
]);
const deps = {
  router,
  guard: new ApiKeyGuard(),
  log,
  durable: () => Promise.resolve(),
  schedule: {
    add: (r: ScheduleRequest) => {
      held.push(r);
      return { status: 202, json: { scheduled: { at: r.at } } };
    },
  },
};

test.before.each(() => {
  seen.length = 0;
  held.length = 0;
});

test('at in the body leaves it before validation; the handler runs only when the scheduler runs it', async () => {
  const r = await dispatchRequest(deps, { method: 'POST', path: '/x', body: { value: 1, at: 'nextBeat' }, transport: 'events' });
  assert.is(r.status, 202);
  assert.equal(seen, []);
  assert.is(held.length, 1);
  assert.equal({ op: held[0]!.op, at: held[0]!.at, transport: held[0]!.transport }, { op: 'POST /x', at: 'nextBeat', transport: 'events' });
  const later = await held[0]!.run();
  assert.is(later.status ?? 200, 200);
  assert.equal(seen, [{ value: 1 }]);
});

test('NeutralRequest.at is carried beside the body; sending both is refused', async () => {
  assert.is((await dispatchRequest(deps, { method: 'POST', path: '/x', body: { value: 2 }, at: { beat: 8 } })).status, 202);
  assert.equal(held[0]!.at, { beat: 8 });
  assert.is(held[0]!.transport, 'dispatch');
  const both = await dispatchRequest(deps, { method: 'POST', path: '/x', body: { value: 2, at: 'nextBar' }, at: 'nextBeat' });
  assert.is(both.status, 400);
  assert.is((both.json as { code: string }).code, 'INVALID_AT');
});

test('a bad body is refused at once; GET and a dispatch without a scheduler refuse at', async () => {
  const bad = await dispatchRequest(deps, { method: 'POST', path: '/x', body: { value: 'no', at: 'nextBeat' } });
  assert.is((bad.json as { code: string }).code, 'INVALID_REQUEST');
  const get = await dispatchRequest(deps, { method: 'GET', path: '/y', at: 'nextBeat' });
  assert.is((get.json as { code: string }).code, 'INVALID_AT');
  const { schedule: _s, ...plain } = deps;
  const none = await dispatchRequest(plain, { method: 'POST', path: '/x', body: { value: 1, at: 'nextBeat' } });
  assert.is((none.json as { code: string }).code, 'INVALID_AT');
  assert.equal(held, []);
  assert.equal(seen, []);
});

test('a POST without at answers now', async () => {
  assert.is((await dispatchRequest(deps, { method: 'POST', path: '/x', body: { value: 3 } })).status, 200);
  assert.equal(seen, [{ value: 3 }]);
});

test.run();
