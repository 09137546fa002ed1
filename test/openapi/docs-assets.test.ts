// Checks the docs page assets come from the local swagger-ui-dist and that the asset route serves only known names.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../src/errors.js';
import type { RouteDef, RouteRequest } from '../../src/http/route.js';
import { docsRoutes, loadDocsAssets, type DocsAssets } from '../../src/api/docs.js';

let assets: DocsAssets;
let routes: RouteDef[];

test.before(async () => {
  assets = await loadDocsAssets();
  routes = docsRoutes({ assets, openapiYaml: () => 'openapi: 3.0.3\n' });
});

const text = (b: Uint8Array | string | undefined): string => (typeof b === 'string' ? b : new TextDecoder().decode(b));

function find(method: string, path: string): RouteDef {
  const r = routes.find((x) => x.method === method && x.path === path);
  if (r === undefined) throw new Error(`no route ${method} ${path}`);
  return r;
}

function request(params: Record<string, string> = {}): RouteRequest<any, any, any> {
  return { method: 'GET', url: '/', query: {}, params, body: undefined, headers: {} as RouteRequest['headers'], aborted: false };
}

test('loads the page, stylesheet, bundle, preset and init script', () => {
  for (const name of ['index.html', 'swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-init.js']) {
    const f = assets.files.get(name);
    assert.ok(f, name);
    assert.ok(f.body.byteLength > 0, name);
  }
  assert.ok(assets.files.get('swagger-ui-bundle.js')!.body.byteLength > 100_000);
  assert.match(assets.files.get('swagger-ui.css')!.contentType, /^text\/css/);
  assert.match(assets.files.get('swagger-init.js')!.contentType, /^text\/javascript/);
  const init = text(assets.files.get('swagger-init.js')!.body);
  for (const s of [
    "url: '/api/v1/openapi.yaml'",
    "dom_id: '#swagger-ui'",
    'validatorUrl: null',
    'persistAuthorization: true',
    "layout: 'StandaloneLayout'",
  ]) {
    assert.ok(init.includes(s), s);
  }
});

test('the HTML loads only local assets and has no inline script', () => {
  const html = text(assets.files.get('index.html')!.body);
  assert.match(html, /<title>vjd API<\/title>/);
  assert.not.match(html, /https?:\/\//);
  assert.not.match(html, /<script(?![^>]*\bsrc=)[^>]*>/);
  const refs = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);
  assert.ok(refs.length >= 4);
  for (const ref of refs) {
    assert.ok(ref.startsWith('/api/v1/docs/'), ref);
    assert.ok(assets.files.has(ref.slice('/api/v1/docs/'.length)), ref);
  }
});

test('routes: page, YAML and assets with their headers; all open without a key', async () => {
  assert.ok(routes.every((r) => r.auth === 'none'));
  const page = await find('GET', '/api/v1/docs').handler(request());
  assert.is(page.contentType, 'text/html; charset=utf-8');
  assert.is(page.headers?.['Cache-Control'], 'no-cache');
  assert.match(text(page.body), /swagger-ui/);

  const yaml = await find('GET', '/api/v1/openapi.yaml').handler(request());
  assert.is(yaml.contentType, 'application/yaml; charset=utf-8');
  assert.is(yaml.body, 'openapi: 3.0.3\n');
  assert.is(yaml.headers?.['Cache-Control'], 'no-cache');

  const assetRoute = find('GET', '/api/v1/docs/:asset');
  assert.is(assetRoute.hidden, true);
  const css = await assetRoute.handler(request({ asset: 'swagger-ui.css' }));
  assert.is(css.body, assets.files.get('swagger-ui.css')!.body);
  assert.is(css.headers?.['Cache-Control'], 'public, max-age=86400');
});

test('asset route answers NOT_FOUND for traversal and unknown names', async () => {
  const assetRoute = find('GET', '/api/v1/docs/:asset');
  for (const name of ['../package.json', 'nope.js', 'package.json', '__proto__', 'constructor', '']) {
    try {
      await assetRoute.handler(request({ asset: name }));
      assert.unreachable(name);
    } catch (err) {
      assert.instance(err, ApiError, name);
      assert.is((err as ApiError).code, 'NOT_FOUND');
      assert.is((err as ApiError).status, 404);
    }
  }
  const bad = assetRoute.invalid?.('params', 'too long', {});
  assert.is(bad?.code, 'NOT_FOUND');
});

test.run();
