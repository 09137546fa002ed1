// Foundation over real HTTP: status, capabilities, CORS, error bodies, body limits, JSON errors, 404/405, ETag/304.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from 'node:net';
import { startServer, req, type TestServer } from '../helpers/server.js';
import { ERROR_CODES } from '../../src/errors.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;

test.before(async () => {
  s = await startServer();
});
test.after(async () => {
  await s.cleanup();
});

function assertCors(h: Record<string, unknown>): void {
  assert.is(h['access-control-allow-origin'], '*');
  assert.is(h['access-control-expose-headers'], 'ETag, Content-Range, Accept-Ranges, Content-Length');
}

function assertErrorBody(body: any, code: string): void {
  assert.is(body.error, true);
  assert.is(body.code, code);
  assert.type(body.message, 'string');
  assert.ok(body.message.length > 0);
  assert.ok(ERROR_CODES.includes(body.code));
  assert.equal(
    Object.keys(body).filter((k) => !['error', 'code', 'message', 'details'].includes(k)),
    [],
  );
}

test('GET /status reports name, version, state and the native uWS engine', async () => {
  const r = await req('GET', api('/status'));
  assert.is(r.status, 200);
  assert.match(String(r.headers['content-type']), /^application\/json/);
  assertCors(r.headers);
  const b = r.json();
  assert.is(b.name, 'vjd');
  assert.match(b.version, /^\d+\.\d+\.\d+/);
  assert.is(b.apiVersion, 'v1');
  assert.is(b.status, 'Server Running');
  assert.is(b.httpEngine.name, 'uWebSockets.js');
  assert.is(b.httpEngine.native, true);
  assert.type(b.uptimeSeconds, 'number');
  assert.is(b.server.port, s.port);
  assert.is(b.server.host, '127.0.0.1');
  assert.equal(b.server.addresses, [], 'loopback bind: no addresses for other devices');
  assert.is(b.server.apiKeyRequired, false);
  assert.is(b.license.tier, 'community');
  assert.is(b.license.effectCeiling, 8);
  assert.equal(Object.keys(b.render).sort(), [
    'contextRestarts',
    'display',
    'droppedFrames',
    'fps',
    'frameMsP50',
    'frameMsP99',
    'frames',
    'fusedPrograms',
    'fusedRuns',
    'gl',
    'height',
    'passes',
    'programCompiles',
    'programs',
    'readback',
    'renderHeight',
    'renderWidth',
    'renderer',
    'running',
    'scale',
    'scaleLimit',
    'targetFps',
    'width',
  ]);
  assert.equal([b.render.width, b.render.height, b.render.targetFps], [320, 180, 30], 'the configured render size and rate');
  assert.is(b.render.running, true);
});

test('GET /capabilities lists served features, tier and limits', async () => {
  const r = await req('GET', api('/capabilities'));
  assert.is(r.status, 200);
  const b = r.json();
  assert.is(b.apiVersion, 'v1');
  assert.ok(b.features.includes('status'));
  assert.ok(b.features.includes('capabilities'));
  assert.ok(b.features.includes('docs'));
  assert.ok(b.features.includes('openapi'));
  assert.ok(b.features.includes('global'));
  for (const f of ['effects-catalogue', 'effects', 'browse', 'sources', 'live-inputs', 'media-files']) assert.ok(b.features.includes(f), f);
  assert.not.ok(b.features.includes('test'), 'test hooks are no feature');
  assert.is(b.license.tier, 'community');
  assert.is(b.limits.effectCeiling, 8);
  assert.is(b.limits.bodyLimitBytes, 65536);
  assert.is(b.limits.browse.pathMaxLength, 512);
  assert.is(b.limits.thumbnails.sizeMax, 512);
  assert.is(b.limits.thumbnails.queueRejectAbove, 32);
  assert.is(b.limits.thumbnails.queueResumeAt, 16);
});

test('unknown route: 404 NOT_FOUND JSON with CORS', async () => {
  for (const p of ['/api/v1/nope', '/nope', '/api/v2/status', '/api/v1/status/extra']) {
    const r = await req('GET', `${s.base}${p}`);
    assert.is(r.status, 404, p);
    assertCors(r.headers);
    assertErrorBody(r.json(), 'NOT_FOUND');
  }
});

test('wrong method on a known route: 405 METHOD_NOT_ALLOWED with Allow', async () => {
  const r = await req('POST', api('/status'), { body: {} });
  assert.is(r.status, 405);
  assert.is(r.headers['allow'], 'GET, HEAD, OPTIONS');
  assertCors(r.headers);
  assertErrorBody(r.json(), 'METHOD_NOT_ALLOWED');
  const d = await req('DELETE', api('/global'));
  assert.is(d.status, 405);
  const g = await req('GET', api('/global/dimmer'));
  assert.is(g.status, 405);
  assert.is(g.headers['allow'], 'POST, OPTIONS');
});

