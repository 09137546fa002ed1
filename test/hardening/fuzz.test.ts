// Seeded property-based fuzzing of every vjd route (methods, paths, queries, headers, bodies, raw protocol bytes) against one running server.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { connect, type Socket } from 'node:net';
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { startServer, req, waitUntil, RESULTS_DIR, type TestServer } from '../helpers/server.js';
import { ERRORS, isErrorCode } from '../../src/errors.js';

function intEnv(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isSafeInteger(v) && v > 0 ? v : fallback;
}

/** Fixed seed (printed); VJD_FUZZ_SEED replays another run, VJD_FUZZ_BUDGET_MS changes the wall-time budget. */
const SEED = intEnv('VJD_FUZZ_SEED', 20_260_611);
const BUDGET_MS = intEnv('VJD_FUZZ_BUDGET_MS', 72_000);
const BATCH = 20;
/** Batches every category runs whatever the budget, so a slow machine still covers each one. */
const MIN_BATCHES = 2;
const KEY = 'fuzz-key-4b1d9e';
const API = '/api/v1';
/** The only 5xx answers the interface documents. */
const ALLOWED_5XX = new Set(['EFFECT_LOAD_FAILED', 'CHAIN_BUSY', 'PREVIEW_TIMEOUT', 'THUMBNAIL_QUEUE_FULL', 'ACTIVATION_TIMEOUT']);
/** Reachable without an API key. */
const OPEN_PATH = /^\/api\/v1\/(status|openapi\.yaml|docs)(\/|\?|$)/;
/**
 * uWS parses a header block in place when it arrives in one read, whatever its size; when it arrives in several
 * (TCP split it: a loaded machine, a large write) it buffers at most 4 KiB and closes the connection without an
 * answer past that (uWS's fixed fallback buffer; answered whole, the same request gets 200). So past this many bytes
 * a close is as valid as an answer, and the server must go on serving (checked after each such close).
 */
const HEADER_CLOSE_LIMIT = 4 * 1024;
/** What node:http adds to the request head besides our headers: request line, Host, Connection, blank line. */
const REQUEST_HEAD_OVERHEAD = 128;
const BODY_LIMIT = 64 * 1024;

let s: TestServer;
const started = Date.now();

// ---------------------------------------------------------------------------------------------------------------
// Cases

type Auth = 'valid' | 'invalid' | 'unknown';

interface HttpCase {
  kind: 'http';
  method: string;
  /** Request target: path plus query string, only bytes 0x21-0x7e. */
  target: string;
  headers: OutgoingHttpHeaders;
  body: Buffer | undefined;
  auth: Auth;
  /** A reset instead of an answer is acceptable (header block or body beyond what the server takes). */
  mayClose: boolean;
}

interface RawCase {
  kind: 'raw';
  bytes: Buffer;
  /** A valid HTTP/1.1 request: it must be answered. */
  wellFormed: boolean;
  /** The bytes leave a request unfinished (declared body longer than sent): no answer is due. */
  unfinished: boolean;
  note: string;
}

type Case = HttpCase | RawCase;

