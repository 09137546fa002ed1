// The control page's files over real HTTP: redirect, caching by content hash, ETag/304, gzip, no key needed for the
// files even with a key set, Host rules like every route, and the bundle within its size budget.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gunzipSync } from 'node:zlib';
import { req, startServer, type TestServer } from '../helpers/server.js';

const KEY = 'ui-static-key';
let s: TestServer;
let assets: string[] = [];

test.before(async () => {
  s = await startServer({ config: { server: { apiKey: KEY } } });
});
test.after(async () => {
  await s.cleanup();
});

test('/ and /ui redirect to /ui/', async () => {
  for (const p of ['/', '/ui']) {
    const r = await req('GET', `${s.base}${p}`);
    assert.is(r.status, 302, p);
    assert.is(r.headers.location, '/ui/');
  }
});

test('/ui/ is the page, revalidated on every load, without the key, loading only hashed files from /ui/', async () => {
  const r = await req('GET', `${s.base}/ui/`);
  assert.is(r.status, 200);
  assert.match(String(r.headers['content-type']), /^text\/html/);
  assert.is(r.headers['cache-control'], 'no-cache');
  assert.ok(r.headers.etag, 'ETag');
  assert.match(String(r.headers['content-security-policy']), /default-src 'self'/);
  // The icon is inline (data:), so the browser asks for no /favicon.ico.
  assert.match(r.text, /<link rel="icon" href="data:,">/);
  assets = [...r.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((a) => !a.startsWith('data:'));
  assert.is(assets.length, 2, assets.join(' '));
  for (const a of assets) assert.match(a, /^\/ui\/app-[A-Z0-9]{8}\.(js|css)$/);
  const again = await req('GET', `${s.base}/ui/`, { headers: { 'if-none-match': String(r.headers.etag) } });
  assert.is(again.status, 304);
  assert.is(again.body.byteLength, 0);
});

test('hashed files: immutable for a year, ETag and 304, gzip when asked, identical bytes either way', async () => {
  assert.is(assets.length, 2, 'the page names its files');
  for (const a of assets) {
    const plain = await req('GET', `${s.base}${a}`);
    assert.is(plain.status, 200, a);
    assert.is(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.is(plain.headers['content-encoding'], undefined);
    assert.match(String(plain.headers.vary), /Accept-Encoding/);
    const gz = await req('GET', `${s.base}${a}`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.is(gz.headers['content-encoding'], 'gzip', a);
    assert.ok(gunzipSync(gz.body).equals(plain.body), 'the gzip body unpacks to the plain one');
    assert.is.not(gz.headers.etag, plain.headers.etag, 'one validator per representation');
    const cond = await req('GET', `${s.base}${a}`, { headers: { 'accept-encoding': 'gzip', 'if-none-match': String(gz.headers.etag) } });
    assert.is(cond.status, 304);
    const refused = await req('GET', `${s.base}${a}`, { headers: { 'accept-encoding': 'gzip;q=0' } });
    assert.is(refused.headers['content-encoding'], undefined, 'q=0 refuses gzip');
  }
});

test('the shipped JS + CSS stay within 120 KB gzipped', async () => {
  assert.is(assets.length, 2, 'the page names its files');
  let total = 0;
  for (const a of [...assets, '/ui/']) {
    const r = await req('GET', `${s.base}${a}`, { headers: { 'accept-encoding': 'gzip' } });
    total += r.body.byteLength;
  }
  console.log(`  page bundle: ${(total / 1024).toFixed(1)} KiB gzipped (index.html + JS + CSS)`);
  assert.ok(total <= 120 * 1024, `${total} bytes`);
});

test('unknown names and path tricks are 404; a foreign Host is refused as on every route', async () => {
  for (const p of ['/ui/nope.js', '/ui/../package.json', '/ui/%2e%2e/package.json', '/ui/app.js']) {
    const r = await req('GET', `${s.base}${p}`);
    assert.is(r.status, 404, p);
  }
  const evil = await req('GET', `${s.base}/ui/`, { headers: { host: 'evil.example:80' } });
  assert.is(evil.status, 421);
});

test('the API behind the page still wants the key', async () => {
  const r = await req('GET', `${s.base}/api/v1/effects`);
  assert.is(r.status, 401);
});

test.run();
