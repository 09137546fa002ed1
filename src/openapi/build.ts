// Builds the OpenAPI 3.0.3 description served at /api/v1/openapi.yaml from the same route objects the router serves.
import YAML from 'yaml';
import { ERROR_CODES, ERRORS, type ErrorCode } from '../errors.js';
import { PREFLIGHT_HEADERS } from '../http/cors.js';
import type { RouteDef } from '../http/route.js';
import { SCHEDULE_LIMITS } from '../limits.js';
import { toOpenApi30 } from './schema-convert.js';
import { corsHeaders, DEFAULT_DETAILS, errorComponent, errorStatusResponse, successResponse, type Json } from './responses.js';

const TAG_DESCRIPTIONS: Record<string, string> = {
  status: 'Server status and version; always reachable without an API key.',
  capabilities: 'Features this build serves, so a client can detect missing routes.',
  browse: 'Content presented as folders: source types, source presets, live inputs and media files.',
  sources: 'The current source and the list of sources.',
  inputs: 'Activation of a live input or a media file as the current source.',
  thumbnails: 'Preview images of live inputs, the current output and palettes.',
  effects: 'The effects chain (by 1-based position) and the effect catalog (by effect type).',
  palettes: 'Palettes and their colors; exactly one palette is current.',
  global: 'Output-wide controls such as blackout and dimmer.',
  actions: 'Named actions, including the Effect Presets category.',
  modulation: 'Modulators that move inputs by themselves (LFOs, audio, beat, steps) and the freeze that holds them.',
  desks: 'Lighting desks (Art-Net, sACN) and MIDI controllers: receiver state, the DMX personality, MIDI ports, mappings and learn.',
  docs: 'This description and its interactive documentation; always reachable without an API key.',
  pixelmap:
    'Pixel mapping out: LED fixtures placed on the program, sampled each frame and sent as Art-Net or sACN to the configured destinations.',
  schedule: 'Operations held for an instant (`at` on any POST): the waiting ones, the frames that applied the last ones, cancel.',
};

const INFO_DESCRIPTION = `Control surface of vjd, a headless live-visual mixing server.

## Conventions

- Every route lives under the base path \`/api/v1\`; the prefix carries the interface version. Paths in this document are absolute and include it, as do paths inside responses (\`thumbnailUrl\`, \`activate.path\`).
- Request bodies are JSON. Success responses are JSON except images (thumbnails), this document (YAML), the documentation page (HTML) and 304 answers (no body).
- A request body may hold at most 64 KiB; a larger one is answered with 413 \`PAYLOAD_TOO_LARGE\`.

## Authentication

Authentication is optional: it applies only when the operator sets an API key. When a key is set, every protected request carries it in \`X-API-Key: <key>\` or in \`Authorization: Bearer <key>\`. A missing or wrong key is answered with 401 \`UNAUTHORIZED\` and the header \`WWW-Authenticate: Bearer\`. \`/api/v1/status\`, \`/api/v1/docs\` and \`/api/v1/openapi.yaml\` are always reachable without a key.

## CORS

Requests from any origin are permitted. A preflight \`OPTIONS\` request is answered with 204 and the CORS headers on every path, without an API key. Every answer carries \`Access-Control-Allow-Origin: *\` and \`Access-Control-Expose-Headers: ETag\`; JSON answers carry \`Cache-Control: no-store\`.

## HEAD

Every GET operation also answers HEAD: the same status and headers, no body.

## Scheduled operations

Any POST may carry \`at\` in its JSON body (taken out before the body is checked): an ISO 8601 instant with a zone, \`"nextBeat"\`, \`"nextBar"\` or \`{"beat": n}\` on the tempo clock. The body is checked at once; the operation is answered 202 \`{scheduled: {id, op, at, requested}}\` and applied on the first frame due at or after the instant (GET /api/v1/show/scheduled). Refusals: 400 \`INVALID_AT\`, 422 \`AT_IN_PAST\` and \`AT_TOO_FAR\` (more than ${SCHEDULE_LIMITS.aheadMaxMs / 60_000} minutes ahead), 409 \`NO_BEAT_GRID\`, 503 \`SCHEDULE_FULL\`. GET never takes \`at\`.

## Name matching

Wherever an item is selected by name:

| Rule | Detail |
|---|---|
| Order | match on \`id\` first (where the route has an id), then on name |
| Case | case-insensitive |
| Separators | space, underscore and hyphen are equivalent |
| Whitespace | leading and trailing whitespace is ignored |

For effects a name is matched against the display name first, then against the type.

## Errors

Every error answers with the body \`{"error": true, "code": "<CODE>", "message": "<text>"}\`; \`details\` is added only where a route documents it (ITEM_NOT_FOUND, ACTIVATION_TIMEOUT). Each operation lists the codes it can answer with, each with its own body schema (the \`code\` and the \`details\` that route gives).`;

