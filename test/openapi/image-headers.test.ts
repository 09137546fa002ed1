// The served route table's OpenAPI description: every GET that answers an image declares `ETag` and `Cache-Control`
// on its 200 and on its 304, as the thumbnail routes send them. The table is built from the real route builders over
// stubbed parts (no server): building routes only reads what they describe.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { apiRoutes, type RouteDeps } from '../../src/api/routes.js';
import { buildOpenApi } from '../../src/openapi/build.js';

/** Any property, any call: another stub. Route builders keep the parts for their handlers; none runs here. */
function stub(): any {
  return new Proxy(() => undefined, {
    get: (_t, key) => (key === 'then' ? undefined : key === Symbol.toPrimitive ? () => 0 : stub()),
    apply: () => stub(),
  });
}

let doc: any;

test.before(async () => {
  const routes = await apiRoutes({ ctx: stub(), show: stub(), state: stub(), topics: [], testHooks: false, log: stub() } as RouteDeps);
  doc = buildOpenApi(routes, { version: '0.0.0' });
});

/** Every GET whose 200 has an image content type, as `path`. */
function imageGets(): Array<{ path: string; op: any }> {
  const out: Array<{ path: string; op: any }> = [];
  for (const [path, item] of Object.entries(doc.paths) as Array<[string, any]>) {
    const content = item.get?.responses?.['200']?.content ?? {};
    if (Object.keys(content).some((t) => t.startsWith('image/'))) out.push({ path, op: item.get });
  }
  return out;
}

test('the image routes are found: thumbnails of every kind, media posters and scenes', () => {
  const paths = imageGets().map((g) => g.path);
  for (const p of [
    '/api/v1/thumbnails/live/{id}',
    '/api/v1/thumbnails/current',
    '/api/v1/thumbnails/layer/{id}',
    '/api/v1/thumbnails/source/{id}',
    '/api/v1/thumbnails/palette/{id}',
    '/api/v1/thumbnails/scene/{id}',
    '/media/thumbnails/{id}',
  ]) {
    assert.ok(paths.includes(p), `${p} among ${paths.join(', ')}`);
  }
});

test('every image GET declares ETag and Cache-Control: no-cache on its 200 and its 304', () => {
  for (const { path, op } of imageGets()) {
    for (const status of ['200', '304']) {
      const r = op.responses[status];
      assert.ok(r, `${path}: a ${status} answer`);
      const h = r.headers ?? {};
      assert.ok(h.ETag, `${path} ${status}: ETag declared`);
      assert.is(h.ETag.schema?.type, 'string', `${path} ${status}: ETag is a string`);
      assert.ok(h['Cache-Control'], `${path} ${status}: Cache-Control declared`);
      assert.equal(h['Cache-Control'].schema?.enum, ['no-cache'], `${path} ${status}: Cache-Control is no-cache`);
    }
    assert.ok(
      op.parameters.some((p: any) => p.in === 'header' && p.name === 'If-None-Match'),
      `${path}: If-None-Match is a parameter`,
    );
  }
});

test('the scene thumbnail ETag names its kind, as the route sends it', () => {
  const etag = doc.paths['/api/v1/thumbnails/scene/{id}'].get.responses['200'].headers.ETag.schema;
  assert.ok(new RegExp(etag.pattern).test('"scene-320x180-png-0123456789ab"'), etag.pattern);
});

test.run();
