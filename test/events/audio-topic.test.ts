// The `audio` events topic over a real WebSocket with the embedded click input playing: a subscriber gets the levels
// (GET /audio/levels' shape) at most 30 times a second, a client on the default subscription gets none, and the
// stream stops once nobody subscribes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, sleep, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl, type WsClient } from '../helpers/ws.js';

let s: TestServer;
const clients: WsClient[] = [];

test.before(async () => {
  s = await startServer({ config: { audio: { input: 'click' } } });
  await waitUntil(async () => (await req('GET', `${s.base}/api/v1/audio`)).json().state === 'running', 60_000, 200);
});
test.after(async () => {
  for (const c of clients) c.close();
  await s.cleanup();
});

async function open(): Promise<WsClient> {
  const c = await connectWs(wsUrl(s.base));
  clients.push(c);
  await c.next((m) => m.type === 'hello', 20_000);
  return c;
}

const audioEvents = (c: WsClient, afterSeq = 0) => c.messages.filter((m) => m.type === 'event' && m.topic === 'audio' && m.seq > afterSeq);

test('audio is not in the default subscription nor in the hello', async () => {
  const c = await open();
  const hello = c.messages.find((m) => m.type === 'hello');
  assert.not.ok(hello.topics.includes('audio'));
  assert.not.ok('audio' in hello.state);
});

test('a subscriber gets levels at most 30 times a second; a default client gets none', async () => {
  const bystander = await open();
  const c = await open();
  c.send({ type: 'subscribe', topics: ['audio'] });
  const confirmed = await c.next((m) => m.type === 'subscribed', 20_000);
  assert.equal(confirmed.topics, ['audio']);
  const started = Date.now();
  // Events keep coming while the click plays: several arrive within a generous deadline.
  await waitUntil(() => audioEvents(c, confirmed.seq).length >= 10, 30_000, 50);
  await sleep(2000);
  const elapsedS = (Date.now() - started) / 1000;
  const events = audioEvents(c, confirmed.seq);
  // The server reads at most once per 34 ms; a little slack for events already in flight at either end.
  assert.ok(events.length <= 30 * elapsedS + 3, `${events.length} events in ${elapsedS.toFixed(2)} s`);
  const data = events.at(-1).data;
  for (const k of ['level', 'bass', 'lowMid', 'highMid', 'high', 'onset']) {
    assert.type(data[k], 'number', k);
    assert.ok(data[k] >= 0 && data[k] <= 1, `${k} ${data[k]}`);
  }
  assert.ok(Number.isInteger(data.hops) && data.hops > 0);
  // Each event carries new values (the analysis moved on between them).
  const hops = events.map((e) => e.data.hops);
  assert.equal(new Set(hops).size, hops.length);
  // The click track moves the level: some event saw it up.
  assert.ok(
    events.some((e) => e.data.level > 0.05),
    'no event saw the click',
  );
  assert.equal(audioEvents(bystander).length, 0);
});

test('unsubscribing stops the events', async () => {
  const c = await open();
  c.send({ type: 'subscribe', topics: ['audio'] });
  await c.next((m) => m.type === 'subscribed', 20_000);
  await waitUntil(() => audioEvents(c).length >= 3, 30_000, 50);
  for (const other of clients) if (other !== c) other.send({ type: 'subscribe', topics: ['global'] });
  c.send({ type: 'subscribe', topics: ['global'] });
  const off = await c.next((m) => m.type === 'subscribed' && m.topics[0] === 'global', 20_000);
  await sleep(1000);
  assert.equal(audioEvents(c, off.seq).length, 0);
  // Subscribing again starts the stream again.
  c.send({ type: 'subscribe', topics: ['audio'] });
  const on = await c.next((m) => m.type === 'subscribed' && m.topics[0] === 'audio', 20_000);
  await waitUntil(() => audioEvents(c, on.seq).length >= 3, 30_000, 50);
});

test('an unknown topic is still refused', async () => {
  const c = await open();
  c.send({ type: 'subscribe', topics: ['audio', 'nope'] });
  const err = await c.next((m) => m.type === 'error', 20_000);
  assert.match(err.message, /unknown topic "nope"/);
  assert.match(err.message, /audio/);
});

test.run();