export interface BuildOptions {
  version: string;
  title?: string;
  /** Descriptions for tags beyond the built-in ones (keys compared case-insensitively). */
  tagDescriptions?: Record<string, string>;
}

/** Builds the OpenAPI 3.0.3 document for the given routes; hidden routes are left out. */
export function buildOpenApi(routes: RouteDef[], opts: BuildOptions): object {
  const paths: Record<string, Json> = {};
  const tagsUsed: string[] = [];

  for (const route of routes) {
    // A trailing `*` cannot be spelled in OpenAPI; such routes only serve static files and stay out of the description.
    if (route.hidden === true || route.path.includes('*')) continue;
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const item = (paths[path] ??= {});
    item[route.method.toLowerCase()] = operation(route, false);
    // HEAD is served on every GET route (RFC 9110 section 9.3.2); OPTIONS on every path.
    if (route.method === 'GET') item['head'] = operation(route, true);
    item['options'] ??= preflight(path, route.tags);
    for (const t of route.tags) if (!tagsUsed.includes(t)) tagsUsed.push(t);
  }

  return {
    openapi: '3.0.3',
    info: {
      title: opts.title ?? 'vjd control-surface API',
      version: opts.version,
      description: INFO_DESCRIPTION,
    },
    servers: [{ url: '/', description: 'the vjd server that serves this document' }],
    // The empty requirement keeps auth optional: a key is needed only when the operator has set one.
    security: [{ apiKeyHeader: [] }, { bearer: [] }, {}],
    tags: tagsUsed.map((name) => ({ name, description: tagDescription(name, opts.tagDescriptions) })),
    paths,
    components: {
      securitySchemes: {
        apiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'The API key set by the operator. Only checked when a key is set.',
        },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'The API key set by the operator, sent as `Authorization: Bearer <key>`. Only checked when a key is set.',
        },
      },
      schemas: { ErrorBody: errorBodySchema() },
      responses: Object.fromEntries(ERROR_CODES.map((code) => [code, errorComponent(code)])),
    },
  };
}

/** YAML text of the document; shared sub-objects are written out in full rather than as YAML aliases. */
export function toYaml(doc: object): string {
  return YAML.stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 });
}

function tagDescription(name: string, extra: Record<string, string> | undefined): string {
  const key = name.toLowerCase();
  for (const source of [extra ?? {}, TAG_DESCRIPTIONS]) {
    for (const [k, v] of Object.entries(source)) if (k.toLowerCase() === key) return v;
  }
  return `Operations on ${name}.`;
}

function operation(route: RouteDef, head: boolean): Json {
  const op: Json = {
    operationId: head ? `${route.operationId}Head` : route.operationId,
    summary: head ? `${route.summary} (headers only)` : route.summary,
  };
  if (head) op['description'] = 'The same answer as GET, status and headers, without a body.';
  else if (route.description !== undefined) op['description'] = route.description;
  op['tags'] = [...route.tags];
  const parameters = parametersOf(route);
  if (parameters.length > 0) op['parameters'] = parameters;
  if (route.schema.body !== undefined) {
    op['requestBody'] = {
      required: route.emptyBody !== true,
      content: { 'application/json': { schema: toOpenApi30(route.schema.body) } },
    };
  } else if (route.method === 'POST') {
    // The body is ignored, but a non-empty one must still be JSON (415 otherwise).
    op['requestBody'] = {
      required: false,
      description: 'Ignored; send none. A non-empty body must be sent as application/json.',
      content: { 'application/json': { schema: { description: 'any JSON value; ignored' } } },
    };
  }
  op['responses'] = responsesOf(route, head);
  if (route.auth === 'none') op['security'] = [];
  return op;
}

/** The CORS preflight the adapter answers on every path, without an API key. */
function preflight(path: string, tags: string[]): Json {
  const allow = Object.fromEntries(
    PREFLIGHT_HEADERS.map(([name, value]) => [
      name,
      { description: `always \`${value}\``, required: true, schema: { type: 'string', enum: [value] } },
    ]),
  );
  const params = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const name = path
    .replace(/\{([^}]+)\}/g, 'By-$1')
    .split(/[^A-Za-z0-9]+/)
    .filter((p) => p !== '' && p !== 'api' && p !== 'v1');
  return {
    operationId: `preflight${name.map((p) => p[0]!.toUpperCase() + p.slice(1)).join('')}`,
    summary: 'CORS preflight',
    description:
      'Answered for any origin, without an API key. `Access-Control-Allow-Private-Network: true` is added when the request asks for it and `server.allowPrivateNetwork` is set.',
    tags: [...tags],
    ...(params.length > 0 ? { parameters: params.map((n) => ({ name: n, in: 'path', required: true, schema: { type: 'string' } })) } : {}),
    security: [],
    responses: {
      '204': {
        description: 'the methods and headers a cross-origin request may use',
        headers: {
          ...corsHeaders(),
          ...allow,
          'Access-Control-Allow-Private-Network': {
            description: 'only when asked for and allowed',
            required: false,
            schema: { type: 'string', enum: ['true'] },
          },
        },
      },
      '421': errorStatusResponse(421, ['MISDIRECTED_REQUEST'], (c) => DEFAULT_DETAILS[c], false),
    },
  };
}

