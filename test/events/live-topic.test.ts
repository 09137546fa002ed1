// The `live` events topic over a real WebSocket: not in the hello nor the default subscription, known to subscribe,
// sent to its subscriber only (the modulated inputs' applied values; none here, so one event with empty lists and
// nothing more while they stay unchanged), and stopped once nobody subscribes. With a real LFO on an effect input
// the subscriber's events carry that input's applied value as it moves, no faster than the topic's limit, and a
// bystander gets none.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { req, startServer, sleep, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl, type WsClient } from '../helpers/ws.js';

let s: TestServer;
const clients: WsClient[] = [];

test.before(async () => {
  s = await startServer();
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

const liveEvents = (c: WsClient, afterSeq = 0) => c.messages.filter((m) => m.type === 'event' && m.topic === 'live' && m.seq > afterSeq);

test('live is neither in the hello nor in the default subscription', async () => {
  const c = await open();
  const hello = c.messages.find((m) => m.type === 'hello');
  assert.not.ok(hello.topics.includes('live'));
  assert.not.ok('live' in hello.state);
});

test('a subscriber gets the live values once, and again only when they change; a default client gets none', async () => {
  const bystander = await open();
  const c = await open();
  c.send({ type: 'subscribe', topics: ['live'] });
  const confirmed = await c.next((m) => m.type === 'subscribed', 20_000);
  assert.equal(confirmed.topics, ['live']);
  await waitUntil(() => liveEvents(c, confirmed.seq).length >= 1, 30_000, 50);
  const first = liveEvents(c, confirmed.seq)[0];
  assert.equal(first.data, { effects: [], source: [] });
  // Unchanged values are not sent again (the stream reads them up to 30 times a second meanwhile).
  await sleep(1500);
  assert.equal(liveEvents(c, confirmed.seq).length, 1);
  assert.equal(liveEvents(bystander).length, 0);
});

test('a client joining a running stream gets the latest values at once, though they did not change', async () => {
  const first = await open();
  first.send({ type: 'subscribe', topics: ['live'] });
  const on = await first.next((m) => m.type === 'subscribed', 20_000);
  await waitUntil(() => liveEvents(first, on.seq).length >= 1, 30_000, 50);
  const late = await open();
  late.send({ type: 'subscribe', topics: ['global', 'live'] });
  const joined = await late.next((m) => m.type === 'subscribed', 20_000);
  await waitUntil(() => liveEvents(late, joined.seq).length >= 1, 30_000, 50);
  assert.equal(liveEvents(late, joined.seq)[0].data, { effects: [], source: [] });
  // The first subscriber is not sent the same values again.
  assert.equal(liveEvents(first, on.seq).length, 1);
});

test('unsubscribing stops the stream; subscribing again starts it again', async () => {
  const c = await open();
  c.send({ type: 'subscribe', topics: ['live'] });
  const on = await c.next((m) => m.type === 'subscribed', 20_000);
  await waitUntil(() => liveEvents(c, on.seq).length >= 1, 30_000, 50);
  for (const other of clients) other.send({ type: 'subscribe', topics: ['global'] });
  const off = await c.next((m) => m.type === 'subscribed' && m.topics[0] === 'global', 20_000);
  await sleep(500);
  assert.equal(liveEvents(c, off.seq).length, 0);
  // A restarted stream sends the current values to the new subscriber at once.
  c.send({ type: 'subscribe', topics: ['live', 'global'] });
  const again = await c.next((m) => m.type === 'subscribed' && m.topics.includes('live'), 20_000);
  await waitUntil(() => liveEvents(c, again.seq).length >= 1, 30_000, 50);
});

const post = async (path: string, body: unknown) => {
  const r = await req('POST', `${s.base}/api/v1${path}`, { body, timeoutMs: 20_000 });
  assert.ok(r.status < 300, `${path}: ${r.status} ${r.text}`);
  return r.json();
};

test('a running LFO: its subscriber sees the applied value move, at most 30 events a second; others see nothing', async () => {
  const added = await post('/effects/add', { type: 'brightness_contrast' });
  await post('/effects/modulate', {
    index: added.index,
    input: 'brightness',
    modulator: { kind: 'lfo', shape: 'sine', rate: 2, amount: 0.5 },
  });
  const bystander = await open();
  const c = await open();
  const t0 = performance.now();
  c.send({ type: 'subscribe', topics: ['live'] });
  const on = await c.next((m) => m.type === 'subscribed', 20_000);
  const lfoValues = (): number[] =>
    liveEvents(c, on.seq).flatMap((e) =>
      e.data.effects.filter((v: any) => v.index === added.index && v.input === 'brightness').map((v: any) => v.live),
    );
  // Several distinct applied values on both sides of the set value (the amount swings it half the range each way):
  // the render worker reports the LFO as it runs and the topic passes them on.
  await waitUntil(
    () => {
      const xs = lfoValues();
      return new Set(xs).size >= 8 && Math.max(...xs) > 0.3 && Math.min(...xs) < -0.3;
    },
    60_000,
    50,
  );
  const t1 = performance.now();
  const sent = liveEvents(c, on.seq).length;
  // Every event was sent between the subscribe request and now; the stream sends one per tick at most, plus the
  // joining snapshot.
  assert.ok(sent <= Math.floor(((t1 - t0) / 1000) * 30) + 2, `${sent} events in ${(t1 - t0).toFixed(0)} ms`);
  for (const v of lfoValues()) assert.ok(typeof v === 'number' && v >= -1 && v <= 1, `live ${v}`);
  const shape = liveEvents(c, on.seq).at(-1).data;
  assert.equal(shape.source, []);
  assert.equal(Object.keys(shape.effects[0]).sort(), ['index', 'input', 'live']);
  assert.equal(liveEvents(bystander).length, 0);
  // Removing the modulator empties the effect list the subscriber gets.
  await post('/effects/modulate', { index: added.index, input: 'brightness', modulator: null });
  await waitUntil(() => liveEvents(c, on.seq).at(-1).data.effects.length === 0, 30_000, 50);
  assert.equal(liveEvents(bystander).length, 0);
});

test.run();
