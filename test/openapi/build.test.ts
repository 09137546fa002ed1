// Checks the OpenAPI description built from route objects, and that redocly lints it without errors.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Type from 'typebox';
import YAML from 'yaml';
import { ApiError, ERROR_CODES } from '../../src/errors.js';
import { defineRoute, type RouteDef } from '../../src/http/route.js';
import { buildOpenApi, toYaml } from '../../src/openapi/build.js';

// Compiled to dist/test/openapi, so the repository root is three levels up.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const ok = () => ({ json: {} });

const routes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/browse',
    auth: 'required',
    summary: 'List one folder',
    tags: ['browse'],
    operationId: 'browse',
    schema: {
      query: Type.Object({
        path: Type.Optional(Type.String({ minLength: 1, maxLength: 512, pattern: '^[A-Za-z0-9/_-]+$', description: 'folder to list' })),
        depth: Type.Optional(Type.Integer({ minimum: 1, maximum: 3, default: 1, description: 'levels to expand' })),
        mode: Type.Union([Type.Literal('a'), Type.Literal('b')]),
      }),
    },
    invalid: (_where, problem) => new ApiError(problem.startsWith('query.depth') ? 'INVALID_DEPTH' : 'INVALID_PATH'),
    responses: {
      200: {
        description: 'The folder listing.',
        schema: Type.Object({ path: Type.String(), parentPath: Type.Union([Type.String(), Type.Null()]), count: Type.Integer() }),
      },
    },
    errors: ['INVALID_PATH', 'INVALID_DEPTH', 'PATH_NOT_FOUND'],
    handler: ok,
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/thumbnails/live/:id',
    auth: 'required',
    summary: 'Preview image of one live input',
    tags: ['thumbnails'],
    operationId: 'getLiveThumbnail',
    schema: {
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 256, description: 'device id or name' }) }),
      query: Type.Object({ format: Type.Optional(Type.Union([Type.Literal('png'), Type.Literal('jpg')])) }),
    },
    responses: {
      200: {
        description: 'The encoded image.',
        contentType: 'image/png',
        headers: {
          ETag: { description: 'version of the image' },
          'Cache-Control': { description: 'always no-cache', schema: Type.Literal('no-cache') },
        },
      },
      304: { description: 'Not modified.', headers: { ETag: { description: 'version of the image' } } },
    },
    errors: ['DEVICE_NOT_FOUND', 'NOT_FOUND', 'PREVIEW_TIMEOUT', 'THUMBNAIL_QUEUE_FULL'],
    handler: ok,
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/effects/add',
    auth: 'required',
    summary: 'Load an effect',
    description: 'Appends an effect to the end of the chain.',
    tags: ['effects'],
    operationId: 'addEffect',
    schema: { body: Type.Object({ type: Type.String({ minLength: 1 }), idempotent: Type.Optional(Type.Boolean()) }) },
    responses: {
      200: { description: 'The slot of the effect.', schema: Type.Object({ success: Type.Literal(true), index: Type.Integer() }) },
    },
    errors: ['EFFECT_LIMIT_REACHED', 'ITEM_NOT_FOUND', 'EFFECT_LOAD_FAILED', 'CHAIN_BUSY'],
    errorDetails: { ITEM_NOT_FOUND: Type.Object({ requested: Type.String(), available: Type.Array(Type.String()) }) },
    handler: ok,
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/actions/:id',
    auth: 'required',
    summary: 'Trigger an action',
    tags: ['actions'],
    operationId: 'triggerAction',
    schema: { params: Type.Object({ id: Type.String() }) },
    emptyBody: true,
    responses: { 200: { description: 'Done.', schema: Type.Object({ success: Type.Literal(true) }) } },
    errors: ['ITEM_NOT_FOUND', 'ACTIVATION_TIMEOUT'],
    handler: ok,
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/palettes/next',
    auth: 'required',
    summary: 'Select the next palette',
    tags: ['palettes'],
    operationId: 'nextPalette',
    schema: { body: Type.Object({}) },
    emptyBody: true,
    responses: { 200: { description: 'The new current palette.', schema: Type.Object({ id: Type.String() }) } },
    errors: [],
    handler: ok,
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/status',
    auth: 'none',
    summary: 'Server status',
    tags: ['status'],
    operationId: 'getStatus',
    schema: {},
    responses: { 200: { description: 'Status.', schema: Type.Object({ name: Type.String(), version: Type.String() }) } },
    errors: [],
    handler: ok,
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/docs/:asset',
    auth: 'none',
    summary: 'Docs asset',
    tags: ['docs'],
    operationId: 'getDocsAsset',
    schema: { params: Type.Object({ asset: Type.String() }) },
    responses: { 200: { description: 'The file.', contentType: 'text/css' } },
    errors: ['NOT_FOUND'],
    hidden: true,
    handler: ok,
  }),
];

