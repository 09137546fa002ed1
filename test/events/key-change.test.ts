// A live API key change over a real server: every open events socket (opened without a key, authenticated with
// the old key, or still waiting to authenticate) is closed with 4401 and gets no event after it; a reload that
// leaves the key alone closes nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, editConfig, req, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl, type WsClient } from '../helpers/ws.js';

const KEY_A = 'key-change-a-81f0c2';
const KEY_B = 'key-change-b-3e9d47';
let s: TestServer;
let url: string;

test.before(async () => {
  s = await startServer({ config: { server: {} } });
  url = wsUrl(s.base);
});
test.after(async () => {
  await s.cleanup();
});

async function ready(headers: Record<string, string> = {}): Promise<WsClient> {
  const c = await connectWs(url, headers);
  await c.next((m) => m.type === 'hello');
  return c;
}

const dimmer = (value: number, headers: Record<string, string> = {}) =>
  req('POST', `${s.base}/api/v1/global/dimmer`, { headers, body: { value } }).then((r) => r.status);

/** The close, or a failure once a generous deadline passes (a socket the key change left open). */
function closedWithin(c: WsClient, ms = 30000): Promise<{ code: number; reason: string }> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`still open ${ms} ms after the key change`)), ms)),
  );
  return Promise.race([c.closed, late]).finally(() => clearTimeout(timer));
}

/** Waits for the close, then makes a change and checks nothing more arrived on the socket. */
async function closedForGood(c: WsClient, change: () => Promise<number>): Promise<void> {
  const closed = await closedWithin(c);
  assert.is(closed.code, 4401);
  assert.match(closed.reason, /key changed/);
  const seen = c.messages.length;
  assert.is(await change(), 200);
  assert.is(c.messages.length, seen, 'no message after the close');
}

test('a reload that does not change the key closes nothing', async () => {
  const c = await ready();
  await editConfig(s, (cfg) => (cfg.server.maxEventClients = 100));
  await s.waitForLog('config reloaded', 20000);
  assert.is(await dimmer(0.3), 200);
  await c.next((m) => m.type === 'event' && m.topic === 'global' && m.data.dimmer === 0.3);
  c.close();
  await c.closed;
});

test('setting a key closes the sockets opened without one (4401); no event reaches them after', async () => {
  const a = await ready();
  const b = await ready();
  await editConfig(s, (cfg) => (cfg.server.apiKey = KEY_A));
  await closedForGood(a, () => dimmer(0.4, { 'x-api-key': KEY_A }));
  await closedForGood(b, () => dimmer(0.45, { 'x-api-key': KEY_A }));
  assert.is(await dimmer(0.5), 401, 'the new key is in force over HTTP too');
});

test('changing the key closes sockets authenticated with the old one and those still waiting to authenticate', async () => {
  const header = await ready({ 'x-api-key': KEY_A });
  const first = await connectWs(url);
  first.send({ type: 'auth', key: KEY_A });
  await first.next((m) => m.type === 'hello');
  const waiting = await connectWs(url);
  // Both authenticated sockets still get events under key A.
  assert.is(await dimmer(0.6, { 'x-api-key': KEY_A }), 200);
  for (const c of [header, first]) await c.next((m) => m.type === 'event' && m.topic === 'global' && m.data.dimmer === 0.6);
  await editConfig(s, (cfg) => (cfg.server.apiKey = KEY_B));
  await closedForGood(header, () => dimmer(0.7, { 'x-api-key': KEY_B }));
  await closedForGood(first, () => dimmer(0.75, { 'x-api-key': KEY_B }));
  assert.is((await closedWithin(waiting)).code, 4401);
  // The new key gets in at once.
  const fresh = await ready({ 'x-api-key': KEY_B });
  fresh.close();
  await fresh.closed;
});

test('removing the key closes the authenticated sockets too', async () => {
  const c = await ready({ 'x-api-key': KEY_B });
  await editConfig(s, (cfg) => (cfg.server.apiKey = null));
  await closedForGood(c, () => dimmer(0.8));
  await waitUntil(async () => (await dimmer(0.85)) === 200, 20000);
});

test.run();
