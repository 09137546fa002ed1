// The event WebSocket over a real server: hello equals the GET routes, HTTP changes arrive as events, socket requests
// equal HTTP requests (errors included), subscriptions filter, auth (header, first message, refusal, key in URL),
// the client limit, malformed input, and a paused reader that neither grows the server nor misses its resync.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFile } from 'node:fs/promises';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl, type WsClient } from '../helpers/ws.js';

const KEY = 'events-test-key-4c1b9e';
const AUTH = { 'x-api-key': KEY };
const MAX = 4;
let s: TestServer;
let url: string;
const open: WsClient[] = [];

test.before(async () => {
  s = await startServer({ config: { server: { apiKey: KEY, maxEventClients: MAX } } });
  url = wsUrl(s.base);
});
test.after(async () => {
  for (const c of open) c.ws.terminate();
  await s.cleanup();
});

async function client(headers: Record<string, string> = AUTH): Promise<WsClient> {
  const c = await connectWs(url, headers);
  open.push(c);
  return c;
}

function done(c: WsClient): Promise<unknown> {
  c.close();
  open.splice(open.indexOf(c), 1);
  return c.closed;
}

const get = async (path: string) => (await req('GET', `${s.base}${path}`, { headers: AUTH })).json();

test('hello: server and state, each member equal to its GET route', async () => {
  const c = await client();
  const hello = await c.next((m) => m.type === 'hello');
  assert.is(hello.seq, 1);
  assert.is(hello.server.name, 'vjd');
  assert.type(hello.server.version, 'string');
  assert.equal(Object.keys(hello.state).sort(), ['chain', 'generator', 'global', 'mix', 'outputs', 'palette', 'params', 'source']);
  assert.equal(hello.state.mix, await get('/api/v1/mix'));
  assert.equal(hello.state.global, await get('/api/v1/global'));
  assert.equal(hello.state.chain, await get('/api/v1/effects'));
  assert.equal(hello.state.params, await get('/api/v1/effects/params'));
  assert.equal(hello.state.source, await get('/api/v1/sources/current'));
  assert.equal(hello.state.outputs, await get('/api/v1/outputs'));
  const palette = await req('GET', `${s.base}/api/v1/palettes/current`, { headers: AUTH });
  assert.equal(hello.state.palette, palette.status === 200 ? palette.json() : null);
  const generator = await req('GET', `${s.base}/api/v1/sources/current/params`, { headers: AUTH });
  assert.equal(hello.state.generator, generator.status === 200 ? generator.json() : null);
  assert.equal(hello.topics.sort(), ['chain', 'generator', 'global', 'library', 'mix', 'outputs', 'palette', 'params', 'source']);
  await done(c);
});

test('a POST over HTTP produces the event with the new full state; seq rises by one', async () => {
  const c = await client();
  const hello = await c.next((m) => m.type === 'hello');
  const r = await req('POST', `${s.base}/api/v1/global/dimmer`, { headers: AUTH, body: { value: 0.25 } });
  assert.is(r.status, 200);
  const ev = await c.next((m) => m.type === 'event' && m.topic === 'global' && m.data.dimmer === 0.25);
  assert.equal(ev.data, await get('/api/v1/global'));
  const seqs = c.messages.map((m) => m.seq);
  assert.equal(
    seqs,
    seqs.map((_, i) => hello.seq + i),
    'seq without gaps',
  );
  await done(c);
});