const doc = buildOpenApi(routes, { version: '1.2.3' }) as any;

test('document header, servers, security and tags', () => {
  assert.is(doc.openapi, '3.0.3');
  assert.is(doc.info.title, 'vjd control-surface API');
  assert.is(doc.info.version, '1.2.3');
  for (const word of [
    '/api/v1',
    '64 KiB',
    'PAYLOAD_TOO_LARGE',
    'X-API-Key',
    'Bearer',
    'UNAUTHORIZED',
    'CORS',
    'OPTIONS',
    'case-insensitive',
  ]) {
    assert.ok(doc.info.description.includes(word), word);
  }
  assert.equal(
    doc.servers.map((s: any) => s.url),
    ['/'],
  );
  assert.equal(doc.security, [{ apiKeyHeader: [] }, { bearer: [] }, {}]);
  assert.equal(doc.components.securitySchemes.apiKeyHeader, {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: doc.components.securitySchemes.apiKeyHeader.description,
  });
  assert.is(doc.components.securitySchemes.bearer.scheme, 'bearer');
  assert.equal(
    doc.tags.map((t: any) => t.name),
    ['browse', 'thumbnails', 'effects', 'actions', 'palettes', 'status'],
  );
  for (const t of doc.tags) assert.ok(t.description.length > 0);
});

test('paths: :id becomes {id}, hidden routes are skipped', () => {
  assert.equal(Object.keys(doc.paths).sort(), [
    '/api/v1/actions/{id}',
    '/api/v1/browse',
    '/api/v1/effects/add',
    '/api/v1/palettes/next',
    '/api/v1/status',
    '/api/v1/thumbnails/live/{id}',
  ]);
  assert.is(doc.paths['/api/v1/docs/{asset}'], undefined);
});

test('query and path parameters', () => {
  const browse = doc.paths['/api/v1/browse'].get;
  assert.is(browse.operationId, 'browse');
  assert.equal(browse.tags, ['browse']);
  const [path, depth, mode] = browse.parameters;
  assert.equal(path, {
    name: 'path',
    in: 'query',
    required: false,
    description: 'folder to list',
    schema: { type: 'string', minLength: 1, maxLength: 512, pattern: '^[A-Za-z0-9/_-]+$' },
  });
  assert.equal(depth, {
    name: 'depth',
    in: 'query',
    required: false,
    description: 'levels to expand',
    schema: { type: 'integer', minimum: 1, maximum: 3, default: 1 },
  });
  assert.equal(mode, { name: 'mode', in: 'query', required: true, schema: { type: 'string', enum: ['a', 'b'] } });
  assert.equal(browse.responses['200'].content['application/json'].schema.properties.parentPath, { type: 'string', nullable: true });

  const thumb = doc.paths['/api/v1/thumbnails/live/{id}'].get;
  assert.equal(thumb.parameters[0], {
    name: 'id',
    in: 'path',
    required: true,
    description: 'device id or name',
    schema: { type: 'string', minLength: 1, maxLength: 256 },
  });
  assert.equal(thumb.parameters[1].schema, { type: 'string', enum: ['png', 'jpg'] });
});

test('requestBody from the body schema; emptyBody makes it optional', () => {
  const add = doc.paths['/api/v1/effects/add'].post;
  assert.is(add.requestBody.required, true);
  assert.equal(add.requestBody.content['application/json'].schema.required, ['type']);
  assert.is(add.description, 'Appends an effect to the end of the chain.');
  assert.is(doc.paths['/api/v1/palettes/next'].post.requestBody.required, false);
  assert.is(doc.paths['/api/v1/browse'].get.requestBody, undefined);
});

test('security: auth none routes opt out, protected routes inherit the optional global requirement', () => {
  assert.equal(doc.paths['/api/v1/status'].get.security, []);
  assert.is(doc.paths['/api/v1/browse'].get.security, undefined);
  assert.equal(doc.paths['/api/v1/browse'].get.responses['401'], { $ref: '#/components/responses/UNAUTHORIZED' });
  assert.is(doc.paths['/api/v1/status'].get.responses['401'], undefined);
});

