// The events socket and browser origins over a real server: a page on another site is refused at the upgrade
// (403, no socket) with or without a key, the page's own origin and loopback pages connect, and
// server.allowedOrigins applies after a live config reload.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, editConfig, req, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl, type WsClient } from '../helpers/ws.js';

const KEY = 'origin-test-key-5d2a71';
const NAME = 'vjbox.test';
let s: TestServer;
let url: string;

test.before(async () => {
  s = await startServer({ config: { server: { allowedHosts: [NAME] } } });
  url = wsUrl(s.base);
});
test.after(async () => {
  await s.cleanup();
});

/** The upgrade's HTTP status when refused, or the hello when a socket opened (then closed again). */
async function attempt(headers: Record<string, string>, auth?: string): Promise<{ status: number; code?: string; hello?: any }> {
  let c: WsClient;
  try {
    c = await connectWs(url, headers);
  } catch (err: any) {
    if (typeof err.status !== 'number') throw err;
    return { status: err.status, code: JSON.parse(err.text).code };
  }
  if (auth !== undefined) c.send({ type: 'auth', key: auth });
  const hello = await c.next((m) => m.type === 'hello');
  c.close();
  await c.closed;
  return { status: 101, hello };
}

const blackout = (headers: Record<string, string> = {}) =>
  req('GET', `${s.base}/api/v1/global`, { headers }).then((r) => r.json().blackout);

test('without a key: a foreign origin is refused at the upgrade (403) and cannot drive vjd', async () => {
  for (const origin of [
    'http://evil.example',
    'https://evil.example:8080',
    `http://evil.example:${s.port}`,
    'null',
    'http://127.0.0.1.evil.example',
    `http://${'a'.repeat(400)}.example`,
    'http://localhost:80/path',
  ]) {
    const r = await attempt({ origin });
    assert.is(r.status, 403, origin);
    assert.is(r.code, 'ORIGIN_NOT_ALLOWED', origin);
  }
  assert.is(await blackout(), false);
});

test('without a key: no Origin, loopback pages (any port) and the page vjd serves itself connect', async () => {
  const none = await attempt({});
  assert.is(none.status, 101);
  assert.ok(none.hello.state.global);
  for (const origin of [
    `http://127.0.0.1:${s.port}`,
    'http://localhost:3000',
    'https://panel.localhost',
    'http://127.4.5.6:9',
    'http://[::1]:1234',
  ]) {
    assert.is((await attempt({ origin })).status, 101, origin);
  }
  // The page served under a name the host policy allows: its origin names the Host the upgrade went to.
  assert.is((await attempt({ host: `${NAME}:${s.port}`, origin: `http://${NAME}:${s.port}` })).status, 101);
  // The same name on another port, or a Host that is not this page's, is another site.
  assert.is((await attempt({ host: `${NAME}:${s.port}`, origin: `http://${NAME}:${s.port + 1}` })).status, 403);
  assert.is((await attempt({ host: NAME, origin: `http://${NAME}:${s.port}` })).status, 403);
  assert.is((await attempt({ host: `${NAME}:${s.port}`, origin: 'http://evil.example' })).status, 403);
  // The Host rules come first: an unknown Host is 421 whatever the Origin.
  assert.is((await attempt({ host: `evil.example:${s.port}`, origin: `http://evil.example:${s.port}` })).status, 421);
});

test('a foreign page that got a socket could send requests; the refused one never gets that far', async () => {
  const page = await attempt({ origin: 'http://evil.example' });
  assert.is(page.status, 403);
  // The same request from an allowed socket works, so the refusal above is what stops it.
  const c = await connectWs(url, { origin: 'http://localhost:5173' });
  await c.next((m) => m.type === 'hello');
  c.send({ type: 'request', id: 'b', method: 'POST', path: '/api/v1/global/blackout', body: { enabled: true } });
  assert.is((await c.next((m) => m.type === 'response' && m.id === 'b')).status, 200);
  c.send({ type: 'request', id: 'u', method: 'POST', path: '/api/v1/global/blackout', body: { enabled: false } });
  assert.is((await c.next((m) => m.type === 'response' && m.id === 'u')).status, 200);
  c.close();
  await c.closed;
});

test('with a key (live reload): a foreign origin is still refused, even carrying the key; allowed origins authenticate', async () => {
  await editConfig(s, (c) => (c.server.apiKey = KEY));
  await waitUntil(async () => (await req('GET', `${s.base}/api/v1/global`)).status === 401, 20000);
  const foreign = await attempt({ origin: 'http://evil.example', 'x-api-key': KEY });
  assert.is(foreign.status, 403);
  assert.is(foreign.code, 'ORIGIN_NOT_ALLOWED');
  assert.is((await attempt({ origin: 'http://evil.example' })).status, 403);
  assert.is((await attempt({ origin: 'http://localhost:3000' }, KEY)).status, 101);
  assert.is((await attempt({ host: `${NAME}:${s.port}`, origin: `http://${NAME}:${s.port}` }, KEY)).status, 101);
  assert.is((await attempt({}, KEY)).status, 101);
});

test('server.allowedOrigins: an entry is accepted after a live reload, other ports and schemes are not', async () => {
  const panel = 'https://panel.example:8443';
  assert.is((await attempt({ origin: panel }, KEY)).status, 403);
  await editConfig(s, (c) => (c.server.allowedOrigins = ['https://PANEL.example:8443', 'http://desk.example']));
  await waitUntil(async () => (await attempt({ origin: panel }, KEY)).status === 101, 20000, 300);
  assert.is((await attempt({ origin: 'http://desk.example:80' }, KEY)).status, 101);
  assert.is((await attempt({ origin: 'http://desk.example' }, KEY)).status, 101);
  for (const origin of ['https://panel.example', 'http://panel.example:8443', 'https://desk.example', 'https://other.example:8443']) {
    assert.is((await attempt({ origin }, KEY)).status, 403, origin);
  }
  assert.not.match(s.logs(), /take effect at the next restart[^\n]*allowedOrigins/);
});

test('server.allowedOrigins: a malformed entry is a config error naming the key and the file; the last good config stays', async () => {
  await editConfig(s, (c) => (c.server.allowedOrigins = ['https://panel.example:8443/path']));
  await s.waitForLog(`config error in ${s.configFile}: server.allowedOrigins[0] must be an origin`, 20000);
  assert.is((await attempt({ origin: 'https://panel.example:8443' }, KEY)).status, 101);
});

test.run();