test('an effect input set over HTTP arrives as a `params` event (GET /effects carries no input values)', async () => {
  const available = (await get('/api/v1/effects/available')).items as Array<{
    type: string;
    inputs: Array<{ name: string; type: string; min?: unknown; max?: unknown }>;
  }>;
  const effect = available.find((e) =>
    e.inputs.some((i) => i.type === 'float' && typeof i.min === 'number' && typeof i.max === 'number' && i.max !== i.min),
  )!;
  const input = effect.inputs.find((i) => i.type === 'float' && typeof i.min === 'number' && typeof i.max === 'number' && i.max !== i.min)!;
  const added = await req('POST', `${s.base}/api/v1/effects/add`, { headers: AUTH, body: { type: effect.type } });
  assert.is(added.status, 200);
  const index = added.json().index as number;
  const c = await client();
  const hello = await c.next((m) => m.type === 'hello');
  assert.ok(
    hello.state.params.items.some((it: any) => it.index === index),
    'the new item in the hello',
  );
  const value = (input.min as number) + 0.375 * ((input.max as number) - (input.min as number));
  const chainBefore = await get('/api/v1/effects');
  const r = await req('POST', `${s.base}/api/v1/effects/params`, { headers: AUTH, body: { index, values: { [input.name]: value } } });
  assert.is(r.status, 200);
  const ev = await c.next(
    (m) =>
      m.type === 'event' &&
      m.topic === 'params' &&
      m.data.items[index - 1]?.inputs.some((i: any) => i.name === input.name && Math.abs(i.value - value) < 1e-4),
  );
  assert.equal(ev.data, await get('/api/v1/effects/params'));
  assert.equal(ev.data.items[index - 1], await get(`/api/v1/effects/${index}`));
  // The chain topic did not change: its JSON (GET /effects) holds no values.
  assert.equal(await get('/api/v1/effects'), chainBefore);
  assert.is((await req('POST', `${s.base}/api/v1/effects/remove`, { headers: AUTH, body: { index } })).status, 200);
  await done(c);
});