test('error responses per operation', () => {
  const browse = doc.paths['/api/v1/browse'].get.responses;
  // A custom invalid mapper means the route's own codes describe validation failures.
  assert.is(browse['400'].content['application/json'].examples.INVALID_REQUEST, undefined);
  assert.equal(Object.keys(browse['400'].content['application/json'].examples), ['INVALID_PATH', 'INVALID_DEPTH']);
  assert.ok(browse['400'].description.includes('INVALID_PATH') && browse['400'].description.includes('INVALID_DEPTH'));
  assert.equal(browse['404'], { $ref: '#/components/responses/PATH_NOT_FOUND' });
  assert.equal(browse['500'], { $ref: '#/components/responses/INTERNAL' });
  assert.is(browse['413'], undefined);

  const add = doc.paths['/api/v1/effects/add'].post.responses;
  assert.equal(add['400'], { $ref: '#/components/responses/INVALID_REQUEST' });
  assert.equal(add['413'], { $ref: '#/components/responses/PAYLOAD_TOO_LARGE' });
  assert.equal(add['403'], { $ref: '#/components/responses/EFFECT_LIMIT_REACHED' });
  // Each code its own body schema, so a generated client knows exactly which codes (and details) a route gives.
  assert.equal(
    add['500'].content['application/json'].schema.oneOf.map((s: any) => s.properties.code.enum),
    [['EFFECT_LOAD_FAILED'], ['INTERNAL']],
  );
  assert.equal(Object.keys(add['500'].content['application/json'].examples), ['EFFECT_LOAD_FAILED', 'INTERNAL']);

  const thumb = doc.paths['/api/v1/thumbnails/live/{id}'].get.responses;
  assert.ok(thumb['404'].description.includes('DEVICE_NOT_FOUND') && thumb['404'].description.includes('NOT_FOUND: no such route'));
  assert.equal(thumb['404'].content['application/json'].examples.NOT_FOUND.value, {
    error: true,
    code: 'NOT_FOUND',
    message: 'no such route',
  });
  assert.equal(Object.keys(thumb['503'].content['application/json'].examples), ['PREVIEW_TIMEOUT', 'THUMBNAIL_QUEUE_FULL']);
  assert.equal(thumb['400'], { $ref: '#/components/responses/INVALID_REQUEST' });
});

test('non-JSON and 304 responses', () => {
  const thumb = doc.paths['/api/v1/thumbnails/live/{id}'].get.responses;
  assert.equal(thumb['200'].content, { 'image/png': { schema: { type: 'string', format: 'binary' } } });
  assert.equal(thumb['200'].headers['Cache-Control'].schema, { type: 'string', enum: ['no-cache'] });
  assert.equal(thumb['200'].headers.ETag.schema, { type: 'string' });
  assert.is(thumb['304'].content, undefined);
  assert.is(thumb['304'].headers.ETag.description, 'version of the image');
});

test('HEAD on every GET: same parameters, statuses and headers, no bodies', () => {
  const get = doc.paths['/api/v1/thumbnails/live/{id}'].get;
  const head = doc.paths['/api/v1/thumbnails/live/{id}'].head;
  assert.is(head.operationId, 'getLiveThumbnailHead');
  assert.equal(head.parameters, get.parameters);
  assert.equal(Object.keys(head.responses), Object.keys(get.responses));
  for (const r of Object.values(head.responses) as any[]) {
    assert.is(r.content, undefined);
    assert.is(r.$ref, undefined);
    assert.is(r.headers['Access-Control-Allow-Origin'].required, true);
  }
  assert.equal(head.responses['200'].headers['Cache-Control'], get.responses['200'].headers['Cache-Control']);
  assert.is(doc.paths['/api/v1/effects/add'].head, undefined);
});