test('a position parameter is digits only: /effects/<not digits> is no route (404 for every method); /effects/3 routes', async () => {
  for (const p of ['/effects/zz-nothing', '/effects/zz-nothing?x=1', '/effects/-1', '/effects/1.5', '/effects/%31']) {
    for (const method of ['GET', 'POST', 'DELETE', 'PUT', 'PATCH']) {
      const r = await req(method, api(p), method === 'POST' ? { body: {} } : {});
      assert.is(r.status, 404, `${method} ${p}`);
      assert.is(r.headers['allow'], undefined, `${method} ${p}: no Allow`);
      assertErrorBody(r.json(), 'NOT_FOUND');
    }
    assert.is((await req('HEAD', api(p))).status, 404, `HEAD ${p}`);
  }
  // A position still reaches the route: nothing at 3 in an empty chain is the route's own 404, with details.
  const three = await req('GET', api('/effects/3'));
  assert.is(three.status, 404);
  assertErrorBody(three.json(), 'ITEM_NOT_FOUND');
  assert.is(three.json().details.requested, 3);
  assert.is((await req('HEAD', api('/effects/3'))).status, 404);
  const post = await req('POST', api('/effects/3'), { body: {} });
  assert.is(post.status, 405);
  assert.is(post.headers['allow'], 'GET, HEAD, OPTIONS');
  // Static routes beside the template are untouched.
  assert.is((await req('GET', api('/effects/available'))).status, 200);
  assert.is((await req('POST', api('/effects/available'), { body: {} })).status, 405);
});

test('preflight OPTIONS: 204 without auth, allowed methods and headers', async () => {
  const r = await req('OPTIONS', api('/effects'), {
    headers: { origin: 'http://panel.local', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key' },
  });
  assert.is(r.status, 204);
  assert.is(r.text, '');
  assertCors(r.headers);
  assert.is(r.headers['access-control-allow-methods'], 'GET, POST, DELETE, OPTIONS');
  assert.is(r.headers['access-control-allow-headers'], 'Content-Type, X-API-Key, Authorization, If-None-Match, Range');
});

test('POST /global/blackout and /global/dimmer change and report state', async () => {
  let r = await req('POST', api('/global/blackout'), { body: { enabled: true } });
  assert.is(r.status, 200);
  assert.equal(r.json(), { success: true, blackout: true, dimmer: 1 });
  r = await req('POST', api('/global/dimmer'), { body: { value: 0.25 } });
  assert.equal(r.json(), { success: true, blackout: true, dimmer: 0.25 });
  r = await req('GET', api('/global'));
  assert.equal(r.json(), { blackout: true, dimmer: 0.25 });
  r = await req('POST', api('/global/blackout'), { body: { enabled: false } });
  assert.equal(r.json(), { success: true, blackout: false, dimmer: 0.25 });
});

test('invalid bodies: 400 INVALID_REQUEST naming the problem; state unchanged', async () => {
  await req('POST', api('/global/dimmer'), { body: { value: 0.5 } });
  const cases: Array<[string, string | Buffer, RegExp]> = [
    ['/global/dimmer', '{"value": 2}', /body\.value/],
    ['/global/dimmer', '{"value": "0.3"}', /body\.value/],
    ['/global/dimmer', '{"value": 1e400}', /body\.value/],
    ['/global/dimmer', '{}', /value/],
    ['/global/blackout', '{"enabled": "yes"}', /body\.enabled/],
    ['/global/blackout', '{"enabled": 1}', /body\.enabled/],
    ['/global/blackout', '[true]', /body/],
    ['/global/blackout', 'null', /body/],
    ['/global/blackout', '{"enabled": tru', /not valid JSON/],
    ['/global/blackout', 'enabled=true', /not valid JSON/],
    ['/global/blackout', '', /must be JSON/],
    ['/global/blackout', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), /UTF-8/],
    ['/global/blackout', '\u0000', /not valid JSON/],
    ['/global/blackout', '['.repeat(30000) + ']'.repeat(30000), /body/],
  ];
  for (const [path, body, msg] of cases) {
    const r = await req('POST', api(path), { body });
    assert.is(r.status, 400, `${path} ${String(body).slice(0, 40)}`);
    assertCors(r.headers);
    const b = r.json();
    assertErrorBody(b, 'INVALID_REQUEST');
    assert.match(b.message, msg);
    assert.is(b.details, undefined, 'no details on INVALID_REQUEST');
  }
  assert.equal((await req('GET', api('/global'))).json(), { blackout: false, dimmer: 0.5 });
});