test('a request over the socket answers what the same HTTP request answers, errors included', async () => {
  const c = await client();
  await c.next((m) => m.type === 'hello');
  const cases: Array<{ method: string; path: string; body?: unknown }> = [
    { method: 'GET', path: '/api/v1/global' },
    { method: 'GET', path: '/api/v1/effects' },
    { method: 'GET', path: '/api/v1/browse?path=/nope' },
    { method: 'POST', path: '/api/v1/global/dimmer', body: { value: 0.5 } },
    { method: 'POST', path: '/api/v1/global/dimmer', body: { value: 7 } },
    { method: 'POST', path: '/api/v1/global/dimmer' },
    { method: 'POST', path: '/api/v1/global/blackout', body: { enabled: 'yes' } },
    { method: 'POST', path: '/api/v1/effects/add', body: { type: 'no-such-effect-xyz' } },
    { method: 'POST', path: '/api/v1/sources/select', body: { id: 'nothing-like-this' } },
    { method: 'GET', path: '/api/v1/no/such/route' },
    { method: 'DELETE', path: '/api/v1/global' },
  ];
  let id = 0;
  for (const k of cases) {
    const http = await req(k.method, `${s.base}${k.path}`, { headers: AUTH, body: k.body });
    c.send({ type: 'request', id: ++id, method: k.method, path: k.path, ...(k.body !== undefined ? { body: k.body } : {}) });
    const mine = id;
    const res = await c.next((m) => m.type === 'response' && m.id === mine);
    assert.is(res.status, http.status, `${k.method} ${k.path}`);
    assert.equal(res.body, http.json(), `${k.method} ${k.path}`);
  }
  // Image routes answer with their ETag only.
  c.send({ type: 'request', id: 'thumb', method: 'GET', path: '/api/v1/thumbnails/current?size=64' });
  const thumb = await c.next((m) => m.type === 'response' && m.id === 'thumb');
  assert.is(thumb.status, 200);
  assert.match(thumb.body.etag, /^"current-64x\d+-png-/);
  await done(c);
});

test('a socket request carries the key given on the upgrade; without a key the same request over HTTP is 401', async () => {
  const c = await client({ authorization: `Bearer ${KEY}` });
  await c.next((m) => m.type === 'hello');
  c.send({ type: 'request', id: 1, method: 'GET', path: '/api/v1/capabilities' });
  const res = await c.next((m) => m.type === 'response');
  assert.is(res.status, 200);
  assert.ok(res.body.features.includes('events'));
  assert.is((await req('GET', `${s.base}/api/v1/capabilities`)).status, 401);
  await done(c);
});

test('subscribe filters: a client on `status` only gets status events, not the global change', async () => {
  const c = await client();
  await c.next((m) => m.type === 'hello');
  c.send({ type: 'subscribe', topics: ['status'] });
  const sub = await c.next((m) => m.type === 'subscribed');
  assert.equal(sub.topics, ['status']);
  await req('POST', `${s.base}/api/v1/global/dimmer`, { headers: AUTH, body: { value: 0.125 } });
  // Two status events after the POST's answer: the global event would have been published long before.
  const after = c.messages.length;
  await waitUntil(() => c.messages.slice(after).filter((m) => m.topic === 'status').length >= 2, 20000);
  assert.ok(!c.messages.some((m) => m.type === 'event' && m.topic !== 'status'), 'only status events');
  const status = c.messages.find((m) => m.topic === 'status');
  assert.is(status.data.status, 'Server Running');
  c.send({ type: 'subscribe', topics: ['global', 'bogus'] });
  const err = await c.next((m) => m.type === 'error');
  assert.is(err.code, 'INVALID_REQUEST');
  await done(c);
});

test("thumbnail: the current output's ETag as {url, etag}, matching what GET answers", async () => {
  const c = await client();
  await c.next((m) => m.type === 'hello');
  c.send({ type: 'subscribe', topics: ['thumbnail'] });
  const ev = await c.next((m) => m.type === 'event' && m.topic === 'thumbnail');
  assert.is(ev.data.url, '/api/v1/thumbnails/current');
  assert.match(ev.data.etag, /^"current-\d+x\d+-png-/);
  const http = await req('GET', `${s.base}/api/v1/thumbnails/current`, { headers: { ...AUTH, 'if-none-match': ev.data.etag } });
  assert.ok(http.status === 304 || http.status === 200, `GET answered ${http.status}`);
  await done(c);
});

test('auth by the first message; refusal (4401) without it, with a wrong one, or a wrong header', async () => {
  const c = await client({});
  c.send({ type: 'auth', key: KEY });
  const hello = await c.next((m) => m.type === 'hello');
  assert.ok(hello.state.global);
  await done(c);

  const wrong = await client({});
  wrong.send({ type: 'auth', key: 'nope' });
  assert.is((await wrong.closed).code, 4401);
  open.splice(open.indexOf(wrong), 1);

  const first = await client({});
  first.send({ type: 'subscribe', topics: ['global'] });
  assert.is((await first.closed).code, 4401);
  open.splice(open.indexOf(first), 1);

  const badHeader = await client({ 'x-api-key': 'wrong' });
  assert.is((await badHeader.closed).code, 4401);
  open.splice(open.indexOf(badHeader), 1);

  // Silent: closed once the 5 s are up, and never told the state.
  const silent = await client({});
  const closed = await silent.closed;
  assert.is(closed.code, 4401);
  assert.ok(!silent.messages.some((m) => m.type === 'hello'));
  open.splice(open.indexOf(silent), 1);
});

test('a key in the URL is refused before the upgrade; the Host rules apply; a plain GET is 426', async () => {
  for (const q of [`?key=${KEY}`, `?apiKey=${KEY}`, `?token=${KEY}`, `?access_token=${KEY}`]) {
    const err = await connectWs(`${url}${q}`, AUTH).then(
      () => null,
      (e) => e,
    );
    assert.is(err?.status, 400, q);
    assert.match(JSON.parse(err.text).message, /URL/);
  }
  const misdirected = await connectWs(url, { ...AUTH, host: 'evil.example' }).then(
    () => null,
    (e) => e,
  );
  assert.is(misdirected?.status, 421);
  const plain = await req('GET', `${s.base}/api/v1/events`, { headers: AUTH });
  assert.is(plain.status, 426);
  assert.is(plain.json().code, 'UPGRADE_REQUIRED');
  assert.is(plain.headers['upgrade'], 'websocket');
  assert.is((await req('GET', `${s.base}/api/v1/events`)).status, 401);
});

test('server.maxEventClients: the next connection is closed with 4429', async () => {
  const clients: WsClient[] = [];
  for (let i = 0; i < MAX; i++) {
    const c = await client();
    await c.next((m) => m.type === 'hello');
    clients.push(c);
  }
  const extra = await client();
  assert.is((await extra.closed).code, 4429);
  open.splice(open.indexOf(extra), 1);
  await done(clients.pop()!);
  // A freed place is usable again (the server counts closes).
  await waitUntil(async () => {
    const c = await client();
    const r = await Promise.race([
      c
        .next((m) => m.type === 'hello', 5000)
        .then(
          () => true,
          () => false,
        ),
      c.closed.then(() => false),
    ]);
    if (!r) open.splice(open.indexOf(c), 1);
    else clients.push(c);
    return r;
  }, 20000);
  for (const c of clients) await done(c);
});

test('sockets waiting to authenticate cannot take the places of clients with the key', async () => {
  const waiting: WsClient[] = [];
  for (let i = 0; i < MAX + 2; i++) waiting.push(await client({}));
  // Every place for authenticated clients is still free while those wait out their auth window.
  const clients: WsClient[] = [];
  for (let i = 0; i < MAX; i++) {
    const c = await client();
    await c.next((m) => m.type === 'hello');
    clients.push(c);
  }
  // Full now: a socket that authenticates by its first message is refused with 4429, not admitted past the limit.
  const late = await client({});
  late.send({ type: 'auth', key: KEY });
  assert.is((await late.closed).code, 4429);
  open.splice(open.indexOf(late), 1);
  for (const c of [...clients, ...waiting]) await done(c);
});

test('10 000 malformed messages leave the connection and the server serving; an oversized message closes only its connection (1009)', async () => {
  const c = await client();
  await c.next((m) => m.type === 'hello');
  const junk = [
    '',
    '{',
    'null',
    '[]',
    '42',
    '"x"',
    '{"type":1}',
    '{"type":"nope"}',
    '{"type":"request"}',
    '{"type":"request","id":{},"method":"GET","path":"/"}',
    '{"type":"request","id":1,"method":"PUT","path":"/api/v1/global"}',
    '{"type":"request","id":1,"method":"GET","path":"relative"}',
    '{"type":"subscribe","topics":"global"}',
    '{"type":"subscribe","topics":[1,2]}',
    '\u0000\u0001',
    '{"type":"auth","key":"x"}',
    '{"__proto__":{"type":"request"}}',
  ];
  for (let i = 0; i < 10_000; i++) {
    if (i % 10 === 0) c.ws.send(Buffer.from([i & 255, 0, 255, 1]), { binary: true });
    else c.send(junk[i % junk.length]! + (i % 3 === 0 ? String(i) : ''));
  }
  c.send({ type: 'request', id: 'after', method: 'GET', path: '/api/v1/global' });
  const res = await c.next((m) => m.type === 'response' && m.id === 'after', 60000);
  assert.is(res.status, 200);
  assert.ok(c.messages.filter((m) => m.type === 'error').length >= 9000, 'errors answered');
  // Past the message limit: closed with 1009 and a reason, whether authenticated or still waiting to be.
  for (const [headers, size] of [
    [AUTH, 65 * 1024 + 1],
    [AUTH, 200 * 1024],
    [{}, 100 * 1024],
    [AUTH, 1024 * 1024 - 256],
  ] as const) {
    const big = await client(headers);
    if (headers === AUTH) await big.next((m) => m.type === 'hello');
    big.ws.send(JSON.stringify({ type: 'request', id: 1, method: 'GET', path: '/api/v1/global', pad: 'x'.repeat(size) }));
    const closed = await big.closed;
    assert.is(closed.code, 1009, `a ${size}-byte message closed with ${closed.code}`);
    assert.match(closed.reason, /at most \d+ bytes/);
    assert.not.ok(
      big.messages.some((m) => m.type === 'response'),
      'the oversized request was not run',
    );
    open.splice(open.indexOf(big), 1);
  }
  // A frame past what the engine reads at all is cut off at its header (no close frame); only its connection ends.
  const huge = await client();
  await huge.next((m) => m.type === 'hello');
  huge.ws.send('x'.repeat(2 * 1024 * 1024));
  const code = (await huge.closed).code;
  assert.ok(code === 1009 || code === 1006, `closed with ${code}`);
  open.splice(open.indexOf(huge), 1);
  assert.is((await req('GET', `${s.base}/api/v1/status`)).status, 200);
  c.send({ type: 'request', id: 'still', method: 'GET', path: '/api/v1/global' });
  assert.is((await c.next((m) => m.id === 'still')).status, 200);
  await done(c);
});

async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
}

test('a paused reader: the server does not buffer for it without bound, and it gets a fresh hello once it reads again', async () => {
  const c = await client();
  await c.next((m) => m.type === 'hello');
  const catalog = await req('GET', `${s.base}/api/v1/effects/available`, { headers: AUTH });
  const size = catalog.body.byteLength;
  c.ws.pause();
  const before = await rssKb(s.proc.pid!);
  const seen = (await req('GET', `${s.base}/api/v1/status`)).json().events.messagesIn;
  // Ask for far more than the 1 MiB limit plus every socket buffer between us: 64 MiB of answers.
  const n = Math.ceil((64 * 1024 * 1024) / size);
  for (let i = 0; i < n; i++) c.send({ type: 'request', id: i, method: 'GET', path: '/api/v1/effects/available' });
  let peak = before;
  let resyncs = 0;
  // Until the server has read every request (its own counter says so), sampling its memory on the way.
  await waitUntil(
    async () => {
      peak = Math.max(peak, await rssKb(s.proc.pid!));
      const events = (await req('GET', `${s.base}/api/v1/status`)).json().events;
      resyncs = events.resyncs;
      return events.messagesIn >= seen + n;
    },
    120000,
    50,
  );
  peak = Math.max(peak, await rssKb(s.proc.pid!));
  assert.ok(resyncs >= 1, 'the queue was dropped');
  assert.ok(
    peak - before < 32 * 1024,
    `server RSS grew ${Math.round((peak - before) / 1024)} MiB for a paused reader asking for ${Math.round((n * size) / 1048576)} MiB`,
  );
  c.ws.resume();
  const resync = await c.next((m) => m.type === 'hello' && m.resync === true, 60000);
  assert.equal(resync.state.global, await get('/api/v1/global'));
  const answered = c.messages.filter((m) => m.type === 'response').length;
  assert.ok(answered < n, `some answers were dropped (${answered} of ${n})`);
  const seqs = c.messages.map((m) => m.seq);
  assert.equal(
    seqs,
    seqs.map((_, i) => seqs[0] + i),
    'seq without gaps',
  );
  await done(c);
});

test('generator inputs: a program switch to a generator and a value set over HTTP arrive as `generator` events', async () => {
  const c = await client();
  await c.next((m) => m.type === 'hello');
  const post = (path: string, body: unknown) => req('POST', `${s.base}/api/v1${path}`, { headers: AUTH, body });
  assert.is((await post('/sources/select', { id: 'source:solid_color' })).status, 200);
  const switched = await c.next((m) => m.type === 'event' && m.topic === 'generator' && m.data?.id === 'source:solid_color');
  assert.equal(switched.data, await get('/api/v1/sources/current/params'));
  assert.is((await post('/sources/params', { values: { color: '#FF0000' } })).status, 200);
  const red = (m: any): boolean =>
    m.type === 'event' &&
    m.topic === 'generator' &&
    JSON.stringify(m.data?.inputs.find((i: any) => i.name === 'color')?.value) === '[1,0,0,1]';
  const ev = await c.next(red);
  assert.equal(ev.data, await get('/api/v1/sources/current/params'));
  await done(c);
});

test.run();
