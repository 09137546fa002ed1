// A layer thumbnail over real HTTP revalidates like the other thumbnails: If-None-Match with the ETag it just sent
// answers 304 while the output has not moved on, and a 200 to If-None-Match always carries a newer ETag. With a
// second visible layer both are drawn in every frame (as for a strip of layer thumbnails); a low frame rate leaves
// time between frames for the second request.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { req, startServer, type Res, type TestServer } from '../helpers/server.js';
import { DocumentedAnswers, retryDocumented } from '../helpers/documented.js';

let s: TestServer;
const documented = new DocumentedAnswers();
const PATH = '/thumbnails/layer/1?size=64';
const get = (headers: Record<string, string> = {}): Promise<Res> =>
  retryDocumented(`/api/v1${PATH}`, () => req('GET', `${s.base}/api/v1${PATH}`, { headers, timeoutMs: 15000 }), documented);

test.before(async () => {
  s = await startServer({
    config: { render: { width: 320, height: 180, fps: 2, maxLayers: 2 }, live: { test: [], streams: [], v4l2: { enabled: false } } },
  });
  const select = await req('POST', `${s.base}/api/v1/sources/select`, { body: { id: 'source:solid_color' }, timeoutMs: 20000 });
  assert.is(select.status, 200, select.text);
  const add = await req('POST', `${s.base}/api/v1/layers/add`, { body: { source: 'source:checkerboard', opacity: 0.5 }, timeoutMs: 20000 });
  assert.is(add.status, 200, add.text);
});

test.after(async () => {
  console.log(documented.summary());
  await s?.cleanup();
});

test('If-None-Match with the ETag just sent: 304 while no frame passed; a 200 carries a newer ETag', async () => {
  let notModified: Res | null = null;
  let etag = '';
  // Each pair races the next frame: most pairs fit between two frames, a few see the output move on.
  for (let i = 0; i < 40 && notModified === null; i++) {
    const first = await get();
    assert.is(first.status, 200, first.text.slice(0, 200));
    etag = String(first.headers.etag);
    assert.match(etag, /^"layer-64x36-png-[^"]+"$/);
    const again = await get({ 'If-None-Match': etag });
    if (again.status === 304) notModified = again;
    else {
      assert.is(again.status, 200, again.text.slice(0, 200));
      assert.is.not(again.headers.etag, etag, 'a 200 to If-None-Match is a newer image, never the one the client holds');
    }
  }
  assert.ok(notModified, 'a 304 in 40 tries');
  assert.is(notModified!.body.length, 0);
  assert.is(notModified!.headers.etag, etag);
  assert.is(notModified!.headers['cache-control'], 'no-cache');
});

test.run();
