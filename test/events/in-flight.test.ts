// One event socket cannot pile up unanswered requests without bound: past the per-socket limit a request is
// refused at once (with its id), the held ones are answered as usual, and the socket serves again afterwards.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl } from '../helpers/ws.js';
import { EVENT_LIMITS } from '../../src/limits.js';

let s: TestServer;
test.before(async () => {
  s = await startServer({ env: { VJD_TEST_HOOKS: '1' } });
});
test.after(async () => {
  await s.cleanup();
});

test(`a socket with ${EVENT_LIMITS.requestsInFlight} requests waiting gets the next ones refused at once; afterwards it serves again`, async () => {
  const c = await connectWs(wsUrl(s.base));
  await c.next((m) => m.type === 'hello');
  // A stalled render worker holds every chain mutation until its budget runs out (503 CHAIN_BUSY).
  assert.is((await req('POST', `${s.base}/api/v1/_test/stall`, { body: { ms: 4000 } })).status, 200);
  const total = EVENT_LIMITS.requestsInFlight + 36;
  for (let i = 0; i < total; i++) c.send({ type: 'request', id: i, method: 'POST', path: '/api/v1/effects/add', body: { type: 'invert' } });
  const answered = (m: any): boolean => (m.type === 'response' || m.type === 'error') && typeof m.id === 'number';
  await waitUntil(() => c.messages.filter(answered).length === total, 20000, 20);
  const answers = c.messages.filter(answered);
  const refused = answers.filter((m) => m.type === 'error');
  const held = answers.filter((m) => m.type === 'response');
  const summary = JSON.stringify(answers.map((m) => (m.type === 'error' ? `e${m.id}` : `${m.status}:${m.id}`)));
  assert.is(refused.length, 36, summary);
  assert.ok(
    refused.every((m) => m.code === 'INVALID_REQUEST' && /in flight/.test(m.message)),
    JSON.stringify(refused[0]),
  );
  // The first requests were held, the later ones refused, and every refusal came before any held answer.
  assert.equal(
    held.map((m) => m.id as number).sort((a, b) => a - b),
    [...Array(EVENT_LIMITS.requestsInFlight).keys()],
    summary,
  );
  assert.ok(
    held.every((m) => m.status === 503 && m.body.code === 'CHAIN_BUSY'),
    summary,
  );
  assert.ok(answers.indexOf(refused.at(-1)) < answers.indexOf(held[0]), `refusals answered before the held requests: ${summary}`);
  // Nothing stays counted: once the worker is back, a full window of requests is answered again.
  await waitUntil(async () => (await req('GET', `${s.base}/api/v1/effects`)).status === 200, 30000);
  for (let i = 0; i < EVENT_LIMITS.requestsInFlight; i++)
    c.send({ type: 'request', id: `again-${i}`, method: 'GET', path: '/api/v1/effects' });
  const again = await Promise.all([...Array(EVENT_LIMITS.requestsInFlight).keys()].map((i) => c.next((m) => m.id === `again-${i}`)));
  assert.ok(
    again.every((m) => m.type === 'response' && m.status === 200),
    JSON.stringify(again.find((m) => m.status !== 200)),
  );
  assert.is((await req('GET', `${s.base}/api/v1/effects`)).json().count, 0, 'no refused or timed-out add was applied');
  c.close();
  await c.closed;
});

test.run();
