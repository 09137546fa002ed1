// Response objects of the OpenAPI description: success answers, error answers per code (with their `details`), and
// the headers the adapter writes on every answer (CORS, Cache-Control on JSON, Retry-After on some 503s).
import { ERRORS, type ErrorCode } from '../errors.js';
import { CORS_HEADERS } from '../http/cors.js';
import type { ResponseDoc } from '../http/route.js';
import { toOpenApi30 } from './schema-convert.js';

export type Json = Record<string, unknown>;

/** Codes whose answer always carries `Retry-After` (PREVIEW_TIMEOUT carries it only when the readback expired). */
const RETRY_ALWAYS: ReadonlySet<ErrorCode> = new Set(['STATE_NOT_SAVED', 'THUMBNAIL_QUEUE_FULL']);
const RETRY_SOMETIMES: ReadonlySet<ErrorCode> = new Set(['PREVIEW_TIMEOUT']);

const Available = (max?: number): Json => ({
  type: 'array',
  items: { type: 'string' },
  ...(max !== undefined ? { maxItems: max } : {}),
  description: max !== undefined ? `identifiers that would match (at most ${max})` : 'names or types that would match',
});

/** `details` of the codes that carry it, as docs/api.md (Errors) describes them; a route may narrow them (RouteDef.errorDetails). */
export const DEFAULT_DETAILS: Partial<Record<ErrorCode, Json>> = {
  ITEM_NOT_FOUND: {
    type: 'object',
    description: 'what was asked for and what exists: `available` for a name or id miss, `min`/`max` for a position miss',
    required: ['requested'],
    properties: {
      requested: { anyOf: [{ type: 'string' }, { type: 'integer' }], description: 'the id, name, type or position sent' },
      kind: { type: 'string', description: 'what was looked up (source kind, `palette`, `action`, …)' },
      available: Available(50),
      min: { type: 'integer', description: 'lowest valid position (1)' },
      max: { type: 'integer', description: 'highest valid position (the chain length)' },
    },
    additionalProperties: false,
  },
  ACTIVATION_TIMEOUT: {
    type: 'object',
    required: ['requested', 'kind', 'reason', 'timeoutMs'],
    properties: {
      requested: { type: 'string', description: 'id of the source that did not become current' },
      kind: { type: 'string', description: 'its source kind (`live`, `file`, `generator`, `preset`)' },
      reason: { type: 'string', enum: ['expired', 'superseded', 'failed'] },
      timeoutMs: { type: 'integer', enum: [5000] },
    },
    additionalProperties: false,
  },
};

export const ITEM_DETAILS_UNCAPPED: Json = {
  ...(DEFAULT_DETAILS.ITEM_NOT_FOUND as Json),
  properties: { ...((DEFAULT_DETAILS.ITEM_NOT_FOUND as Json)['properties'] as Json), available: Available() },
};

const header = (description: string, schema: Json, required = true): Json => ({ description, required, schema });

/** Headers the adapter writes on every answer, errors and 304 included. */
export function corsHeaders(): Json {
  return Object.fromEntries(CORS_HEADERS.map(([name, value]) => [name, header(`always \`${value}\``, { type: 'string', enum: [value] })]));
}

const NO_STORE = (): Json => ({ 'Cache-Control': header('always `no-store` on JSON answers', { type: 'string', enum: ['no-store'] }) });

/** Schema of the error body for one code, with the `details` this route gives (or none). */
export function errorSchema(code: ErrorCode, details: Json | undefined): Json {
  const properties: Json = {
    error: { type: 'boolean', enum: [true] },
    code: { type: 'string', enum: [code] },
    message: { type: 'string', description: 'human-readable text' },
  };
  if (details !== undefined) properties['details'] = details;
  return { type: 'object', required: ['error', 'code', 'message'], properties, additionalProperties: false };
}

function errorLine(code: ErrorCode): string {
  return `${ERRORS[code].status} ${code}: ${ERRORS[code].message}`;
}

function errorExample(code: ErrorCode): Json {
  return { error: true, code, message: ERRORS[code].message };
}

function errorHeaders(codes: ErrorCode[]): Json {
  const out: Json = { ...corsHeaders(), ...NO_STORE() };
  if (codes.includes('UNAUTHORIZED')) {
    out['WWW-Authenticate'] = header('the API key is expected as a bearer token or in X-API-Key', {
      type: 'string',
      enum: ['Bearer realm="vjd"'],
    });
  }
  const always = codes.every((c) => RETRY_ALWAYS.has(c));
  if (codes.some((c) => RETRY_ALWAYS.has(c) || RETRY_SOMETIMES.has(c))) {
    out['Retry-After'] = header('seconds to wait before retrying', { type: 'string', pattern: '^[0-9]+$' }, always);
  }
  return out;
}

/**
 * The answer for one status: a `$ref` to the shared component when one code with its default details answers it,
 * else an inline response whose schema is one error body per code. `head` drops the body (HEAD answers have none).
 */
export function errorStatusResponse(status: number, codes: ErrorCode[], details: (c: ErrorCode) => Json | undefined, head: boolean): Json {
  const custom = codes.some((c) => details(c) !== DEFAULT_DETAILS[c]);
  if (!head && codes.length === 1 && !custom) return { $ref: `#/components/responses/${codes[0]}` };
  const r: Json = {
    description:
      codes.length === 1 ? errorLine(codes[0] as ErrorCode) : `${status}, one of:\n\n${codes.map((c) => `- ${errorLine(c)}`).join('\n')}`,
    headers: errorHeaders(codes),
  };
  if (head) return r;
  const schemas = codes.map((c) => errorSchema(c, details(c)));
  r['content'] = {
    'application/json': {
      schema: schemas.length === 1 ? schemas[0] : { oneOf: schemas },
      examples: Object.fromEntries(codes.map((c) => [c, { summary: errorLine(c), value: errorExample(c) }])),
    },
  };
  return r;
}

/** The shared component response of one code. */
export function errorComponent(code: ErrorCode): Json {
  return {
    description: errorLine(code),
    headers: errorHeaders([code]),
    content: { 'application/json': { schema: errorSchema(code, DEFAULT_DETAILS[code]), example: errorExample(code) } },
  };
}

/** A documented success answer; JSON bodies get `Cache-Control: no-store` unless the route names its own. */
export function successResponse(doc: ResponseDoc, head: boolean): Json {
  const headers: Json = { ...corsHeaders() };
  const json = doc.contentType === undefined && doc.schema !== undefined;
  if (json && doc.headers?.['Cache-Control'] === undefined) Object.assign(headers, NO_STORE());
  for (const [name, h] of Object.entries(doc.headers ?? {})) {
    headers[name] = header(
      h.description,
      h.schema !== undefined ? (toOpenApi30(h.schema) as Json) : { type: 'string' },
      h.required !== false,
    );
  }
  const r: Json = { description: doc.description, headers };
  if (head) return r;
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