test('OPTIONS on every path: 204 with the preflight headers, no key needed', () => {
  for (const [path, item] of Object.entries(doc.paths) as [string, any][]) {
    const o = item.options;
    assert.ok(o, path);
    assert.equal(o.security, []);
    const h = o.responses['204'].headers;
    assert.equal(h['Access-Control-Allow-Methods'].schema.enum, ['GET, POST, DELETE, OPTIONS']);
    assert.ok(h['Access-Control-Allow-Headers'].schema.enum[0].includes('X-API-Key'));
    assert.is(h['Access-Control-Allow-Private-Network'].required, false);
    assert.equal(o.responses['421'], { $ref: '#/components/responses/MISDIRECTED_REQUEST' });
    assert.is((o.parameters ?? []).length, (path.match(/\{/g) ?? []).length);
  }
  const ids = Object.values(doc.paths).map((i: any) => i.options.operationId);
  assert.is(new Set(ids).size, ids.length);
});

test('headers: If-None-Match where a 304 exists; CORS on every answer; no-store on JSON; Retry-After on STATE_NOT_SAVED', () => {
  const thumb = doc.paths['/api/v1/thumbnails/live/{id}'].get;
  assert.ok(thumb.parameters.some((p: any) => p.in === 'header' && p.name === 'If-None-Match'));
  assert.not.ok(doc.paths['/api/v1/browse'].get.parameters.some((p: any) => p.in === 'header'));
  const cors = {
    'Access-Control-Allow-Origin': ['*'],
    'Access-Control-Expose-Headers': ['ETag, Content-Range, Accept-Ranges, Content-Length'],
  };
  for (const r of [
    thumb.responses['200'],
    thumb.responses['304'],
    doc.components.responses.INTERNAL,
    doc.paths['/api/v1/effects/add'].post.responses['404'],
  ]) {
    for (const [name, values] of Object.entries(cors))
      assert.equal(r.headers[name], { description: r.headers[name].description, required: true, schema: { type: 'string', enum: values } });
  }
  assert.equal(doc.paths['/api/v1/browse'].get.responses['200'].headers['Cache-Control'].schema.enum, ['no-store']);
  assert.equal(doc.components.responses.INTERNAL.headers['Cache-Control'].schema.enum, ['no-store']);
  assert.is(thumb.responses['200'].headers['Cache-Control'].required, true);
  assert.is(doc.components.responses.STATE_NOT_SAVED.headers['Retry-After'].required, true);
  assert.is(doc.components.responses.PREVIEW_TIMEOUT.headers['Retry-After'].required, false);
  assert.is(doc.components.responses.CHAIN_BUSY.headers['Retry-After'], undefined);
  // A 503 shared by CHAIN_BUSY and STATE_NOT_SAVED has Retry-After only sometimes.
  assert.is(doc.paths['/api/v1/effects/add'].post.responses['503'].headers['Retry-After'].required, false);
});

test('error bodies: one schema per code with its details; a route can narrow the details', () => {
  const notFound = doc.components.responses.ITEM_NOT_FOUND.content['application/json'].schema;
  assert.equal(notFound.properties.code.enum, ['ITEM_NOT_FOUND']);
  assert.is(notFound.properties.details.properties.available.maxItems, 50);
  const timeout = doc.components.responses.ACTIVATION_TIMEOUT.content['application/json'].schema.properties.details;
  assert.equal(timeout.required, ['requested', 'kind', 'reason', 'timeoutMs']);
  assert.equal(timeout.properties.reason.enum, ['expired', 'superseded', 'failed']);
  assert.is(doc.components.responses.INTERNAL.content['application/json'].schema.properties.details, undefined);
  const addMiss = doc.paths['/api/v1/effects/add'].post.responses['404'].content['application/json'].schema;
  assert.equal(addMiss.properties.details.required, ['requested', 'available']);
  assert.is(addMiss.properties.details.properties.available.maxItems, undefined);
  assert.equal(doc.paths['/api/v1/actions/{id}'].post.responses['504'], { $ref: '#/components/responses/ACTIVATION_TIMEOUT' });
});

test('a POST without a body schema declares an optional JSON body (ignored, but JSON-typed or 415)', () => {
  const trigger = doc.paths['/api/v1/actions/{id}'].post;
  assert.is(trigger.requestBody.required, false);
  assert.equal(Object.keys(trigger.requestBody.content), ['application/json']);
  assert.equal(trigger.responses['415'], { $ref: '#/components/responses/UNSUPPORTED_MEDIA_TYPE' });
});

test('every error code is in ErrorBody and in components.responses', () => {
  const codeEnum = doc.components.schemas.ErrorBody.properties.code.enum;
  assert.equal(doc.components.schemas.ErrorBody.required, ['error', 'code', 'message']);
  assert.equal(doc.components.schemas.ErrorBody.properties.error.enum, [true]);
  for (const code of ERROR_CODES) {
    assert.ok(codeEnum.includes(code), code);
    const r = doc.components.responses[code];
    assert.ok(r, code);
    assert.ok(r.description.includes(code));
    assert.equal(r.content['application/json'].example.code, code);
  }
  assert.is(codeEnum.length, ERROR_CODES.length);
  assert.ok(doc.components.responses.UNAUTHORIZED.headers['WWW-Authenticate']);
});

test('YAML round-trips without aliases', () => {
  const text = toYaml(doc);
  assert.not.match(text, /^\s*[^#\n]*: \*[A-Za-z]/m);
  assert.equal(YAML.parse(text), doc);
});

test('redocly lint reports no errors', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'vjd-openapi-'));
  try {
    const file = join(dir, 'openapi.yaml');
    await writeFile(file, toYaml(doc));
    const result = await new Promise<{ code: number; out: string }>((done) => {
      execFile(
        join(ROOT, 'node_modules/.bin/redocly'),
        ['lint', file, '--format=stylish'],
        { cwd: ROOT, timeout: 120_000, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
        (err, stdout, stderr) => {
          const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
          done({ code, out: `${stdout}\n${stderr}` });
        },
      );
    });
    if (result.code !== 0 || process.env.VJD_SHOW_LINT) console.error(result.out);
    assert.is(result.code, 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
