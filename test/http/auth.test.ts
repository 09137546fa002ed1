// API key over real HTTP: every protected operation in the served OpenAPI answers 401 without or with a wrong key,
// both header forms work, exempt routes stay open, and the key never reaches the log.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import YAML from 'yaml';
import { startServer, req, type TestServer } from '../helpers/server.js';

const KEY = 'k3y-for-tests-7f1d2c9a';
let s: TestServer;
const ops: Array<{ method: string; path: string; open: boolean }> = [];

const sampleBody = (path: string): unknown =>
  path.endsWith('/dimmer') ? { value: 0.5 } : path.endsWith('/blackout') ? { enabled: false } : {};

test.before(async () => {
  s = await startServer({ config: { server: { apiKey: KEY } } });
  const doc = YAML.parse((await req('GET', `${s.base}/api/v1/openapi.yaml`)).text);
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      // HEAD mirrors GET without a body, and OPTIONS (the preflight) is open by design; both are checked elsewhere.
      if (method !== 'get' && method !== 'post' && method !== 'delete') continue;
      const open = Array.isArray(op.security) && op.security.length === 0;
      // A position parameter matches digits only (anything else is no route at all: 404 before the key).
      ops.push({ method: method.toUpperCase(), path: path.replace(/\{(index|layer)\}/g, '1').replace(/\{[^}]+\}/g, 'x'), open });
    }
  }
});
test.after(async () => {
  await s.cleanup();
});

test('the served description has protected and open operations', () => {
  assert.ok(ops.filter((o) => !o.open).length >= 4);
  assert.equal(
    ops
      .filter((o) => o.open)
      .map((o) => o.path)
      .sort(),
    ['/api/v1/docs', '/api/v1/openapi.yaml', '/api/v1/status'],
  );
});

test('every protected operation: 401 UNAUTHORIZED without a key and with a wrong key', async () => {
  for (const op of ops.filter((o) => !o.open)) {
    for (const headers of <Record<string, string>[]>[
      {},
      { 'x-api-key': 'wrong' },
      { authorization: `Bearer ${KEY}x` },
      { authorization: KEY },
      { 'x-api-key': 'z'.repeat(5000) },
    ]) {
      const r = await req(op.method, `${s.base}${op.path}`, { headers, body: op.method === 'POST' ? sampleBody(op.path) : undefined });
      assert.is(r.status, 401, `${op.method} ${op.path} ${JSON.stringify(headers).slice(0, 60)}`);
      assert.is(r.headers['www-authenticate'], 'Bearer realm="vjd"');
      assert.is(r.headers['access-control-allow-origin'], '*');
      const b = r.json();
      assert.equal(Object.keys(b).sort(), ['code', 'error', 'message']);
      assert.is(b.code, 'UNAUTHORIZED');
      assert.not.match(r.text, KEY);
    }
  }
});

test('both header forms are accepted', async () => {
  for (const op of ops.filter((o) => !o.open)) {
    for (const headers of <Record<string, string>[]>[
      { 'x-api-key': KEY },
      { authorization: `Bearer ${KEY}` },
      { authorization: `bearer ${KEY}` },
    ]) {
      // The MJPEG preview never ends: HEAD goes through the same key check and answers with its headers only.
      const method = op.path.endsWith('.mjpeg') ? 'HEAD' : op.method;
      const r = await req(method, `${s.base}${op.path}`, { headers, body: op.method === 'POST' ? sampleBody(op.path) : undefined });
      assert.ok(r.status !== 401, `${op.method} ${op.path} accepted with ${Object.keys(headers)[0]}`);
      assert.ok(r.status < 500, `${op.method} ${op.path} -> ${r.status}`);
    }
  }
});

test('exempt routes are reachable without a key: status, docs and its assets, openapi.yaml', async () => {
  for (const p of [
    '/api/v1/status',
    '/api/v1/docs',
    '/api/v1/docs/swagger-ui.css',
    '/api/v1/docs/swagger-init.js',
    '/api/v1/openapi.yaml',
  ]) {
    const r = await req('GET', `${s.base}${p}`);
    assert.is(r.status, 200, p);
  }
  const st = (await req('GET', `${s.base}/api/v1/status`)).json();
  assert.is(st.server.apiKeyRequired, true);
});

test('preflight needs no key', async () => {
  const r = await req('OPTIONS', `${s.base}/api/v1/capabilities`);
  assert.is(r.status, 204);
});

test('the key never appears in the log', async () => {
  await req('GET', `${s.base}/api/v1/capabilities`, { headers: { 'x-api-key': KEY } });
  await s.stop();
  assert.ok(s.logs().length > 0);
  assert.not.ok(s.logs().includes(KEY), 'log contains the API key');
  assert.not.ok(s.logs().includes('k3y-for'), 'log contains part of the API key');
});

test.run();
