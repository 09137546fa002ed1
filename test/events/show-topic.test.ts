// The `show` events topic over real WebSockets: on a box without a show a subscriber gets the `enabled: false` state;
// on a box of a show (a real mosquitto) it sees the broker connection come up and an operation scheduled with `at`
// appear in `waiting` and leave it when cancelled. The same box sends the show state as OSC feedback (/vjd/show/…).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Socket } from 'node:dgram';
import { startBroker, type TestBroker } from '../helpers/mosquitto.js';
import { freeUdpPort, oscListener, type OscHeard } from '../helpers/osc.js';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl, type WsClient } from '../helpers/ws.js';

let broker: TestBroker;
let alone: TestServer;
let member: TestServer;
let feedback: { socket: Socket; heard: OscHeard[] };
const clients: WsClient[] = [];

test.before(async () => {
  try {
    broker = await startBroker();
    const listener = await oscListener();
    feedback = listener;
    const osc = { enabled: true, host: '127.0.0.1', port: await freeUdpPort(), feedback: [{ host: '127.0.0.1', port: listener.port }] };
    // One after the other: two servers starting at once on a loaded 2-core box may outlast the helper's start limit.
    const render = { width: 160, height: 120, fps: 20 };
    alone = await startServer({ config: { render } });
    member = await startServer({ config: { render, show: { name: 'tour', box: 'foh', broker: { url: broker.url }, leader: true }, osc } });
  } catch (err) {
    // uvu does not print a failing hook's error.
    console.error('setup failed:', err);
    throw err;
  }
});
test.after(async () => {
  for (const c of clients) c.close();
  feedback?.socket.close();
  await Promise.all([alone?.cleanup(), member?.cleanup()]);
  await broker?.cleanup();
});

/** A client subscribed to `show` alone. */
async function subscriber(s: TestServer): Promise<WsClient> {
  const c = await connectWs(wsUrl(s.base));
  clients.push(c);
  await c.next((m) => m.type === 'hello', 20_000);
  c.send({ type: 'subscribe', topics: ['show'] });
  await c.next((m) => m.type === 'subscribed');
  return c;
}

/** The first `show` event after `afterSeq` whose data matches. */
const showEvent = (c: WsClient, match: (d: any) => boolean, afterSeq = 0) =>
  c.next((m) => m.type === 'event' && m.topic === 'show' && m.seq > afterSeq && match(m.data), 30_000);

test('show is not in the hello; without a show a subscriber gets enabled: false', async () => {
  const c = await subscriber(alone);
  const hello = c.messages.find((m) => m.type === 'hello');
  assert.not.ok(hello.topics.includes('show'));
  const e = await showEvent(c, () => true);
  assert.is(e.data.enabled, false);
  assert.is(e.data.broker, null);
  assert.equal(e.data.boxes, []);
  assert.equal(e.data.scheduled, { waiting: [], recent: [] });
});

test('with a show: the broker connection comes up, a scheduled operation appears in waiting and leaves on cancel', async () => {
  const c = await subscriber(member);
  const up = await showEvent(c, (d) => d.enabled === true && d.broker?.connected === true);
  assert.is(up.data.show, 'tour');
  assert.is(up.data.box, 'foh');
  // Far enough ahead that it still waits however slowly this box answers; cancelled below, so it never runs.
  const at = new Date(Date.now() + 60_000).toISOString();
  const r = await req('POST', `${member.base}/api/v1/global/dimmer`, { body: { value: 0.4, at } });
  assert.is(r.status, 202, r.text);
  const id = r.json().scheduled.id as string;
  const waiting = await showEvent(c, (d) => d.scheduled.waiting.some((w: { id: string }) => w.id === id));
  const w = waiting.data.scheduled.waiting.find((x: { id: string }) => x.id === id);
  assert.is(w.op, 'POST /api/v1/global/dimmer');
  assert.is(Date.parse(w.at), Date.parse(at));
  assert.is((await req('POST', `${member.base}/api/v1/show/scheduled/${id}/cancel`)).status, 200);
  await showEvent(c, (d) => d.scheduled.waiting.length === 0, waiting.seq);
});

test('OSC feedback: /vjd/show/connected, /boxes/online, /leader and /scheduled', async () => {
  const last = (address: string) => feedback.heard.filter((m) => m.address === address).at(-1)?.args[0]?.value;
  await waitUntil(() => last('/vjd/show/connected') === 1 && last('/vjd/show/boxes/online') === 1, 30_000, 50);
  assert.is(last('/vjd/show/leader'), 'foh');
  const at = new Date(Date.now() + 60_000).toISOString();
  const r = await req('POST', `${member.base}/api/v1/global/blackout`, { body: { enabled: true, at } });
  assert.is(r.status, 202, r.text);
  await waitUntil(() => last('/vjd/show/scheduled') === 1, 30_000, 50);
  await req('POST', `${member.base}/api/v1/show/scheduled/${r.json().scheduled.id}/cancel`);
  await waitUntil(() => last('/vjd/show/scheduled') === 0, 30_000, 50);
});

test.run();