function parametersOf(route: RouteDef): Json[] {
  const out: Json[] = [];
  const pathNames = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);
  const params = objectProperties(route.schema.params);
  for (const name of pathNames) {
    // Every templated segment must be declared, even when the route has no params schema.
    out.push(parameter(name, 'path', true, params.properties[name] ?? { type: 'string' }));
  }
  const query = objectProperties(route.schema.query);
  for (const [name, schema] of Object.entries(query.properties)) {
    out.push(parameter(name, 'query', query.required.includes(name), schema));
  }
  if (route.responses[304] !== undefined) {
    out.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'an ETag from an earlier answer (a list, weak forms and `*` count): 304 without a body when it matches',
      schema: { type: 'string' },
    });
  }
  return out;
}

function parameter(name: string, where: 'path' | 'query', required: boolean, schema: unknown): Json {
  const converted = toOpenApi30(schema) as Json;
  const description = converted['description'];
  delete converted['description'];
  const p: Json = { name, in: where, required };
  if (typeof description === 'string') p['description'] = description;
  p['schema'] = converted;
  return p;
}

function objectProperties(schema: unknown): { properties: Record<string, unknown>; required: string[] } {
  if (typeof schema !== 'object' || schema === null) return { properties: {}, required: [] };
  const s = schema as Json;
  const properties = typeof s['properties'] === 'object' && s['properties'] !== null ? (s['properties'] as Record<string, unknown>) : {};
  const required = Array.isArray(s['required']) ? s['required'].filter((r): r is string => typeof r === 'string') : [];
  return { properties, required };
}

function responsesOf(route: RouteDef, head: boolean): Json {
  const out: Json = {};
  for (const [status, doc] of Object.entries(route.responses)) out[status] = successResponse(doc, head);

  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    const status = ERRORS[code].status;
    const list = byStatus.get(status) ?? [];
    if (!list.includes(code)) list.push(code);
    byStatus.set(status, list);
  }
  const details = (c: ErrorCode): Json | undefined => {
    const own = route.errorDetails?.[c];
    return own !== undefined ? (toOpenApi30(own) as Json) : DEFAULT_DETAILS[c];
  };
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const key = String(status);
    // A status the route documents itself keeps the route's own wording.
    if (out[key] !== undefined) continue;
    out[key] = errorStatusResponse(status, byStatus.get(status) ?? [], details, head);
  }
  return out;
}

/** The codes a route can answer with: its own list plus what the adapter and router add to every route of its kind. */
function errorCodesOf(route: RouteDef): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (route.schema.body !== undefined || route.method === 'POST') codes.push('INVALID_REQUEST');
  // Without a custom mapper a failed query or params check answers INVALID_REQUEST.
  if ((route.schema.query !== undefined || route.schema.params !== undefined) && route.invalid === undefined) {
    codes.push('INVALID_REQUEST');
  }
  if (route.auth === 'required') codes.push('UNAUTHORIZED');
  codes.push(...route.errors);
  if (route.schema.body !== undefined || route.method === 'POST') codes.push('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  // Every route refuses a Host the server does not answer for; every mutation answers only once it is saved.
  codes.push('MISDIRECTED_REQUEST');
  if (route.method === 'POST') codes.push('STATE_NOT_SAVED');
  codes.push('INTERNAL');
  return [...new Set(codes)];
}

/** Any error body; each operation names the exact codes (and `details`) it answers with. */
function errorBodySchema(): Json {
  return {
    type: 'object',
    description: 'Body of every error answer.',
    required: ['error', 'code', 'message'],
    properties: {
      error: { type: 'boolean', enum: [true], description: 'always true' },
      code: { type: 'string', enum: [...ERROR_CODES], description: 'machine-readable error code' },
      message: { type: 'string', description: 'human-readable text' },
      details: {
        type: 'object',
        additionalProperties: true,
        description: 'present only where the route documents it (ITEM_NOT_FOUND, ACTIVATION_TIMEOUT)',
      },
    },
  };
}
