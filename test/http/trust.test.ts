// Cross-site and protocol rules over real HTTP: bodies must be JSON by type (415), the Host must be one this
// server answers for (421, DNS rebinding), private-network preflights are granted only on opt-in, HEAD is served
// by every GET route, thumbnail sizes are decimal only, and a route's methods are not told without the key.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from 'node:net';
import { hostname } from 'node:os';
import { request as httpRequest } from 'node:http';
import { writeFile } from 'node:fs/promises';
import YAML from 'yaml';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';
import { decodeImage } from '../helpers/images.js';

const KEY = 'trust-key-5b1e0c';
let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const auth = { 'x-api-key': KEY };

test.before(async () => {
  s = await startServer({ config: { server: { apiKey: KEY } } });
});
test.after(async () => {
  await s.cleanup();
});

/** One raw request on its own socket, so headers can be left out or set exactly as a browser would send them. */
function raw(text: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const sock = connect(s.port, '127.0.0.1');
    let data = '';
    sock.on('data', (c) => {
      data += c.toString('latin1');
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = data.slice(0, end);
      const len = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      if (data.length - end - 4 >= len) {
        sock.destroy();
        resolve({ status: Number(head.split(' ')[1]), head, body: data.slice(end + 4, end + 4 + len) });
      }
    });
    sock.on('error', reject);
    sock.setTimeout(10000, () => sock.destroy(new Error('raw request timed out')));
    sock.write(text);
  });
}

const global = async (): Promise<{ blackout: boolean; dimmer: number }> => (await req('GET', api('/global'), { headers: auth })).json();

test('a body without the JSON content type is refused with 415 and changes nothing', async () => {
  const before = await global();
  const body = JSON.stringify({ enabled: !before.blackout });
  // What a cross-site page can send without a preflight: text/plain fetch and sendBeacon, forms, and no type at all.
  for (const type of [
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonx',
    null,
  ]) {
    const typeLine = type === null ? '' : `Content-Type: ${type}\r\n`;
    const r = await raw(
      `POST /api/v1/global/blackout HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${KEY}\r\n${typeLine}Content-Length: ${body.length}\r\n\r\n${body}`,
    );
    assert.is(r.status, 415, `Content-Type ${type}: ${r.head}`);
    const b = JSON.parse(r.body);
    assert.is(b.code, 'UNSUPPORTED_MEDIA_TYPE');
    assert.match(r.head, /access-control-allow-origin: \*/i);
  }
  for (const path of ['/effects/add', '/sources/select', '/actions/global.blackout-toggle', '/palettes/next', '/effects/toggle']) {
    const r = await req('POST', api(path), {
      headers: { ...auth, 'content-type': 'text/plain' },
      body: '{"type":"invert","name":"x","index":1}',
    });
    assert.is(r.status, 415, `${path}: ${r.text}`);
  }
  assert.equal(await global(), before, 'no refused request changed the show');
  assert.is((await req('GET', api('/effects'), { headers: auth })).json().count, 0, 'no effect was added');
});

test('JSON with parameters and in any case is accepted; an empty POST needs no type', async () => {
  for (const type of ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', ' application/json ;charset=UTF-8']) {
    const r = await req('POST', api('/global/dimmer'), { headers: { ...auth, 'content-type': type }, body: '{"value":0.5}' });
    assert.is(r.status, 200, `${type}: ${r.text}`);
  }
  const r = await raw(`POST /api/v1/palettes/next HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${KEY}\r\nContent-Length: 0\r\n\r\n`);
  assert.is(r.status, 200, r.body);
});

