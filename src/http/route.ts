// Routes as data: a route is a plain object (method, path, schemas, auth, docs, handler).
// The router compiles the schemas once, the OpenAPI generator reads the same objects.
import type { Static, TSchema } from 'typebox';
import type { ApiError, ErrorCode } from '../errors.js';

export type Method = 'GET' | 'POST' | 'DELETE';

/** Request headers the adapter captures before the request object goes away (lower-case names). */
export const CAPTURED_HEADERS = [
  'x-api-key',
  'authorization',
  'if-none-match',
  'content-type',
  'content-length',
  'transfer-encoding',
  'range',
  'accept-encoding',
] as const;
export type CapturedHeader = (typeof CAPTURED_HEADERS)[number];

export interface RouteRequest<Q = unknown, P = unknown, B = unknown> {
  method: Method;
  /** URL path without the query string, as sent. */
  url: string;
  query: Q;
  params: P;
  body: B;
  headers: Readonly<Record<CapturedHeader, string>>;
  /** Set when the client went away; long handlers may stop early. */
  readonly aborted: boolean;
}

/** What a handler returns; the adapter alone writes it to the socket. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** JSON body (serialized by the adapter). */
  json?: unknown;
  /** JSON body already serialized (a memoised hot reply; large ones as UTF-8 bytes); sent with the same headers as `json`. */
  jsonText?: string | Uint8Array;
  /** Raw body with its content type (images, YAML, HTML, scripts). */
  body?: Uint8Array | string;
  contentType?: string;
  /** Strong validator (quoted). The adapter sends it as ETag and answers 304 when If-None-Match matches it. */
  etag?: string;
  /**
   * A body produced after the headers (files, endless streams), with `contentType`. With `length` the answer has a
   * Content-Length and the producer writes exactly that many bytes; without, it is sent chunked until `end()`.
   * `start` runs once the headers are written (never for HEAD or an aborted request).
   */
  stream?: { length?: number; start(sink: StreamSink): void };
}

/** Where a streamed body goes; the adapter alone holds the socket. At most one chunk is ever held back. */
export interface StreamSink {
  /**
   * Sends a chunk; false when the socket's buffer is full: wait for `onDrain` (or `backpressured` to clear) before
   * writing again. A chunked answer drops a chunk written while one is still held back.
   */
  write(chunk: Uint8Array): boolean;
  /** Ends the body (chunked answers); a body with `length` ends when its last byte is written. */
  end(): void;
  /** Closes the connection (a producer that failed mid-body: the client sees a cut answer, not a short one). */
  abort(): void;
  /** Called once the held-back chunk is out. */
  onDrain(cb: () => void): void;
  /** Called once when the client went away, the body ended or the server closed the connection. */
  onClose(cb: () => void): void;
  readonly closed: boolean;
  /** Whether a chunk is held back (the client reads slower than the producer writes). */
  readonly backpressured: boolean;
  /** Bytes of this answer that may wait in the HTTP engine's own buffer, beyond the socket (an upper bound). */
  readonly queuedBytes: number;
}

export interface ResponseDoc {
  description: string;
  /** JSON schema of the body; for non-JSON bodies set contentType and leave schema unset or a string/binary schema. */
  schema?: TSchema;
  contentType?: string;
  /** Further content types the same answer may have (thumbnails: image/png or image/jpeg by `format`). */
  altContentTypes?: string[];
  /** Response headers; each is always sent unless `required` is false. */
  headers?: Record<string, { description: string; schema?: TSchema; required?: boolean }>;
}

export interface RouteSchemas<Q extends TSchema, P extends TSchema, B extends TSchema> {
  query?: Q;
  params?: P;
  /** JSON body schema. When set, the body must be JSON (an empty body counts as `{}` only if `emptyBody` is true). */
  body?: B;
}

export interface RouteDef<Q extends TSchema = TSchema, P extends TSchema = TSchema, B extends TSchema = TSchema> {
  method: Method;
  /** Absolute path; `:name` segments are parameters; a trailing `*` matches the rest (static assets). */
  path: string;
  /**
   * What a parameter's segment must be for the path to be this route at all (a regular expression source matched
   * against the whole raw segment); a segment that does not match is another path, so it answers 404 or another
   * route's 405, never this route's validation error. Default: any segment.
   */
  paramPatterns?: Record<string, string>;
  /** `required`: the API key applies when one is set; `none`: always reachable (status, docs, openapi). */
  auth: 'required' | 'none';
  summary: string;
  description?: string;
  tags: string[];
  operationId: string;
  schema: RouteSchemas<Q, P, B>;
  /** When true an empty body is accepted and validated as `{}` (e.g. POST /palettes/next). */
  emptyBody?: boolean;
  /** Maps a validation failure to the route's error; default INVALID_REQUEST with the first problem as message. */
  invalid?: (where: 'query' | 'params' | 'body', problem: string, value: unknown) => ApiError;
  responses: Record<number, ResponseDoc>;
  /** Error codes this route can answer with (beyond the ones every protected route has); used by the OpenAPI description. */
  errors: ErrorCode[];
  /** Schema of `details` for error codes whose details differ on this route (the OpenAPI description only). */
  errorDetails?: Partial<Record<ErrorCode, TSchema>>;
  /** Capability feature this route provides (listed by GET /capabilities only while the route is served). */
  feature?: string;
  /** Hidden routes are served but left out of the OpenAPI description (docs assets). */
  hidden?: boolean;
  handler: (req: RouteRequest<Static<Q>, Static<P>, Static<B>>) => Reply | Promise<Reply>;
}

/** Identity helper that keeps the handler's request typed by the schemas. */
export function defineRoute<Q extends TSchema, P extends TSchema, B extends TSchema>(def: RouteDef<Q, P, B>): RouteDef {
  return def as unknown as RouteDef;
}

export const API_PREFIX = '/api/v1';

/** A chain or list position in a path: digits only (`/effects/3`), so `/effects/anything` is no route. */
export const POSITION_PATTERN = '[0-9]+';
