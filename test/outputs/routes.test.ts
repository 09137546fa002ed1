// Output routes over HTTP: refused URL forms, the 8-output limit, configured outputs that cannot be removed,
// lookups that miss, credentials hidden in `target`, and added outputs that come back after a restart.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

let server: TestServer;
let dataDir = '';
const api = (p: string): string => `${server.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body });
// Outputs are disabled after adding: what these tests check needs no running ffmpeg (except the failing RTMP one).
const config = {
  live: { test: [], streams: [], v4l2: { enabled: false } },
  outputs: [{ id: 'main-rec', name: 'Main recording', kind: 'record', enabled: false }],
};

test.before(async () => {
  dataDir = await tempDir();
  server = await startServer({ config, dataDir });
});

test.after(async () => {
  await server?.cleanup();
});

test('URLs other than srt/udp/rtp/tcp/rtmp(s)/rtsp are refused with 400 naming url', async () => {
  for (const url of [
    'file:///etc/passwd',
    'pipe:1',
    'concat:a|b',
    '-i x',
    'http://x',
    'https://example.com/x',
    'udp://127.0.0.1:5000 -f null',
    'srt:127.0.0.1:9000',
    'udp://',
  ]) {
    const r = await post('/outputs/add', { kind: 'stream', url });
    assert.is(r.status, 400, `${url}: ${r.text}`);
    const body = r.json();
    assert.is(body.code, 'INVALID_REQUEST');
    assert.match(body.message, /url/, url);
  }
  const noUrl = await post('/outputs/add', { kind: 'stream' });
  assert.is(noUrl.status, 400);
  assert.match(noUrl.json().message, /url/);
  const recordUrl = await post('/outputs/add', { kind: 'record', url: 'udp://127.0.0.1:5000' });
  assert.is(recordUrl.status, 400);
  assert.match(recordUrl.json().message, /url/);
  const kind = await post('/outputs/add', { kind: 'display' });
  assert.is(kind.status, 400);
  assert.match(kind.json().message, /kind/);
  const fps = await post('/outputs/add', { kind: 'record', fps: 0 });
  assert.is(fps.status, 400);
  assert.match(fps.json().message, /fps/);
  assert.is((await req('GET', api('/outputs'))).json().count, 1, 'nothing was added');
});

test('a configured output cannot be removed (409), only disabled; unknown ones are 404', async () => {
  const r = await post('/outputs/remove', { id: 'main-rec' });
  assert.is(r.status, 409);
  assert.is(r.json().code, 'OUTPUT_CONFIGURED');
  const byName = await post('/outputs/remove', { name: 'main recording' });
  assert.is(byName.status, 409);
  const missing = await post('/outputs/enabled', { id: 'nope', enabled: true });
  assert.is(missing.status, 404);
  assert.is(missing.json().code, 'ITEM_NOT_FOUND');
  assert.equal(missing.json().details.available, ['main-rec']);
  const neither = await post('/outputs/enabled', { enabled: true });
  assert.is(neither.status, 400);
});

test('credentials never show in target; the 9th output is refused with 403; added outputs survive a restart', async () => {
  const secret = await post('/outputs/add', { kind: 'stream', name: 'cdn', url: 'rtmp://user:hunter2@127.0.0.1:1/live/streamkey123' });
  assert.is(secret.status, 200, secret.text);
  const target = secret.json().current.target as string;
  assert.not.match(target, /hunter2|streamkey123|user/);
  assert.match(target, /\*\*\*/);
  // Nothing listens on port 1: ffmpeg fails, the output waits to retry, and its error line hides the credentials.
  const id = secret.json().current.id as string;
  let cdn: Record<string, any> = {};
  await waitUntil(async () => {
    cdn = (await req('GET', api('/outputs'))).json().items.find((o: { id: string }) => o.id === id);
    return cdn.state === 'retrying' && typeof cdn.lastError === 'string';
  }, 30000);
  assert.not.match(cdn.lastError, /hunter2|streamkey123/);
  assert.not.match(server.logs(), /hunter2|streamkey123/);
  assert.is((await post('/outputs/enabled', { name: 'cdn', enabled: false })).status, 200);
  for (let i = 0; i < 6; i++) {
    const r = await post('/outputs/add', { kind: 'stream', url: `udp://127.0.0.1:${40000 + i}` });
    assert.is(r.status, 200, r.text);
    assert.is((await post('/outputs/enabled', { id: r.json().current.id, enabled: false })).status, 200);
  }
  assert.is((await req('GET', api('/outputs'))).json().count, 8);
  const ninth = await post('/outputs/add', { kind: 'record' });
  assert.is(ninth.status, 403);
  assert.is(ninth.json().code, 'OUTPUT_LIMIT_REACHED');

  const before = (await req('GET', api('/outputs')))
    .json()
    .items.map((o: { id: string; name: string; enabled: boolean }) => [o.id, o.name, o.enabled]);
  await server.stop();
  server = await startServer({ config, dataDir });
  const after = (await req('GET', api('/outputs')))
    .json()
    .items.map((o: { id: string; name: string; enabled: boolean }) => [o.id, o.name, o.enabled]);
  assert.equal(after, before);

  const removed = await post('/outputs/remove', { name: 'cdn' });
  assert.is(removed.status, 200);
  assert.is(removed.json().removed.name, 'cdn');
  assert.is((await req('GET', api('/outputs'))).json().count, 7);
});

test.run();