test('a Host this server does not answer for gets 421 on every method and changes nothing', async () => {
  const before = await global();
  for (const host of ['evil.example', 'evil.example:8080', `127.0.0.1.evil.example`, 'localhost.evil.example', '[::2]', 'a'.repeat(400)]) {
    for (const [method, path, body] of [
      ['GET', '/status', ''],
      ['GET', '/effects', ''],
      ['POST', '/global/blackout', JSON.stringify({ enabled: !before.blackout })],
      ['OPTIONS', '/global/blackout', ''],
      ['DELETE', '/global/blackout', ''],
    ] as const) {
      const r = await raw(
        `${method} /api/v1${path} HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      assert.is(r.status, 421, `${method} ${path} Host ${host.slice(0, 40)}: ${r.head}`);
      if (method !== 'OPTIONS') assert.is(JSON.parse(r.body).code, 'MISDIRECTED_REQUEST');
    }
  }
  assert.equal(await global(), before);
});

test('loopback names and addresses, the machine name and its .local name are answered', async () => {
  const name = hostname().toLowerCase();
  for (const host of [
    'localhost',
    `localhost:${s.port}`,
    '127.0.0.1',
    `127.0.0.1:${s.port}`,
    '127.1.2.3',
    '[::1]',
    `[::1]:${s.port}`,
    'vjd.localhost',
    name,
    `${name}.local:${s.port}`,
    'LOCALHOST.',
  ]) {
    const r = await raw(`GET /api/v1/effects HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${KEY}\r\n\r\n`);
    assert.is(r.status, 200, `Host ${host}: ${r.head}`);
  }
});

test('server.allowedHosts and server.allowPrivateNetwork apply on a config reload', async () => {
  const preflight = (): Promise<Res2> =>
    raw(
      `OPTIONS /api/v1/global/blackout HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://panel.example\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Private-Network: true\r\n\r\n`,
    );
  type Res2 = { status: number; head: string };
  const first = await preflight();
  assert.is(first.status, 204);
  assert.not.match(first.head, /access-control-allow-private-network/i, 'no private-network grant by default');
  assert.is((await raw(`GET /api/v1/effects HTTP/1.1\r\nHost: vj-box.example\r\nX-API-Key: ${KEY}\r\n\r\n`)).status, 421);

  await writeFile(
    s.configFile!,
    JSON.stringify({
      render: { width: 320, height: 180, fps: 30 },
      server: { host: '127.0.0.1', port: s.port, apiKey: KEY, allowedHosts: ['VJ-Box.example'], allowPrivateNetwork: true },
    }),
  );
  await waitUntil(
    async () => (await raw(`GET /api/v1/effects HTTP/1.1\r\nHost: vj-box.example:${s.port}\r\nX-API-Key: ${KEY}\r\n\r\n`)).status === 200,
    20000,
    200,
  );
  const granted = await preflight();
  assert.is(granted.status, 204);
  assert.match(granted.head, /access-control-allow-private-network: true/i);

  // A bad value is a config error naming the key; the running settings stay.
  await writeFile(
    s.configFile!,
    JSON.stringify({ server: { host: '127.0.0.1', port: s.port, apiKey: KEY, allowedHosts: 'vj-box.example' } }),
  );
  await s.waitForLog('server.allowedHosts', 20000);
  assert.is((await raw(`GET /api/v1/effects HTTP/1.1\r\nHost: vj-box.example\r\nX-API-Key: ${KEY}\r\n\r\n`)).status, 200);
});

/** A GET's status and headers; the connection is closed once they are in (an endless answer). */
function headersOf(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const r = httpRequest(api(path), { headers, agent: false }, (res) => {
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
      r.destroy();
    });
    r.on('error', () => undefined);
    r.once('error', reject);
    r.end();
  });
}

/** HEAD through node:http, which knows a HEAD answer has no body even with a Content-Length. */
function head(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; bytes: number }> {
  return new Promise((resolve, reject) => {
    const r = httpRequest(api(path), { method: 'HEAD', headers, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
    });
    r.on('error', reject);
    r.end();
  });
}

