// Builds the OpenAPI 3.0.3 description served at /api/v1/openapi.yaml from the same route objects the router serves.
import YAML from 'yaml';
import { ERROR_CODES, ERRORS, type ErrorCode } from '../errors.js';
import type { ResponseDoc, RouteDef } from '../http/route.js';
import { toOpenApi30 } from './schema-convert.js';

type Json = Record<string, unknown>;

const ERROR_BODY_REF = '#/components/schemas/ErrorBody';

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
  docs: 'This description and its interactive documentation; always reachable without an API key.',
};

const INFO_DESCRIPTION = `Control surface of vjd, a headless live-visual mixing server.

## Conventions

- Every route lives under the base path \`/api/v1\`; the prefix carries the interface version. Paths in this document are absolute and include it, as do paths inside responses (\`thumbnailUrl\`, \`activate.path\`).
- Request bodies are JSON. Success responses are JSON except images (thumbnails), this document (YAML), the documentation page (HTML) and 304 answers (no body).
- A request body may hold at most 64 KiB; a larger one is answered with 413 \`PAYLOAD_TOO_LARGE\`.

## Authentication

Authentication is optional: it applies only when the operator sets an API key. When a key is set, every protected request carries it in \`X-API-Key: <key>\` or in \`Authorization: Bearer <key>\`. A missing or wrong key is answered with 401 \`UNAUTHORIZED\` and the header \`WWW-Authenticate: Bearer\`. \`/api/v1/status\`, \`/api/v1/docs\` and \`/api/v1/openapi.yaml\` are always reachable without a key.

## CORS

Requests from any origin are permitted. A preflight \`OPTIONS\` request is answered with 204 and the CORS headers.

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

Every error answers with the body \`{"error": true, "code": "<CODE>", "message": "<text>"}\`; \`details\` is added only where a route documents it (ITEM_NOT_FOUND, ACTIVATION_TIMEOUT). Each operation lists the codes it can answer with.`;

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
    item[route.method.toLowerCase()] = operation(route);
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
      responses: Object.fromEntries(ERROR_CODES.map((code) => [code, errorResponse(code)])),
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

function operation(route: RouteDef): Json {
  const op: Json = {
    operationId: route.operationId,
    summary: route.summary,
  };
  if (route.description !== undefined) op['description'] = route.description;
  op['tags'] = [...route.tags];
  const parameters = parametersOf(route);
  if (parameters.length > 0) op['parameters'] = parameters;
  if (route.schema.body !== undefined) {
    op['requestBody'] = {
      required: route.emptyBody !== true,
      content: { 'application/json': { schema: toOpenApi30(route.schema.body) } },
    };
  }
  op['responses'] = responsesOf(route);
  if (route.auth === 'none') op['security'] = [];
  return op;
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

function responsesOf(route: RouteDef): Json {
  const out: Json = {};
  for (const [status, doc] of Object.entries(route.responses)) out[status] = successResponse(doc);

  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    const status = ERRORS[code].status;
    const list = byStatus.get(status) ?? [];
    if (!list.includes(code)) list.push(code);
    byStatus.set(status, list);
  }
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const key = String(status);
    // A status the route documents itself keeps the route's own wording.
    if (out[key] !== undefined) continue;
    const codes = byStatus.get(status) ?? [];
    out[key] = codes.length === 1 ? { $ref: `#/components/responses/${codes[0]}` } : sharedStatusResponse(status, codes);
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

function successResponse(doc: ResponseDoc): Json {
  const r: Json = { description: doc.description };
  if (doc.headers !== undefined) {
    r['headers'] = Object.fromEntries(
      Object.entries(doc.headers).map(([name, h]) => [
        name,
        { description: h.description, schema: h.schema !== undefined ? toOpenApi30(h.schema) : { type: 'string' } },
      ]),
    );
  }
  if (doc.contentType !== undefined) {
    const schema =
      doc.schema !== undefined
        ? toOpenApi30(doc.schema)
        : doc.contentType.startsWith('image/')
          ? { type: 'string', format: 'binary' }
          : { type: 'string' };
    r['content'] = Object.fromEntries([doc.contentType, ...(doc.altContentTypes ?? [])].map((t) => [t, { schema }]));
  } else if (doc.schema !== undefined) {
    r['content'] = { 'application/json': { schema: toOpenApi30(doc.schema) } };
  }
  return r;
}

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

function errorLine(code: ErrorCode): string {
  return `${ERRORS[code].status} ${code}: ${ERRORS[code].message}`;
}

function errorExample(code: ErrorCode): Json {
  return { error: true, code, message: ERRORS[code].message };
}

/** Headers some error answers carry, so clients know how to react. */
function errorHeaders(codes: ErrorCode[]): Json | undefined {
  if (!codes.includes('UNAUTHORIZED')) return undefined;
  return {
    'WWW-Authenticate': { description: 'Always `Bearer realm="vjd"`: the API key is expected as a bearer token or in X-API-Key.', schema: { type: 'string' } },
  };
}

function errorResponse(code: ErrorCode): Json {
  const r: Json = { description: errorLine(code) };
  const headers = errorHeaders([code]);
  if (headers !== undefined) r['headers'] = headers;
  r['content'] = { 'application/json': { schema: { $ref: ERROR_BODY_REF }, example: errorExample(code) } };
  return r;
}

/** Several codes share one status on this operation: one response that names all of them, with one example each. */
function sharedStatusResponse(status: number, codes: ErrorCode[]): Json {
  const r: Json = {
    description: `${status}, one of:\n\n${codes.map((c) => `- ${errorLine(c)}`).join('\n')}`,
  };
  const headers = errorHeaders(codes);
  if (headers !== undefined) r['headers'] = headers;
  r['content'] = {
    'application/json': {
      schema: { $ref: ERROR_BODY_REF },
      examples: Object.fromEntries(codes.map((c) => [c, { summary: errorLine(c), value: errorExample(c) }])),
    },
  };
  return r;
}