function describe(c: Case): string {
  if (c.kind === 'raw') {
    const text = c.bytes.toString('latin1');
    return `raw[${c.note}] ${JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…(${text.length} bytes)` : text)}`;
  }
  const hdr = Object.entries(c.headers)
    .map(
      ([k, v]) =>
        `${k}: ${(Array.isArray(v) ? v : [String(v)]).map((x) => (x.length > 60 ? `${x.slice(0, 60)}…(${x.length})` : x)).join(' | ')}`,
    )
    .join('; ');
  const target = c.target.length > 200 ? `${c.target.slice(0, 200)}…(${c.target.length} chars)` : c.target;
  let body = '';
  if (c.body) {
    const t = c.body.toString('latin1');
    body = ` body(${c.body.length})=${JSON.stringify(t.length > 160 ? `${t.slice(0, 160)}…` : t)}`;
  }
  return `${c.method} ${target} [auth ${c.auth}] {${hdr}}${body}`;
}

/** Cases print as one short line in fast-check's counterexample report. */
function withLabel<T extends Case>(c: T): T {
  Object.defineProperty(c, fc.toStringMethod, { value: () => describe(c), enumerable: false });
  return c;
}

// ---------------------------------------------------------------------------------------------------------------
// Discovery (filled in test.before from the running server)

interface RouteT {
  method: 'GET' | 'POST';
  /** Path template with `{name}` parameters. */
  path: string;
}

const world = {
  routes: [] as RouteT[],
  liveIds: [] as string[],
  paletteIds: [] as string[],
  actionIds: [] as string[],
  sourceIds: [] as string[],
  effectTypes: [] as string[],
  effectNames: [] as string[],
  etags: [] as string[],
};

const DOCS_ASSETS = ['index.html', 'swagger-ui.css', 'index.css', 'swagger-init.js', 'favicon-16x16.png', 'nope.js', '..%2Fpackage.json'];

// ---------------------------------------------------------------------------------------------------------------
// Generators

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'] as const;
const SAFE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@".split('');
const safeChar = fc.constantFrom(...SAFE);
const PCT = [
  '%00',
  '%ZZ',
  '%',
  '%2',
  '%2F',
  '%2f',
  '%5C',
  '%25',
  '%C0%AE',
  '%E0%A4',
  '%FF',
  '%0D%0A',
  '%20',
  '..',
  '.',
  '%2e%2e',
  '%u0000',
  '%F0%9F%92%A9',
  '%7B%7D',
  '%3F',
  '%23',
];
const LONG = [257, 513, 600, 4096, 10_000];

const longArb = fc.tuple(fc.constantFrom(...LONG), fc.constantFrom('a', '%41', '/', 'é', '-')).map(([n, unit]) => {
  const text = unit === 'é' ? encodeURIComponent('é') : unit;
  return text.repeat(Math.ceil(n / text.length)).slice(0, n);
});

/** One path segment: plain characters, percent junk, encoded unicode, known ids. */
function segmentArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: safeChar, maxLength: 12 }) },
    { weight: 3, arbitrary: fc.constantFrom(...PCT) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }).map(encodeURIComponent) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.string({ unit: safeChar, maxLength: 5 }), fc.constantFrom(...PCT), fc.string({ unit: safeChar, maxLength: 5 }))
        .map((p) => p.join('')),
    },
    { weight: 2, arbitrary: fc.constantFrom(...knownIds()) },
  );
}

function knownIds(): string[] {
  return [
    ...world.liveIds,
    ...world.paletteIds,
    ...world.actionIds.slice(0, 40),
    ...world.sourceIds.slice(0, 20),
    ...DOCS_ASSETS,
    'liveInput:red',
    'RED',
    'red%00',
    'red%ZZ',
    '%20red',
    'media-0123456789abcdef',
  ].map((id) => (/^[\x21-\x7e]*$/.test(id) ? id : encodeURIComponent(id)));
}

/** A value for a `{param}` of a known route. */
function paramArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...knownIds()).map((id) => (id.includes(':') ? id : encodeURIComponent(decodeSafe(id)))) },
    { weight: 4, arbitrary: segmentArb() },
    { weight: 1, arbitrary: longArb },
    { weight: 1, arbitrary: fc.constantFrom('', '%2F', 'a/b', '.', '..', '%00') },
  );
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const QUERY_VALUES = [
  '32',
  '512',
  '192',
  '31',
  '513',
  '0',
  '-0',
  '-1',
  '1e308',
  '-1e308',
  '1e309',
  'NaN',
  'Infinity',
  '1.5',
  '0x20',
  ' 64',
  '64 ',
  '6 4',
  '+64',
  'png',
  'jpg',
  'jpeg',
  'PNG',
  'gif',
  '',
  '/',
  '/live',
  '/live/test',
  '/sources',
  '/presets',
  '/files',
  '//',
  '/live//',
  '../..',
  '/live/../live',
  '%00',
  '%ZZ',
  '1',
  '2',
  '3',
  '4',
  '01',
  '+1',
  '1.0',
  '\u0000',
  'é',
  '/Live/Test',
  '/live/test/red',
];

const queryValueArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...QUERY_VALUES) },
  { weight: 2, arbitrary: fc.integer({ min: -100_000, max: 100_000 }).map(String) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }) },
  { weight: 1, arbitrary: fc.constantFrom(600, 10_000, 513).map((n) => 'a'.repeat(n)) },
  { weight: 1, arbitrary: fc.constantFrom(600, 10_000).map((n) => '/a'.repeat(n / 2)) },
);

const queryKeyArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('size', 'format', 'path', 'depth') },
  { weight: 2, arbitrary: fc.constantFrom('id', 'v', 'x', 'SIZE', 'size[]', 'path ', '__proto__', 'constructor', '') },
  { weight: 1, arbitrary: fc.string({ unit: safeChar, maxLength: 6 }) },
);

const RAW_QUERIES = [
  '?',
  '?&',
  '?=',
  '?size',
  '?size=&size=64',
  '?depth=2&depth=9',
  '?path=/live&path=%ZZ',
  '?&&&=&=',
  '??path=/',
  '?path=%2Flive',
  '?path=/live%00',
  '?depth=%32',
  '?size=6%34',
];

/** Query string: `?k=v&…`, repeated keys, raw and encoded values, odd separators; '' for none. */
const queryArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.tuple(queryKeyArb, queryValueArb, fc.boolean()), { maxLength: 6 }).map(encodeQuery) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES) },
);

function encodeQuery(pairs: Array<[string, string, boolean]>): string {
  if (pairs.length === 0) return '';
  const enc = (x: string, raw: boolean): string => (raw && /^[\x21-\x7e]*$/.test(x) && !x.includes('#') ? x : encodeURIComponent(x));
  return `?${pairs.map(([k, v, raw]) => `${enc(k, raw)}=${enc(v, raw)}`).join('&')}`;
}

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 });
const latin1 = fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 8 });
const HUGE = [1024, 4096, 8192, 16_000, 16_384];

const headerValueArb = fc.oneof(
  { weight: 5, arbitrary: printable },
  { weight: 1, arbitrary: latin1 },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...HUGE), fc.constantFrom('x', '"', ',', 'W/"a",'))
      .map(([n, u]) => u.repeat(Math.ceil(n / u.length)).slice(0, n)),
  },
);

function ifNoneMatchArb(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...world.etags, '*', 'W/*', '""', '"', ',', ' , ,', 'W/', '"live-192x108-png-p0"', '"current-1x1-png-0"'),
    fc.constantFrom(...world.etags).map((e) => `W/${e}`),
    fc.constantFrom(...world.etags).map((e) => `"x", ${e}`),
    printable,
    fc.constantFrom(4095, 4097, 16_000).map((n) => `${'"a",'.repeat(n / 4)}*`),
  );
}

const HEADER_NAMES = [
  'if-none-match',
  'x-junk',
  'accept',
  'origin',
  'content-type',
  'user-agent',
  'cookie',
  'x-forwarded-for',
  'range',
  'expect',
  'accept-encoding',
  'host',
  'referer',
  'x-api-key',
  'authorization',
];

/** Extra headers, some duplicated (sent as several header lines). */
function extraHeadersArb(heavy: boolean): fc.Arbitrary<Array<[string, string[]]>> {
  const one = fc.tuple(
    fc.constantFrom(...HEADER_NAMES),
    fc.oneof(
      { weight: 3, arbitrary: headerValueArb },
      { weight: 2, arbitrary: ifNoneMatchArb() },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'application/json',
          'text/plain',
          'multipart/form-data; boundary=x',
          'application/json; charset=latin1',
          '100-continue',
          'bytes=0-10',
          'Bearer ',
          'Basic Zm9vOmJhcg==',
        ),
      },
    ),
    fc.integer({ min: 1, max: heavy ? 3 : 1 }),
  );
  return fc
    .array(one, { maxLength: heavy ? 6 : 2 })
    .map((list) => list.map(([k, v, n]) => [k, Array.from({ length: n }, (_, i) => (i === 0 ? v : `${v}${i}`))]));
}

interface AuthChoice {
  headers: Record<string, string | string[]>;
  auth: Auth;
}

const AUTH_VALID: AuthChoice[] = [
  { headers: { 'x-api-key': KEY }, auth: 'valid' },
  { headers: { authorization: `Bearer ${KEY}` }, auth: 'valid' },
  { headers: { 'x-api-key': KEY, authorization: 'Bearer wrong' }, auth: 'valid' },
];
const AUTH_INVALID: AuthChoice[] = [
  { headers: {}, auth: 'invalid' },
  { headers: { 'x-api-key': 'wrong' }, auth: 'invalid' },
  { headers: { 'x-api-key': `${KEY}x` }, auth: 'invalid' },
  { headers: { 'x-api-key': KEY.toUpperCase() }, auth: 'invalid' },
  { headers: { 'x-api-key': 'k'.repeat(2000) }, auth: 'invalid' },
  { headers: { 'x-api-key': 'k'.repeat(16_000) }, auth: 'invalid' },
  { headers: { authorization: 'Bearer' }, auth: 'invalid' },
  { headers: { authorization: `Basic ${Buffer.from(`u:${KEY}`).toString('base64')}` }, auth: 'invalid' },
  { headers: { authorization: `Bearer ${'b'.repeat(1100)}` }, auth: 'invalid' },
  { headers: { 'x-api-key': 'wrong', authorization: `Bearer ${KEY}` }, auth: 'invalid' },
  { headers: { 'x-api-key': '%00' }, auth: 'invalid' },
  { headers: { 'x-api-key': 'é\u00ff' }, auth: 'invalid' },
];
const AUTH_UNKNOWN: AuthChoice[] = [
  { headers: { 'x-api-key': [KEY, 'junk'] }, auth: 'unknown' },
  { headers: { 'x-api-key': ['junk', KEY] }, auth: 'unknown' },
  { headers: { authorization: [`Bearer ${KEY}`, 'Bearer junk'] }, auth: 'unknown' },
];

const authArb: fc.Arbitrary<AuthChoice> = fc.oneof(
  { weight: 17, arbitrary: fc.constantFrom(...AUTH_VALID) },
  { weight: 3, arbitrary: fc.constantFrom(...AUTH_INVALID) },
  { weight: 1, arbitrary: fc.constantFrom(...AUTH_UNKNOWN) },
);

const JUNK_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 2,
  '',
  ' ',
  '\u0000',
  'x'.repeat(10_000),
  'x'.repeat(513),
  'x'.repeat(257),
  '\ud800',
  [],
  {},
  [1, 2],
  { a: { b: {} } },
  'RED',
  ' invert ',
  'INVERT',
  'hue-shift',
  '1',
  'true',
];
const junkValueArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...JUNK_VALUES) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

/** A plausible body for a POST route (the minority of cases that can change state), before mutation. */
function templateArb(path: string): fc.Arbitrary<Record<string, unknown>> {
  const effectArb = fc.constantFrom(...world.effectTypes, ...world.effectNames);
  const indexArb = fc.integer({ min: -1, max: 10 });
  const tail = path.replace(API, '');
  switch (tail) {
    case '/global/blackout':
      return fc.record({ enabled: fc.boolean() });
    case '/global/dimmer':
      return fc.record({ value: fc.double({ min: 0, max: 1, noNaN: true }) });
    case '/effects/add':
      return fc.record({ type: effectArb, idempotent: fc.boolean() }, { requiredKeys: ['type'] });
    case '/effects/remove':
      return fc.oneof(fc.record({ type: effectArb }), fc.record({ index: indexArb }));
    case '/effects/toggle':
      return fc.oneof(fc.record({ name: effectArb }), fc.record({ index: indexArb }));
    case '/effects/enabled':
      return fc.oneof(fc.record({ enabled: fc.boolean(), name: effectArb }), fc.record({ enabled: fc.boolean(), index: indexArb }));
    case '/sources/select':
      return fc.oneof(
        fc.record({ id: fc.constantFrom(...world.sourceIds) }),
        fc.record({ name: fc.constantFrom('Plasma', 'red test', 'BARS_TEST', 'nope') }),
      );
    case '/inputs/live/select':
      return fc.oneof(
        fc.record({ id: fc.constantFrom(...world.liveIds, 'liveInput:red', 'nope') }),
        fc.record({ name: fc.constantFrom('Red Test', 'bars-test', 'x') }),
      );
    case '/inputs/file/select':
      return fc.record({ id: fc.constantFrom('media-0123456789abcdef', 'nope') });
    case '/palettes/select':
      return fc.oneof(
        fc.record({ id: fc.constantFrom(...world.paletteIds, 'nope') }),
        fc.record({ name: fc.constantFrom('Aurora', 'deep ocean', 'x') }),
      );
    case '/audio/select':
      return fc.oneof(
        fc.record({ id: fc.constantFrom('click', 'none', 'nope') }),
        fc.record({ name: fc.constantFrom('Click 120 BPM', 'None', 'x') }),
      );
    default:
      return fc.constant({});
  }
}

/** Template, then maybe one field replaced, one added or one removed. */
function mutatedBodyArb(path: string): fc.Arbitrary<unknown> {
  return templateArb(path).chain((obj) => {
    const keys = Object.keys(obj);
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant<unknown>(obj) },
      {
        weight: 3,
        arbitrary: fc.tuple(fc.constantFrom(...(keys.length ? keys : ['x'])), junkValueArb).map(([k, v]) => ({ ...obj, [k]: v })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom('x', 'index', 'name', 'id', 'type', 'enabled', 'value', '__proto__'), junkValueArb)
          .map(([k, v]) => ({ ...obj, [k]: v })),
      },
      { weight: 1, arbitrary: fc.constant<unknown>(Object.fromEntries(Object.entries(obj).slice(1))) },
      { weight: 1, arbitrary: junkValueArb },
    );
  });
}

const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

const SPECIAL_BODIES: string[] = [
  '',
  ' ',
  '\r\n',
  'null',
  'true',
  '0',
  '""',
  '[]',
  '{}',
  '-0',
  'NaN',
  'Infinity',
  'undefined',
  '{"value": NaN}',
  '{"value": -0}',
  '{"value": 1e308}',
  '{"value": 1e309}',
  '{"value": -1e308}',
  '{"value": 5e-324}',
  '{"value": 0.9999999999999999999}',
  '{"index": 1e308}',
  '{"index": -0}',
  '{"index": 0}',
  '{"index": 9007199254740993}',
  '{"index": 1.0}',
  '{"index": "1"}',
  '{"enabled": "true"}',
  '{"enabled": 1}',
  '{"type": null}',
  '{"type": ""}',
  '{"type": "   "}',
  '{"id": ""}',
  '{"name": "   "}',
  '{"__proto__": {"enabled": true}}',
  '{"constructor": {"prototype": {"enabled": true}}}',
  '{"enabled": true, "enabled": "x"}',
  '\u0000',
  '{"a":"\u0000"}',
  '{"id":"red\\u0000"}',
  '\ufeff{"x":1}',
  '{"id":"\\ud800"}',
  '{',
  '}',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  deep(10_000),
  deepObject(10_000),
  `{"type":"invert","idempotent":true,"x":${deep(10_000)}}`,
  `{"enabled":${deep(5000)}}`,
  `{"type":"${'a'.repeat(10_000)}"}`,
  `{"id":"${'a'.repeat(10_000)}"}`,
  `{"name":"${'é'.repeat(5000)}"}`,
];

/** Over or at the 64 KiB body limit: padding inside otherwise valid JSON. */
const sizedBodyArb = fc.constantFrom(BODY_LIMIT - 1, BODY_LIMIT, BODY_LIMIT + 1, 70_000, 200_000).map((n) => {
  const head = '{"x":"';
  const tail = '"}';
  return Buffer.from(head + 'p'.repeat(Math.max(0, n - head.length - tail.length)) + tail);
});

function bodyArb(path: string): fc.Arbitrary<Buffer> {
  return fc.oneof(
    { weight: 5, arbitrary: mutatedBodyArb(path).map((v) => Buffer.from(JSON.stringify(v) ?? 'undefined')) },
    { weight: 2, arbitrary: fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v))) },
    { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_BODIES).map((t) => Buffer.from(t)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((t) => Buffer.from(t)) },
    { weight: 2, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((u) => Buffer.from(u)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('{"id":"', '{"type":"', '{"enabled":'), fc.uint8Array({ minLength: 1, maxLength: 8, min: 0x80 }))
        .map(([h, u]) => Buffer.concat([Buffer.from(h), Buffer.from(u), Buffer.from('"}')])),
    },
    { weight: 1, arbitrary: sizedBodyArb },
  );
}

function fillTemplate(path: string, values: string[]): string {
  let i = 0;
  return path.replace(/\{[^}]+\}/g, () => values[i++] ?? 'x');
}

function routeTarget(): fc.Arbitrary<{ route: RouteT; target: string }> {
  return fc.constantFrom(...world.routes).chain((route) => {
    const n = (route.path.match(/\{/g) ?? []).length;
    return fc.array(paramArb(), { minLength: n, maxLength: n }).map((vals) => ({ route, target: fillTemplate(route.path, vals) }));
  });
}

function headerBytes(h: OutgoingHttpHeaders): number {
  let n = 0;
  for (const [k, v] of Object.entries(h)) for (const x of Array.isArray(v) ? v : [String(v)]) n += k.length + x.length + 4;
  return n;
}

function httpCase(method: string, target: string, auth: AuthChoice, extra: Array<[string, string[]]>, body: Buffer | undefined): HttpCase {
  const headers: OutgoingHttpHeaders = { ...auth.headers };
  let authState = auth.auth;
  for (const [k, vals] of extra) {
    if (k === 'x-api-key' || k === 'authorization') authState = 'unknown';
    const prev = headers[k];
    const merged = [...(prev === undefined ? [] : Array.isArray(prev) ? prev : [String(prev)]), ...vals];
    // node:http sends one Host line only.
    headers[k] = merged.length === 1 || k === 'host' ? merged[0]! : merged;
  }
  if (body && !Object.keys(headers).includes('content-type')) headers['content-type'] = 'application/json';
  if (body) headers['content-length'] = String(body.length);
  // A second or odd Host header may be refused by closing the connection.
  const mayClose =
    headerBytes(headers) + target.length + REQUEST_HEAD_OVERHEAD > HEADER_CLOSE_LIMIT ||
    (body !== undefined && body.length > BODY_LIMIT) ||
    'host' in headers;
  return withLabel({ kind: 'http', method, target, headers, body, auth: authState, mayClose });
}

const methodArb = fc.constantFrom(...METHODS);

/** `arb` with probability p, else null. */
function maybe<T>(arb: fc.Arbitrary<T>, p: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: Math.round((1 - p) * 100), arbitrary: fc.constant(null) }, { weight: Math.round(p * 100), arbitrary: arb });
}

/** Known routes, mostly with their own method, parameters mutated, a light query, plausible bodies. */
function routesArb(): fc.Arbitrary<Case> {
  return fc
    .record({
      rt: routeTarget(),
      other: maybe(methodArb, 0.25),
      query: maybe(queryArb, 0.3),
      auth: authArb,
      extra: extraHeadersArb(false),
      body: maybe(fc.constant(true), 0.15),
    })
    .chain(({ rt, other, query, auth, extra, body }) => {
      const method = other ?? rt.route.method;
      const wantsBody = method === 'POST' || body !== null;
      const bodyA = wantsBody ? maybe(bodyArb(rt.route.path), 0.9) : fc.constant(null);
      return bodyA.map((b) => httpCase(method, rt.target + (query ?? ''), auth, extra, b ?? undefined));
    });
}

const PREFIXES = [
  '/',
  '/api/v1/',
  '/api/v1',
  '/api/',
  '/api/v2/',
  '/media/thumbnails/',
  '/api/v1/thumbnails/live/',
  '/api/v1/docs/',
  '/api/v1/actions/',
  '/api/v1/effects/',
  '//api/v1/',
  '/API/V1/',
  '/api/v1/_test/../',
];

/** Random paths: random segments after known prefixes, percent junk, known routes with suffixes, 600 and 10 000 characters. */
function pathsArb(): fc.Arbitrary<Case> {
  const randomPath = fc
    .tuple(fc.constantFrom(...PREFIXES), fc.array(segmentArb(), { maxLength: 5 }), fc.constantFrom('', '/', '//', '?', '%23'))
    .map(([p, segs, end]) => p + segs.join('/') + end);
  const knownWithSuffix = fc
    .tuple(fc.constantFrom(...world.routes), fc.constantFrom('/', '//', '/x', '%00', '%ZZ', '/..', '/.', ';x', '%2F', '.json', '?'))
    .map(([r, suf]) => fillTemplate(r.path, ['red']) + suf);
  const long = fc
    .tuple(fc.constantFrom('/api/v1/', '/api/v1/thumbnails/live/', '/api/v1/browse/', '/media/thumbnails/', '/'), longArb)
    .map(([p, l]) => p + l);
  return fc
    .record({
      method: methodArb,
      path: fc.oneof({ weight: 4, arbitrary: randomPath }, { weight: 2, arbitrary: knownWithSuffix }, { weight: 2, arbitrary: long }),
      auth: authArb,
    })
    .map(({ method, path, auth }) =>
      httpCase(method, path.replace(/_test/g, '_tst'), auth, [], method === 'POST' ? Buffer.from('{}') : undefined),
    );
}

/** GET routes with heavy query strings. */
function queriesArb(): fc.Arbitrary<Case> {
  const gets = world.routes.filter((r) => r.method === 'GET');
  const weighted = gets.flatMap((r) => (/browse|thumbnails/.test(r.path) ? [r, r, r, r] : [r]));
  return fc
    .record({
      route: fc.constantFrom(...weighted),
      params: fc.array(paramArb(), { minLength: 1, maxLength: 1 }),
      query: fc.oneof(
        { weight: 5, arbitrary: queryArb },
        {
          weight: 1,
          arbitrary: fc.array(fc.tuple(queryKeyArb, queryValueArb, fc.boolean()), { minLength: 8, maxLength: 30 }).map(encodeQuery),
        },
      ),
      known: fc.boolean(),
      auth: authArb,
      method: maybe(methodArb, 0.15),
    })
    .map(({ route, params, query, known, auth, method }) => {
      const target = fillTemplate(route.path, known ? ['red'] : params) + query;
      return httpCase(method ?? 'GET', target, auth, [], undefined);
    });
}

/** Any route with heavy, huge and duplicated headers, If-None-Match and credential junk. */
function headersArb(): fc.Arbitrary<Case> {
  return fc
    .record({ rt: routeTarget(), auth: authArb, extra: extraHeadersArb(true), huge: maybe(fc.constantFrom(16_000, 16_384, 40_000), 0.2) })
    .map(({ rt, auth, extra, huge }) => {
      const more: Array<[string, string[]]> = [...extra];
      if (huge) more.push(['x-huge', ['h'.repeat(huge)]]);
      const body = rt.route.method === 'POST' ? Buffer.from('{"enabled": "x", "value": 7, "type": 5, "id": 6, "index": "z"}') : undefined;
      return httpCase(rt.route.method, rt.target, auth, more, body);
    });
}

/** POST routes (and some other methods) with every kind of body. */
function bodiesArb(): fc.Arbitrary<Case> {
  const posts = world.routes.filter((r) => r.method === 'POST');
  return fc
    .record({
      route: fc.constantFrom(...posts),
      param: paramArb(),
      method: maybe(methodArb, 0.1),
      auth: authArb,
      ctype: maybe(
        fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'multipart/form-data'),
        0.2,
      ),
    })
    .chain(({ route, param, method, auth, ctype }) =>
      bodyArb(route.path).map((body) => {
        const extra: Array<[string, string[]]> = ctype ? [['content-type', [ctype]]] : [];
        return httpCase(method ?? 'POST', fillTemplate(route.path, [param]), auth, extra, body);
      }),
    );
}

// Raw protocol cases: request line, header block and framing assembled byte by byte.

const RAW_TARGETS_OK = [
  '/api/v1/status',
  '/api/v1/global',
  '/api/v1/effects',
  '/api/v1/nope',
  '/api/v1/browse?path=/live&depth=2',
  '/api/v1/global/dimmer',
];
const RAW_TARGETS_BAD = [
  '*',
  'http://x/api/v1/global',
  '/api/v1/glo bal',
  '/api/v1/\u0000',
  '/api/v1/\u00ff\u00fe',
  '',
  '/api/v1/global#frag',
  '//api//v1',
  '/api/v1/global?x=\u0001',
  'api/v1/global',
  '/api/v1/global\r',
];
const RAW_METHODS_BAD = ['get', 'G ET', 'GET\u0000', 'PRI', 'CONNECT', '', 'X'.repeat(300), '\u00ff', 'TRACE', 'DELETE', 'HEAD'];
const RAW_VERSIONS_BAD = ['HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 ', 'HTTP/1.10', 'http/1.1', 'HTTP/1', '', 'HTTP/1.1\u0000', 'HTTP/0.9'];
const RAW_HEADERS_BAD = [
  'Foo',
  'Foo : bar',
  ' Foo: bar',
  'Foo:\u0000bar',
  'Foo: a\u0001b',
  'F\u00ffo: bar',
  ': bar',
  'Foo: bar\r\n  folded',
  'X-API-Key: wrong',
  'Expect: 100-continue',
  'Connection: close, upgrade',
  'Upgrade: websocket',
];

interface Framing {
  headers: string[];
  body: string;
  wellFormed: boolean;
  unfinished: boolean;
  note: string;
}

const JSON_BAD_BODY = '{"value": 2}';

const framingArb: fc.Arbitrary<Framing> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Framing>({ headers: [], body: '', wellFormed: true, unfinished: false, note: 'none' }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom('{"value": 2}', '{"value":', '{"value": "0.5"}', '[]', 'null', '\u0000\u0001', '\u00ff\u00fe').map((b) => ({
      headers: [`Content-Length: ${Buffer.byteLength(b, 'latin1')}`],
      body: b,
      wellFormed: true,
      unfinished: false,
      note: 'cl',
    })),
  },
  {
    weight: 1,
    arbitrary: fc.constant<Framing>({
      headers: ['Content-Length: 1000'],
      body: JSON_BAD_BODY,
      wellFormed: false,
      unfinished: true,
      note: 'cl-short',
    }),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom('-1', 'abc', '+12', '1e3', '99999999999999999999999', '12, 12', '0x0c', ' 12', '12 ', '')
      .map((v) => ({ headers: [`Content-Length: ${v}`], body: JSON_BAD_BODY, wellFormed: false, unfinished: false, note: `cl=${v}` })),
  },
  {
    weight: 1,
    arbitrary: fc.constant<Framing>({
      headers: ['Content-Length: 0', 'Content-Length: 12'],
      body: JSON_BAD_BODY,
      wellFormed: false,
      unfinished: false,
      note: 'two-cl',
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constant<Framing>({
      headers: ['Content-Length: 12', 'Transfer-Encoding: chunked'],
      body: `c\r\n${JSON_BAD_BODY}\r\n0\r\n\r\n`,
      wellFormed: false,
      unfinished: false,
      note: 'cl+te',
    }),
  },
  {
    weight: 2,
    arbitrary: fc.constant<Framing>({
      headers: ['Transfer-Encoding: chunked'],
      body: `c\r\n${JSON_BAD_BODY}\r\n0\r\n\r\n`,
      wellFormed: true,
      unfinished: false,
      note: 'chunked',
    }),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        'zz\r\n{}\r\n0\r\n\r\n',
        'c\n{"value": 2}\n0\n\n',
        'ffffffffffffffffff1\r\nx\r\n0\r\n\r\n',
        '-1\r\n\r\n',
        'c;ext="x\r\n{"value": 2}\r\n0\r\n\r\n',
        '2\r\n{}\r\n0\r\nTrailer: x\r\n\r\n',
        '0\r\n',
      )
      .map((b) => ({ headers: ['Transfer-Encoding: chunked'], body: b, wellFormed: false, unfinished: false, note: 'chunked-bad' })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('xchunked', ' chunked', 'chunked, identity', 'identity', 'CHUNKED', 'gzip, chunked', 'chunked\u0000')
      .map((v) => ({
        headers: [`Transfer-Encoding: ${v}`],
        body: `c\r\n${JSON_BAD_BODY}\r\n0\r\n\r\n`,
        wellFormed: false,
        unfinished: false,
        note: `te=${v}`,
      })),
  },
);

function rawArb(): fc.Arbitrary<Case> {
  return fc
    .record({
      method: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom('GET', 'POST') },
        { weight: 1, arbitrary: fc.constantFrom(...RAW_METHODS_BAD) },
      ),
      target: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...RAW_TARGETS_OK) },
        { weight: 1, arbitrary: fc.constantFrom(...RAW_TARGETS_BAD) },
      ),
      version: fc.oneof({ weight: 8, arbitrary: fc.constant('HTTP/1.1') }, { weight: 1, arbitrary: fc.constantFrom(...RAW_VERSIONS_BAD) }),
      eol: fc.oneof({ weight: 10, arbitrary: fc.constant('\r\n') }, { weight: 1, arbitrary: fc.constantFrom('\n', '\r', '\n\r') }),
      host: fc.oneof(
        { weight: 10, arbitrary: fc.constant('Host: localhost') },
        { weight: 1, arbitrary: fc.constantFrom('', 'Host:', 'Host: a b', 'Host: x\r\nHost: y') },
      ),
      key: fc.oneof({ weight: 8, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      junk: fc.oneof(
        { weight: 6, arbitrary: fc.constant<string[]>([]) },
        { weight: 1, arbitrary: fc.array(fc.constantFrom(...RAW_HEADERS_BAD), { minLength: 1, maxLength: 3 }) },
      ),
      filler: fc.oneof({ weight: 10, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constantFrom(20, 45, 60, 200) }),
      framing: framingArb,
      split: fc.boolean(),
    })
    .map((r) => {
      const lines = [`${r.method} ${r.target} ${r.version}`];
      if (r.host) lines.push(r.host);
      if (r.key) lines.push(`X-API-Key: ${KEY}`);
      lines.push(...r.junk);
      for (let i = 0; i < r.filler; i++) lines.push(`X-Filler-${i}: ${i}`);
      lines.push(...r.framing.headers);
      const head = lines.join(r.eol) + r.eol + r.eol;
      const bytes = Buffer.from(head + r.framing.body, 'latin1');
      const wellFormed =
        (r.method === 'GET' || r.method === 'POST') &&
        RAW_TARGETS_OK.includes(r.target) &&
        r.version === 'HTTP/1.1' &&
        r.eol === '\r\n' &&
        r.host === 'Host: localhost' &&
        r.junk.length === 0 &&
        r.filler <= 20 &&
        r.framing.wellFormed;
      const note = `${r.method.slice(0, 8)}|${r.version || '-'}|eol=${JSON.stringify(r.eol)}|${r.framing.note}|filler=${r.filler}${r.junk.length ? '|junk' : ''}`;
      return withLabel<RawCase>({ kind: 'raw', bytes, wellFormed, unfinished: r.framing.unfinished, note });
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Clients and checks

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

type Outcome = { answer: Answer } | { error: string };

/** node:http, one connection per request; errors after a complete answer (bytes after a HEAD answer) are ignored. */
function send(c: HttpCase, timeoutMs = 20_000): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: Outcome): void => {
      if (!settled) {
        settled = true;
        resolve(o);
      }
    };
    let r: ReturnType<typeof httpRequest>;
    try {
      r = httpRequest(
        { host: '127.0.0.1', port: s.port, method: c.method, path: c.target, headers: c.headers, agent: false, timeout: timeoutMs },
        (res) => {
          // The MJPEG preview never ends: its status and headers are the answer; the connection is closed after them.
          if (c.method !== 'HEAD' && /^multipart\/x-mixed-replace/.test(String(res.headers['content-type']))) {
            done({ answer: { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0) } });
            r.destroy();
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () => done({ answer: { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) } }));
          res.on('error', (e: NodeJS.ErrnoException) => done({ error: e.code ?? e.message }));
        },
      );
    } catch (err) {
      throw new Error(`the fuzz client refused its own case (generator bug): ${(err as Error).message}\n${describe(c)}`);
    }
    r.on('timeout', () => {
      done({ error: 'TIMEOUT' });
      r.destroy();
    });
    r.on('error', (e: NodeJS.ErrnoException) => done({ error: e.code ?? e.message }));
    if (c.body) r.end(c.body);
    else r.end();
  });
}

function header(h: IncomingHttpHeaders | Record<string, string>, name: string): string {
  const v = h[name];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

/** Checks one answer against the interface's invariants; returns the problem, or null. */
function problemWith(method: string, target: string, auth: Auth, a: Answer): string | null {
  const { status } = a;
  if (!Number.isInteger(status) || status < 100 || status > 599) return `status ${status}`;
  if (header(a.headers, 'access-control-allow-origin') !== '*') return `no CORS header on ${status}`;
  const isJson = /^application\/json/.test(header(a.headers, 'content-type'));
  const head = method === 'HEAD';
  if ((status === 204 || status === 304 || head) && a.body.length > 0)
    return `${status} answer to ${method} carries ${a.body.length} body bytes`;
  let parsed: unknown;
  if (isJson && !head) {
    try {
      parsed = JSON.parse(a.body.toString('utf8'));
    } catch {
      return `${status} with a JSON content type is not JSON: ${a.body.toString('utf8').slice(0, 120)}`;
    }
  }
  if (status >= 400 && !head) {
    if (!isJson)
      return `${status} error answer is not JSON (${header(a.headers, 'content-type') || 'no content type'}): ${a.body.toString('latin1').slice(0, 120)}`;
    const b = parsed as Record<string, unknown>;
    if (b === null || typeof b !== 'object' || Array.isArray(b))
      return `error body is not an object: ${a.body.toString('utf8').slice(0, 120)}`;
    const extra = Object.keys(b).filter((k) => !['error', 'code', 'message', 'details'].includes(k));
    if (extra.length > 0) return `error body has extra fields ${extra.join(', ')}`;
    if (b.error !== true) return 'error body: error is not true';
    if (typeof b.code !== 'string' || !isErrorCode(b.code)) return `error body: code ${JSON.stringify(b.code)} is not in the registry`;
    if (ERRORS[b.code].status !== status)
      return `error body: ${b.code} is registered with ${ERRORS[b.code].status}, answered with ${status}`;
    if (typeof b.message !== 'string' || b.message.length === 0) return 'error body: message is not a non-empty string';
    if ('details' in b && (b.details === null || typeof b.details !== 'object' || Array.isArray(b.details)))
      return 'error body: details is not an object';
    if (status >= 500 && !ALLOWED_5XX.has(b.code)) return `undocumented ${status} ${b.code}: ${String(b.message).slice(0, 200)}`;
  }
  if (status >= 500 && head) return `${status} to HEAD`;
  const path = target.split('?')[0] ?? '';
  if (auth === 'invalid' && method !== 'OPTIONS' && status < 400 && !OPEN_PATH.test(path))
    return `${status} on a protected route without a valid API key`;
  return null;
}

// Raw socket exchange with an HTTP/1.1 response parser.

interface RawResult {
  answers: Answer[];
  closed: boolean;
  /** The server neither answered nor closed within the wait; the socket is left open and watched. */
  stalled: boolean;
  malformed: string | null;
}

/** Parses complete responses from the front of buf; returns them and the bytes used. */
function parseResponses(buf: Buffer, headRequests = 0): { answers: Answer[]; used: number; malformed: string | null } {
  const answers: Answer[] = [];
  let pos = 0;
  for (;;) {
    const end = buf.indexOf('\r\n\r\n', pos);
    if (end < 0) break;
    const lines = buf.subarray(pos, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.1 (\d{3})( .*)?$/.exec(lines[0] ?? '');
    if (!m) return { answers, used: pos, malformed: `bad status line ${JSON.stringify((lines[0] ?? '').slice(0, 80))}` };
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const i = line.indexOf(':');
      if (i <= 0) return { answers, used: pos, malformed: `bad header line ${JSON.stringify(line.slice(0, 80))}` };
      const k = line.slice(0, i).toLowerCase();
      const v = line.slice(i + 1).trim();
      headers[k] = headers[k] === undefined ? v : `${headers[k]}, ${v}`;
    }
    const status = Number(m[1]);
    let bodyStart = end + 4;
    if (status < 200) {
      pos = bodyStart;
      continue;
    }
    let body = Buffer.alloc(0);
    const noBody = status === 204 || status === 304 || answers.length < headRequests;
    if (!noBody && headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      const parts: Buffer[] = [];
      let p = bodyStart;
      let complete = false;
      for (;;) {
        const le = buf.indexOf('\r\n', p);
        if (le < 0) break;
        const size = parseInt(buf.subarray(p, le).toString('latin1'), 16);
        if (!Number.isFinite(size)) return { answers, used: pos, malformed: 'bad chunk size' };
        if (size === 0) {
          if (buf.length < le + 4) break;
          p = le + 4;
          complete = true;
          break;
        }
        if (buf.length < le + 2 + size + 2) break;
        parts.push(buf.subarray(le + 2, le + 2 + size));
        p = le + 2 + size + 2;
      }
      if (!complete) break;
      body = Buffer.concat(parts);
      bodyStart = p;
    } else if (!noBody) {
      const cl = headers['content-length'];
      if (cl === undefined || !/^\d+$/.test(cl)) return { answers, used: pos, malformed: `answer without a usable Content-Length (${cl})` };
      const n = Number(cl);
      if (buf.length < bodyStart + n) break;
      body = Buffer.from(buf.subarray(bodyStart, bodyStart + n));
      bodyStart += n;
    }
    answers.push({ status, headers, body });
    pos = bodyStart;
  }
  return { answers, used: pos, malformed: null };
}

interface Watched {
  sock: Socket;
  data: Buffer[];
  closed: boolean;
  c: RawCase;
}

/** Raw connections the server left open on malformed input; the server must close them eventually. */
const stalledPool: Watched[] = [];

function rawExchange(c: RawCase, waitMs: number): Promise<RawResult> {
  const heads = c.bytes.toString('latin1').startsWith('HEAD ') ? 1 : 0;
  return new Promise((resolve) => {
    const sock = connect(s.port, '127.0.0.1');
    const w: Watched = { sock, data: [], closed: false, c };
    let settled = false;
    let quiet: NodeJS.Timeout | null = null;
    const finish = (stalled: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (quiet) clearTimeout(quiet);
      const parsed = parseResponses(Buffer.concat(w.data), heads);
      if (stalled) stalledPool.push(w);
      else sock.destroy();
      resolve({ answers: parsed.answers, closed: w.closed, stalled, malformed: parsed.malformed });
    };
    sock.on('data', (d: Buffer) => {
      w.data.push(d);
      if (settled) return;
      // Once an answer is complete, wait a little for any further answer (a second request parsed from the bytes).
      const parsed = parseResponses(Buffer.concat(w.data), heads);
      if (parsed.answers.length > 0 || parsed.malformed) {
        if (quiet) clearTimeout(quiet);
        quiet = setTimeout(() => finish(false), 25);
      }
    });
    sock.on('error', () => {});
    sock.on('close', () => {
      w.closed = true;
      finish(false);
    });
    sock.on('connect', () => sock.write(c.bytes));
    const timer = setTimeout(() => finish(w.data.length === 0), waitMs);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Runner

const stats = {
  cases: 0,
  byCategory: {} as Record<string, number>,
  batches: 0,
  stateChecks: 0,
  mutations: 0,
  statuses: {} as Record<string, number>,
  resets: 0,
  rawClosed: 0,
  rawStalled: 0,
  documented: {} as Record<string, number>,
};

function count(status: number | string): void {
  const k = String(status);
  stats.statuses[k] = (stats.statuses[k] ?? 0) + 1;
}

/** The documented 5xx answers (load, busy renderer, activation) by code: accepted, and reported in fuzz.json. */
function countDocumented(a: Answer): void {
  if (a.status < 500) return;
  try {
    const code = String((JSON.parse(a.body.toString('utf8')) as { code?: unknown }).code);
    if (ALLOWED_5XX.has(code)) stats.documented[`${a.status} ${code}`] = (stats.documented[`${a.status} ${code}`] ?? 0) + 1;
  } catch {
    // not JSON: problemWith reports it
  }
}

const SNAPSHOT_ROUTES = ['/effects', '/sources/current', '/palettes/current', '/global'];

async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const p of SNAPSHOT_ROUTES) {
    const r = await req('GET', `${s.base}${API}${p}`, { headers: { 'x-api-key': KEY } });
    if (!(r.status === 200 || (p === '/palettes/current' && r.status === 404)))
      throw new Error(`state read ${p} answered ${r.status}: ${r.text.slice(0, 200)}`);
    parts.push(`${p} ${r.status} ${r.text}`);
  }
  return parts.join('\n');
}

function fail(c: Case, problem: string, detail = ''): never {
  throw new Error(`${problem}\n  case: ${describe(c)}${detail ? `\n  ${detail}` : ''}`);
}

/** Runs one case; returns true when it changed state with a 2xx answer (then a new snapshot is taken). */
async function runCase(c: Case): Promise<boolean> {
  if (c.kind === 'http') {
    const out = await send(c);
    if ('error' in out) {
      count(out.error);
      if (c.mayClose && ['ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes(out.error)) {
        stats.resets++;
        // A refused oversized request closes its own connection only: the server still serves.
        const st = await req('GET', `${s.base}${API}/status`);
        if (st.status !== 200) fail(c, `GET /status answered ${st.status} after the server closed an oversized request`);
        return false;
      }
      if (out.error === 'HPE_INVALID_CONSTANT' || out.error === 'HPE_UNEXPECTED_CONTENT_LENGTH')
        fail(c, `the answer is not valid HTTP (${out.error})`);
      fail(c, `no answer: ${out.error}`);
    }
    count(out.answer.status);
    countDocumented(out.answer);
    const p = problemWith(c.method, c.target, c.auth, out.answer);
    if (p) fail(c, p, `answer: ${out.answer.status} ${out.answer.body.toString('utf8').slice(0, 300)}`);
    return c.method === 'POST' && out.answer.status >= 200 && out.answer.status < 300;
  }
  const r = await rawExchange(c, c.wellFormed ? 15_000 : c.unfinished ? 100 : 250);
  if (r.malformed) fail(c, `the server wrote an invalid HTTP answer: ${r.malformed}`);
  if (c.wellFormed && r.answers.length === 0) fail(c, `a valid request got no answer (${r.closed ? 'closed' : 'no bytes'})`);
  if (r.answers.length === 0) {
    if (r.stalled) stats.rawStalled++;
    else stats.rawClosed++;
    count(r.stalled ? 'raw-stalled' : 'raw-closed');
  }
  const method = c.bytes.toString('latin1').split(' ')[0] ?? '';
  for (const a of r.answers) {
    count(a.status);
    countDocumented(a);
    const p = problemWith(method === 'HEAD' ? 'HEAD' : 'GET', '/api/v1/global', 'valid', a);
    if (p) fail(c, p, `answer: ${a.status} ${a.body.toString('utf8').slice(0, 300)}`);
  }
  return r.answers.some((a) => a.status >= 200 && a.status < 300) && c.bytes.includes('POST');
}

async function runBatch(category: string, cases: Case[]): Promise<void> {
  let before = await snapshot();
  if (cases.every((c) => c.kind === 'raw')) {
    // No raw case carries an acceptable body, so none may change state: they run side by side (their waits overlap).
    const changed = await Promise.all(cases.map((c) => runCase(c)));
    const i = changed.indexOf(true);
    if (i >= 0) fail(cases[i]!, 'a raw request with an invalid body was accepted with 2xx');
    stats.cases += cases.length;
    stats.byCategory[category] = (stats.byCategory[category] ?? 0) + cases.length;
  }
  for (const c of cases) {
    if (c.kind === 'raw') continue;
    const changed = await runCase(c);
    stats.cases++;
    stats.byCategory[category] = (stats.byCategory[category] ?? 0) + 1;
    if (changed) {
      stats.mutations++;
      before = await snapshot();
    }
  }
  const st = await req('GET', `${s.base}${API}/status`);
  if (st.status !== 200) throw new Error(`GET /status answered ${st.status} after a ${category} batch`);
  if (s.proc.exitCode !== null) throw new Error(`the server exited (${s.proc.exitCode}) during a ${category} batch`);
  const after = await snapshot();
  stats.stateChecks++;
  if (after !== before) {
    throw new Error(
      `state changed during a batch of rejected ${category} requests:\n--- before\n${before}\n--- after\n${after}\n--- cases\n${cases.map(describe).join('\n')}`,
    );
  }
  stats.batches++;
}

interface Category {
  name: string;
  share: number;
  maxBatches: number;
  arb: () => fc.Arbitrary<Case>;
}

const CATEGORIES: Category[] = [
  { name: 'raw', share: 0.15, maxBatches: 80, arb: rawArb },
  { name: 'routes', share: 0.25, maxBatches: 300, arb: routesArb },
  { name: 'paths', share: 0.07, maxBatches: 150, arb: pathsArb },
  { name: 'queries', share: 0.15, maxBatches: 200, arb: queriesArb },
  { name: 'headers', share: 0.1, maxBatches: 200, arb: headersArb },
  { name: 'bodies', share: 0.28, maxBatches: 250, arb: bodiesArb },
];

async function fuzzCategory(index: number): Promise<void> {
  const cat = CATEGORIES[index]!;
  const seed = SEED + index;
  const t0 = Date.now();
  const deadline = t0 + BUDGET_MS * cat.share;
  const before = stats.byCategory[cat.name] ?? 0;
  let ran = 0;
  const details = await fc.check(
    fc.asyncProperty(fc.array(cat.arb(), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
      // Wall-time bound reached: the remaining runs are empty. The first MIN_BATCHES always run, however slow the machine.
      if (ran >= MIN_BATCHES && Date.now() > deadline) return;
      ran++;
      await runBatch(cat.name, batch);
    }),
    { seed, numRuns: cat.maxBatches, endOnFailure: true },
  );
  if (details.failed) {
    // The batch itself is long; the error names the one case that broke an invariant.
    const err = details.errorInstance as Error | undefined;
    const exited = s.proc.exitCode !== null || s.proc.signalCode !== null;
    throw new Error(
      `fuzz ${cat.name} failed (seed ${seed}, path ${details.counterexamplePath}; replay with VJD_FUZZ_SEED=${SEED}):\n${err?.message ?? String(details.errorInstance)}` +
        (exited ? `\n--- server exited (${s.proc.exitCode ?? s.proc.signalCode}); log tail:\n${s.logs().slice(-4000)}` : ''),
    );
  }
  const n = (stats.byCategory[cat.name] ?? 0) - before;
  console.log(`fuzz ${cat.name}: ${n} cases in ${ran} batches, ${((Date.now() - t0) / 1000).toFixed(1)} s (seed ${seed})`);
  assert.ok(n >= BATCH * MIN_BATCHES, `${cat.name}: at least ${MIN_BATCHES} batches ran (${n} cases)`);
}

// ---------------------------------------------------------------------------------------------------------------
// Tests

test.before(async () => {
  console.log(`fuzz seed: ${SEED} (replay with VJD_FUZZ_SEED=${SEED}), budget ${BUDGET_MS} ms`);
  s = await startServer({
    config: {
      server: { apiKey: KEY },
      render: { width: 320, height: 180, fps: 15 },
      live: {
        test: [
          { id: 'red', name: 'Red Test', pattern: 'color=c=red:size=320x180:rate=10' },
          { id: 'bars', name: 'Bars Test', pattern: 'testsrc2=size=320x180:rate=10' },
        ],
        streams: [],
        v4l2: { enabled: false },
      },
    },
  });
});

test.after(async () => {
  for (const w of stalledPool) w.sock.destroy();
  await s?.cleanup();
});

test('route table from GET /api/v1/openapi.yaml, test hooks excluded; id pools from the running server', async () => {
  const auth = { headers: { 'x-api-key': KEY } };
  const y = await req('GET', `${s.base}${API}/openapi.yaml`);
  assert.is(y.status, 200);
  const doc = parseYaml(y.text) as { paths: Record<string, Record<string, unknown>> };
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const m of Object.keys(ops)) {
      if ((m === 'get' || m === 'post') && !path.includes('/_test/'))
        world.routes.push({ method: m.toUpperCase() as 'GET' | 'POST', path });
    }
  }
  // Served but hidden from the description.
  world.routes.push(
    { method: 'GET', path: `${API}/docs/{asset}` },
    { method: 'GET', path: `${API}/thumbnails/live/` },
    { method: 'GET', path: `${API}/thumbnails/live` },
  );
  const keys = world.routes.map((r) => `${r.method} ${r.path}`);
  for (const k of [
    'GET /api/v1/status',
    'GET /api/v1/browse',
    'POST /api/v1/effects/add',
    'GET /api/v1/thumbnails/live/{id}',
    'POST /api/v1/actions/{id}',
    'POST /api/v1/global/dimmer',
    'GET /media/thumbnails/{id}',
  ]) {
    assert.ok(keys.includes(k), `route ${k} discovered`);
  }
  assert.not.ok(
    keys.some((k) => k.includes('_test')),
    'test hooks are not fuzzed',
  );
  assert.ok(world.routes.length >= 30, `${world.routes.length} routes`);

  const get = async (p: string): Promise<any> => {
    const r = await req('GET', `${s.base}${API}${p}`, auth);
    assert.is(r.status, 200, p);
    return r.json();
  };
  world.liveIds = ['red', 'bars'];
  world.paletteIds = (await get('/palettes')).items.map((p: any) => p.id);
  world.actionIds = (await get('/actions')).items.map((a: any) => a.id);
  world.sourceIds = (await get('/sources')).items.map((x: any) => x.id);
  const cat = await get('/effects/available');
  world.effectTypes = cat.items.map((e: any) => e.type);
  world.effectNames = cat.items.map((e: any) => e.name);
  const etag = (await req('GET', `${s.base}${API}/openapi.yaml`)).headers['etag'];
  world.etags = [String(etag), '"x"'];
  assert.ok(world.sourceIds.length > 0 && world.effectTypes.length > 0 && world.actionIds.length > 0);
  console.log(
    `fuzz: ${world.routes.length} routes, ${world.actionIds.length} actions, ${world.effectTypes.length} effects, ${world.paletteIds.length} palettes, ${world.sourceIds.length} sources`,
  );
});

test('the response checker rejects what it must (the invariants can fail)', () => {
  const json = (status: number, body: unknown, extra: Record<string, string> = {}): Answer => ({
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'access-control-allow-origin': '*', ...extra },
    body: Buffer.from(JSON.stringify(body)),
  });
  const ok = { error: true, code: 'INVALID_REQUEST', message: 'x' };
  assert.is(problemWith('POST', '/api/v1/global/dimmer', 'valid', json(400, ok)), null);
  assert.is(problemWith('GET', '/api/v1/effects', 'valid', json(503, { error: true, code: 'CHAIN_BUSY', message: 'x' })), null);
  assert.match(String(problemWith('GET', '/x', 'valid', json(500, { error: true, code: 'INTERNAL', message: 'x' }))), /undocumented 500/);
  assert.match(String(problemWith('GET', '/x', 'valid', json(404, { ...ok }))), /registered with 400/);
  assert.match(String(problemWith('GET', '/x', 'valid', json(400, { ...ok, code: 'NOPE' }))), /not in the registry/);
  assert.match(String(problemWith('GET', '/x', 'valid', json(400, { ...ok, stack: 'x' }))), /extra fields/);
  assert.match(String(problemWith('GET', '/x', 'valid', json(400, { ...ok, details: [1] }))), /details/);
  assert.match(String(problemWith('GET', '/api/v1/global', 'invalid', json(200, {}))), /protected route/);
  assert.is(problemWith('GET', '/api/v1/status', 'invalid', json(200, {})), null);
  assert.match(
    String(problemWith('GET', '/x', 'valid', { status: 404, headers: { 'access-control-allow-origin': '*' }, body: Buffer.from('nope') })),
    /not JSON/,
  );
  assert.match(String(problemWith('HEAD', '/x', 'valid', json(405, ok))), /body bytes/);
  const two = parseResponses(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}HTTP/1.1 304 Not Modified\r\nETag: "x"\r\n\r\n'));
  assert.equal(
    two.answers.map((a) => a.status),
    [200, 304],
  );
  assert.match(String(parseResponses(Buffer.from('HTTP/1.1 200 OK\r\n\r\n')).malformed), /Content-Length/);
});

for (let i = 0; i < CATEGORIES.length; i++) {
  test(`fuzz ${CATEGORIES[i]!.name}: answered, documented statuses and error bodies, state unchanged by rejections, process up`, async () => {
    await fuzzCategory(i);
  });
}

test('connections left open on malformed bytes are closed by the server; their late answers are valid', async () => {
  const t0 = Date.now();
  await waitUntil(() => stalledPool.every((w) => w.closed || w.sock.destroyed), 25_000, 200).catch(() => {
    throw new Error(
      `${stalledPool.filter((w) => !w.closed).length} of ${stalledPool.length} stalled connections still open after ${Date.now() - t0} ms`,
    );
  });
  for (const w of stalledPool) {
    const parsed = parseResponses(Buffer.concat(w.data), w.c.bytes.toString('latin1').startsWith('HEAD ') ? 1 : 0);
    if (parsed.malformed) fail(w.c, `late answer is not valid HTTP: ${parsed.malformed}`);
    for (const a of parsed.answers) {
      const p = problemWith('GET', '/api/v1/global', 'valid', a);
      if (p) fail(w.c, `late answer: ${p}`);
    }
  }
  console.log(
    `fuzz: ${stalledPool.length} connections held open on malformed bytes, all closed by the server within ${Date.now() - t0} ms of the check`,
  );
});

test('process up; state restored; counts written to the results dir (fuzz.json)', async () => {
  const auth = { headers: { 'x-api-key': KEY } };
  assert.is(s.proc.exitCode, null, 'the server process is running');
  assert.is((await req('GET', `${s.base}${API}/status`)).status, 200);
  // Undo what the accepted mutations left behind.
  for (let i = 0; i < 200; i++) {
    const chain = (await req('GET', `${s.base}${API}/effects`, auth)).json();
    if (chain.count === 0) break;
    assert.is((await req('POST', `${s.base}${API}/effects/remove`, { ...auth, body: { index: 1 } })).status, 200);
  }
  assert.is((await req('POST', `${s.base}${API}/global/blackout`, { ...auth, body: { enabled: false } })).status, 200);
  assert.is((await req('POST', `${s.base}${API}/global/dimmer`, { ...auth, body: { value: 1 } })).status, 200);
  assert.equal((await req('GET', `${s.base}${API}/effects`, auth)).json(), { count: 0, enabledCount: 0, items: [] });
  assert.equal((await req('GET', `${s.base}${API}/global`, auth)).json(), { blackout: false, dimmer: 1 });
  assert.ok(stats.cases > 0);

  const durationMs = Date.now() - started;
  console.log(
    `fuzz: ${stats.cases} cases (${Object.entries(stats.byCategory)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}) in ${(durationMs / 1000).toFixed(1)} s, seed ${SEED}`,
  );
  console.log(
    `fuzz: ${stats.batches} batches with state checks, ${stats.mutations} accepted mutations, ${stats.resets} resets on oversized input, raw: ${stats.rawClosed} closed / ${stats.rawStalled} held open without an answer`,
  );
  console.log(`fuzz: answers by status ${JSON.stringify(stats.statuses)}; documented 5xx ${JSON.stringify(stats.documented)}`);
  const dir = RESULTS_DIR;
  await mkdir(dir, { recursive: true });
  const out = {
    seed: SEED,
    cases: stats.cases,
    byCategory: stats.byCategory,
    durationMs,
    budgetMs: BUDGET_MS,
    batches: stats.batches,
    acceptedMutations: stats.mutations,
    statuses: stats.statuses,
    documented5xx: stats.documented,
    resetsOnOversizedInput: stats.resets,
  };
  await writeFile(join(dir, 'fuzz.json'), `${JSON.stringify(out, null, 2)}\n`);
});

test.run();