test('bodies over 64 KiB: 413 PAYLOAD_TOO_LARGE; exactly 64 KiB is read', async () => {
  const big = JSON.stringify({ enabled: true, pad: 'x'.repeat(70 * 1024) });
  const r = await req('POST', api('/global/blackout'), { body: big });
  assert.is(r.status, 413);
  assertCors(r.headers);
  assertErrorBody(r.json(), 'PAYLOAD_TOO_LARGE');
  const pad = 65536 - JSON.stringify({ enabled: true, pad: '' }).length;
  const exact = JSON.stringify({ enabled: true, pad: 'y'.repeat(pad) });
  assert.is(Buffer.byteLength(exact), 65536);
  const ok = await req('POST', api('/global/blackout'), { body: exact });
  assert.is(ok.status, 200, 'extra fields are ignored and 64 KiB is within the limit');
  await req('POST', api('/global/blackout'), { body: { enabled: false } });
});

test('chunked body over the limit without Content-Length: 413', async () => {
  const chunk = Buffer.alloc(16 * 1024, 0x20);
  const text = await rawExchange(s.port, (sock) => {
    sock.write(
      `POST /api/v1/global/blackout HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    // Stream chunks like a real client; once the server has answered (and closed) there is nothing more to send.
    let sent = 0;
    let answered = false;
    sock.once('data', () => (answered = true));
    const next = (): void => {
      if (answered || sock.destroyed) return;
      if (sent++ < 6) sock.write(`${chunk.length.toString(16)}\r\n${chunk.toString()}\r\n`, () => setTimeout(next, 5));
      else sock.write('0\r\n\r\n');
    };
    next();
  });
  assert.match(text, /^HTTP\/1\.1 413/);
  assert.match(text, /PAYLOAD_TOO_LARGE/);
});

test('ETag and 304 on openapi.yaml, with CORS on the 304', async () => {
  const first = await req('GET', api('/openapi.yaml'));
  assert.is(first.status, 200);
  const etag = first.headers['etag'];
  assert.type(etag, 'string');
  const again = await req('GET', api('/openapi.yaml'), { headers: { 'if-none-match': String(etag) } });
  assert.is(again.status, 304);
  assert.is(again.text, '');
  assert.is(again.headers['etag'], etag);
  assert.is(again.headers['cache-control'], 'no-cache');
  assertCors(again.headers);
  const stale = await req('GET', api('/openapi.yaml'), { headers: { 'if-none-match': '"other"' } });
  assert.is(stale.status, 200);
});

test('pipelined requests after a 304 and a preflight: framing stays correct', async () => {
  const etag = String((await req('GET', api('/openapi.yaml'))).headers['etag']);
  const text = await rawExchange(s.port, (sock) => {
    sock.write(
      `GET /api/v1/openapi.yaml HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: ${etag}\r\n\r\n` +
        `OPTIONS /api/v1/global HTTP/1.1\r\nHost: localhost\r\n\r\n` +
        `GET /api/v1/status HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    );
  });
  const statuses = [...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => m[1]);
  assert.equal(statuses, ['304', '204', '200']);
  const head304 = text.split('\r\n\r\n')[0]!;
  assert.not.match(head304, /Content-Length: [1-9]/i, 'a 304 announces no body');
  assert.match(text, /"name":"vjd"/);
});

test('the server survives a client that disconnects mid-body', async () => {
  await rawExchange(s.port, (sock) => {
    sock.write('POST /api/v1/global/dimmer HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n{"value":');
    setTimeout(() => sock.destroy(), 50);
  }).catch(() => undefined);
  const r = await req('GET', api('/status'));
  assert.is(r.status, 200);
});

/** Writes raw bytes on a socket and collects what the server sends until it closes or goes quiet. */
function rawExchange(port: number, write: (sock: import('node:net').Socket) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    let out = '';
    // Up to 10 s for the first byte (a loaded machine), then 300 ms of quiet ends the exchange.
    let timer = setTimeout(() => sock.destroy(), 10000);
    sock.on('connect', () => write(sock));
    sock.on('data', (d) => {
      out += d.toString();
      clearTimeout(timer);
      timer = setTimeout(() => sock.destroy(), 300);
    });
    sock.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    sock.on('error', (e) => (out ? resolve(out) : reject(e)));
    sock.on('end', () => sock.destroy());
  });
}

test.run();