test('HEAD is answered on every GET route with the GET headers and no body', async () => {
  const doc = YAML.parse((await req('GET', api('/openapi.yaml'))).text);
  const paths = Object.entries<any>(doc.paths)
    .filter(([, item]) => item.get)
    .map(([p]) =>
      p
        .replace('/api/v1', '')
        .replace('{id}', 'bars')
        .replace('{mediaId}', 'nothing')
        .replace('{layer}', '1')
        .replace(/\{[^}]+\}/g, 'x'),
    );
  assert.ok(paths.length >= 15, `GET routes found: ${paths.length}`);
  for (const path of paths) {
    const h = await head(path, auth);
    if (path.endsWith('.mjpeg')) {
      // The MJPEG preview never ends: its GET is read up to the headers; neither answer has a length.
      const g = await headersOf(path, auth);
      assert.is(h.status, g.status, `HEAD ${path}`);
      assert.is(h.bytes, 0, `HEAD ${path} has no body`);
      for (const name of ['content-type', 'cache-control', 'access-control-allow-origin'])
        assert.is(h.headers[name], g.headers[name], `HEAD ${path} ${name}`);
      continue;
    }
    const g = await req('GET', api(path), { headers: auth });
    assert.is(h.status, g.status, `HEAD ${path}`);
    assert.is(h.bytes, 0, `HEAD ${path} has no body`);
    for (const name of ['content-type', 'cache-control', 'access-control-allow-origin'])
      assert.is(h.headers[name], g.headers[name], `HEAD ${path} ${name}`);
    // JSON routes are byte-stable between two reads, except those that carry live values (frame counts, the beat
    // phase, a clip's position); images change per frame: for those only the length's presence is compared.
    const live = ['/status', '/tempo', '/transport', '/audio', '/modulation'].some((p) => path.startsWith(p));
    if (String(g.headers['content-type']).startsWith('application/json') && !live) {
      assert.is(h.headers['content-length'], String(g.body.length), `HEAD ${path} content-length`);
    } else assert.ok(Number(h.headers['content-length']) > 0, `HEAD ${path} content-length`);
  }
  const noKey = await head('/effects', {});
  assert.is(noKey.status, 401, 'HEAD needs the key like GET');
  const etag = (await req('GET', api('/thumbnails/palette/neon-club'), { headers: auth })).headers.etag as string;
  assert.is((await head('/thumbnails/palette/neon-club', { ...auth, 'if-none-match': etag })).status, 304, 'HEAD honours If-None-Match');
});

test('thumbnail size is decimal: hex, octal, binary and exponent forms take the default', async () => {
  const width = async (size: string): Promise<number> => {
    const r = await req('GET', api(`/thumbnails/palette/neon-club?size=${encodeURIComponent(size)}`), { headers: auth });
    assert.is(r.status, 200, `size=${size}`);
    return decodeImage(r.body, r.headers['content-type'] as string).width;
  };
  for (const size of ['0x100', '0X40', '0o100', '0b1000000', '1e2', '2.5e2', 'Infinity', '256.5', ''])
    assert.is(await width(size), 192, `size=${size}`);
  assert.is(await width('256'), 256);
  assert.is(await width(' 100 '), 100);
  assert.is(await width('9999'), 512, 'clamped');
  assert.is(await width('64.0'), 64);
});

test('a wrong method on a protected route answers 401 without the key and 405 with it', async () => {
  const noKey = await req('GET', api('/global/blackout'));
  assert.is(noKey.status, 401);
  assert.is(noKey.headers.allow, undefined, 'the methods are not told without the key');
  const withKey = await req('GET', api('/global/blackout'), { headers: auth });
  assert.is(withKey.status, 405);
  assert.is(withKey.headers.allow, 'POST, OPTIONS');
  const getRoute = await req('POST', api('/effects'), { headers: auth, body: {} });
  assert.is(getRoute.status, 405);
  assert.is(getRoute.headers.allow, 'GET, HEAD, OPTIONS');
  // The open routes stay open whatever the method.
  assert.is((await req('POST', api('/status'), { body: {} })).status, 405);
});

test.run();
