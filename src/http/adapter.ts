// With exchange.ts and stream-reply.ts, the only code that touches uWS req/res: abort safety, corked writes,
// bounded body reading, JSON and query parsing, auth, CORS, validation, and the reply.
import type { HttpRequest, HttpResponse, TemplatedApp } from './uws.js';
import { ApiError } from '../errors.js';
import { CORS_HEADERS, PREFLIGHT_HEADERS } from './cors.js';
import {
  CACHE_CONTROL,
  CONTENT_LENGTH,
  CONTENT_TYPE,
  CORS_BYTES,
  HOST,
  JSON_TYPE,
  NO_STORE,
  statusLine,
  TRANSFER_ENCODING,
} from './wire.js';
import type { ApiKeyGuard } from './auth.js';
import type { HostPolicy } from './host-policy.js';
import { LIMITS } from '../limits.js';
import { exchange, type Exchange, finish, watchAbort, writeHeaders } from './exchange.js';
import { readHeaders } from './request-headers.js';
import { replyHead } from './reply-head.js';
import { sendWithBackpressure, startStream } from './stream-reply.js';
import {
  decodeParam,
  errorReply,
  execute,
  parseQuery,
  routeMiss,
  type MirrorHook,
  type ScheduleHook,
  truncate,
  unauthorized,
} from './dispatch.js';
import type { Reply, RouteRequest } from './route.js';
import type { CompiledRoute, Router } from './router.js';
import type { Logger } from '../log.js';

export const BODY_LIMIT = LIMITS.bodyLimitBytes;

/** What every request is checked against; the same for every listener generation. */
export interface RequestPolicy {
  guard: ApiKeyGuard;
  /** The Host names this server answers for (421 MISDIRECTED_REQUEST otherwise: DNS rebinding). */
  hosts: HostPolicy;
  /** Whether a CORS preflight asking for private-network access is granted (`server.allowPrivateNetwork`). */
  privateNetwork(): boolean;
  /** Resolves once every state change made so far is on disk; a mutation's 2xx is sent only after it. */
  durable(): Promise<void>;
  /** Holds POSTs carrying `at` (src/schedule); absent: `at` is refused. */
  schedule?: ScheduleHook;
  /** Publishes POSTs carrying `show` to the show's boxes (a leader's mirroring); absent: `show` is refused. */
  mirror?: MirrorHook;
}

export interface AdapterHooks extends RequestPolicy {
  log: Logger;
  /** False once this app's listener was closed (rebind, disable, shutdown): its connections get closed. */
  isLive(): boolean;
  /** Whether uWS's native binary serves (the JS fallback takes one call per answer line, see reply-head.ts). */
  nativeEngine: boolean;
  /** In-flight accounting for graceful shutdown. */
  started(): void;
  finished(): void;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Registers every compiled route plus the preflight, 405 and 404 handlers on one uWS app. */
export function mountRouter(app: TemplatedApp, router: Router, hooks: AdapterHooks): void {
  for (const route of router.routes) {
    const register = route.def.method === 'GET' ? app.get.bind(app) : route.def.method === 'POST' ? app.post.bind(app) : app.del.bind(app);
    const checked = route.def.paramPatterns !== undefined;
    register(route.pattern, (res, req) => {
      // The engine matches any segment for a parameter; one outside the route's pattern is another path.
      if (checked && !route.accepts(route.paramNames.map((_, i) => req.getParameter(i)))) return miss(res, req, router, hooks);
      guarded(route, res, req, hooks, null, false);
    });
  }
  app.options('/*', (res, req) => {
    if (!hooks.isLive()) return void res.close();
    if (ambiguousFraming(res, req)) return;
    if (!hooks.hosts.allows(req.getHeader('host'))) return sendError(exchange(res, false, true), hooks, misdirected(req.getHeader('host')));
    // Private Network Access: a public page asking to reach this box gets no grant unless the operator opted in.
    const pna = req.getHeader('access-control-request-private-network').toLowerCase() === 'true' && hooks.privateNetwork();
    res.cork(() => {
      res.writeStatus(statusLine(204));
      writeHeaders(res, CORS_HEADERS);
      writeHeaders(res, PREFLIGHT_HEADERS);
      if (pna) res.writeHeader('Access-Control-Allow-Private-Network', 'true');
      res.endWithoutBody();
    });
  });
  app.any('/*', (res, req) => miss(res, req, router, hooks));
}

/** A request the engine's router did not send to a route: HEAD, a path with a query (the JS fallback), or no route. */
function miss(res: HttpResponse, req: HttpRequest, router: Router, hooks: AdapterHooks): void {
  if (!hooks.isLive()) return void res.close();
  if (ambiguousFraming(res, req)) return;
  const { url } = readTarget(req);
  const method = req.getMethod().toUpperCase();
  // HEAD is served by the GET route of the same path (RFC 9110 section 9.3.2).
  const head = method === 'HEAD';
  // The engine routes by method and pattern itself; this catches what its router missed (the JS fallback
  // does not match paths that carry a query string) and HEAD.
  const found = router.find(head ? 'GET' : method, url);
  if (found) return guarded(found.route, res, req, hooks, found.params, head);
  const ex = exchange(res, head, true);
  if (!hooks.hosts.allows(req.getHeader('host'))) return sendError(ex, hooks, misdirected(req.getHeader('host')));
  const err = routeMiss(router, method, url, () => hooks.guard.check(req.getHeader('x-api-key'), req.getHeader('authorization')));
  sendError(ex, hooks, err);
}

function misdirected(host: string): ApiError {
  return new ApiError(
    'MISDIRECTED_REQUEST',
    `this server does not answer for Host "${truncate(host, 100)}"; add the name to server.allowedHosts`,
  );
}

function guarded(
  route: CompiledRoute,
  res: HttpResponse,
  req: HttpRequest,
  hooks: AdapterHooks,
  params: string[] | null,
  head: boolean,
): void {
  const ex = exchange(res, head, true);
  try {
    handleRoute(route, ex, req, hooks, params);
  } catch (err) {
    // Last resort: a bug (or an engine quirk) answers 500 instead of taking the process down.
    hooks.log.error({ err, route: `${route.def.method} ${route.def.path}` }, 'request handling failed');
    if (!ex.done) respond(ex, hooks, errorReply(new ApiError('INTERNAL')), true);
  }
  // What answers later (a promise, a body read) runs outside the engine's cork.
  ex.corked = false;
}

function handleRoute(route: CompiledRoute, ex: Exchange, req: HttpRequest, hooks: AdapterHooks, params: string[] | null): void {
  const res = ex.res;
  if (!hooks.isLive()) {
    ex.done = true;
    return void res.close();
  }
  const length = req.getHeader(CONTENT_LENGTH);
  const coding = req.getHeader(TRANSFER_ENCODING);
  if (ambiguousFraming(res, req, length, coding)) {
    ex.done = true;
    return;
  }
  hooks.started();
  const host = req.getHeader(HOST);
  if (!hooks.hosts.allows(host)) return void respond(ex, hooks, errorReply(misdirected(host)));

  // Everything needed from req is read now: it is invalid after this function returns.
  const headers = readHeaders(req, length, coding);
  const { url, query: rawQuery } = readTarget(req);
  const rawParams: Record<string, string> = {};
  const names = route.paramNames;
  for (let i = 0; i < names.length; i++) rawParams[names[i]!] = decodeParam((params ? params[i] : req.getParameter(i)) ?? '');

  if (route.def.auth === 'required' && !hooks.guard.check(headers['x-api-key'], headers['authorization'])) {
    return void respond(ex, hooks, errorReply(unauthorized()));
  }

  // A plain data field, not a getter: object literals with accessors leave V8's fast allocation path and,
  // measured under load, pushed every request's objects into old space (p99 12 ms -> 2.9 ms without).
  const request: RouteRequest = {
    method: route.def.method,
    url,
    query: parseQuery(rawQuery),
    params: rawParams,
    body: undefined,
    headers,
    aborted: false,
  };
  ex.request = request as { aborted: boolean };

  const declared = headers['content-length'];
  if (route.def.method !== 'POST') {
    if ((declared === '' || declared === '0') && headers['transfer-encoding'] === '') return void dispatch(route, request, ex, hooks);
    // A body on GET or DELETE means nothing here, but an answer written before it is read makes uWS close the
    // connection with bytes unread, and the kernel's reset can destroy the answer: read it (bounded) and drop it.
    if (declared !== '' && Number(declared) > BODY_LIMIT) {
      return void respond(
        ex,
        hooks,
        errorReply(new ApiError('PAYLOAD_TOO_LARGE', `request body is larger than ${BODY_LIMIT} bytes`)),
        true,
      );
    }
    watchAbort(ex, hooks);
    return void readBody(res, ex, BODY_LIMIT, (body) => {
      if (body === null)
        respond(ex, hooks, errorReply(new ApiError('PAYLOAD_TOO_LARGE', `request body is larger than ${BODY_LIMIT} bytes`)), true);
      else dispatch(route, request, ex, hooks);
    });
  }

  if (declared !== '' && Number(declared) > BODY_LIMIT) {
    return void respond(ex, hooks, errorReply(new ApiError('PAYLOAD_TOO_LARGE', `request body is larger than ${BODY_LIMIT} bytes`)), true);
  }
  watchAbort(ex, hooks);
  readBody(res, ex, BODY_LIMIT, (body) => {
    if (body === null) {
      respond(ex, hooks, errorReply(new ApiError('PAYLOAD_TOO_LARGE', `request body is larger than ${BODY_LIMIT} bytes`)), true);
      return;
    }
    try {
      request.body = parseJsonBody(body, route.def.emptyBody === true, headers['content-type']);
    } catch (err) {
      respond(ex, hooks, errorReply(err as ApiError));
      return;
    }
    dispatch(route, request, ex, hooks);
  });
}

/**
 * Request framing that two HTTP parsers could read differently is refused (RFC 9112 sections 6.1 and 6.3): uWS
 * frames a body by the first of several Content-Length headers, dechunks when several Transfer-Encoding headers
 * end in `identity`, and takes `xchunked` for chunked, then parses the bytes after that body as the next request on
 * the connection. That would let a client smuggle a request past anything in front of vjd that reads the other
 * framing. Such a connection is closed at once: uWS keeps parsing pipelined bytes after a `Connection: close` reply
 * (and loses a reply written just before a close), so closing without an answer is the only way to drop what
 * follows. Requests with neither header skip the header walk.
 */
function ambiguousFraming(
  res: HttpResponse,
  req: HttpRequest,
  length = req.getHeader(CONTENT_LENGTH),
  te = req.getHeader(TRANSFER_ENCODING),
): boolean {
  if (length === '' && te === '') return false;
  let lengths = 0;
  let codings = 0;
  try {
    req.forEach((key) => {
      if (key === 'content-length') lengths++;
      else if (key === 'transfer-encoding') codings++;
    });
  } catch {
    // The pure-JS fallback has no header walk; node:http under it already refuses conflicting framing.
    return false;
  }
  const ambiguous = lengths > 1 || codings > 1 || (codings === 1 && (lengths > 0 || te.trim().toLowerCase() !== 'chunked'));
  if (ambiguous) res.close();
  return ambiguous;
}

function dispatch(route: CompiledRoute, request: RouteRequest, ex: Exchange, hooks: AdapterHooks): void {
  const out = execute(route, request, hooks);
  if (out instanceof Promise) {
    watchAbort(ex, hooks);
    void out.then((reply) => respond(ex, hooks, reply));
  } else {
    respond(ex, hooks, out);
  }
}

function sendError(ex: Exchange, hooks: AdapterHooks, err: ApiError): void {
  writeReply(ex, hooks, errorReply(err), false);
}

/** Reads the body in chunks; calls back once with the bytes, or null when the limit is passed. */
function readBody(res: HttpResponse, ex: Exchange, limit: number, done: (body: Buffer | null) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  res.onData((chunk, isLast) => {
    if (over || ex.aborted) return;
    size += chunk.byteLength;
    if (size > limit) {
      over = true;
      done(null);
      return;
    }
    // uWS reuses the chunk's memory after this callback returns: copy it.
    chunks.push(Buffer.from(new Uint8Array(chunk)));
    if (isLast) done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
  });
}

function parseJsonBody(body: Buffer, emptyOk: boolean, contentType: string): unknown {
  if (body.byteLength === 0 || isBlank(body)) {
    if (emptyOk) return {};
    throw new ApiError('INVALID_REQUEST', 'request body must be JSON');
  }
  // A body of another (or no) type is what a cross-site form, beacon or text/plain fetch sends without a CORS
  // preflight: refusing it keeps pages on other origins from changing the show.
  if (!isJsonType(contentType)) {
    throw new ApiError(
      'UNSUPPORTED_MEDIA_TYPE',
      contentType === ''
        ? 'a request body needs Content-Type: application/json'
        : `Content-Type ${truncate(contentType, 100)} is not accepted; send application/json`,
    );
  }
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new ApiError('INVALID_REQUEST', 'request body is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError('INVALID_REQUEST', `request body is not valid JSON: ${truncate((err as Error).message, 120)}`);
  }
}

/** `application/json`, in any case, with or without parameters such as charset. */
function isJsonType(value: string): boolean {
  const semi = value.indexOf(';');
  return (semi < 0 ? value : value.slice(0, semi)).trim().toLowerCase() === 'application/json';
}

function isBlank(body: Buffer): boolean {
  if (body.byteLength > 16) return false;
  for (const b of body) if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false;
  return true;
}

/**
 * Path and raw query string. The native engine gives them apart; the JS fallback keeps the query in getUrl()
 * and throws from getQuery(), so both shapes are accepted.
 */
function readTarget(req: HttpRequest): { url: string; query: string } {
  const full = req.getUrl();
  const q = full.indexOf('?');
  if (q >= 0) return { url: full.slice(0, q), query: full.slice(q + 1) };
  let query = '';
  try {
    query = req.getQuery() ?? '';
  } catch {
    query = '';
  }
  return { url: full, query };
}

function respond(ex: Exchange, hooks: AdapterHooks, reply: Reply, closeAfter = false): void {
  if (reply.stream && !ex.head && !ex.aborted && (reply.status ?? 200) !== 304) return startStream(ex, hooks, reply);
  writeReply(ex, hooks, reply, closeAfter);
  finish(ex, hooks);
}

/** Writes status, CORS and reply headers and the body inside one cork (the engine's, while its callback runs). */
function writeReply(ex: Exchange, hooks: AdapterHooks, reply: Reply, closeAfter: boolean): void {
  if (ex.aborted) return;
  if (ex.corked) writeCorked(ex, hooks.nativeEngine, reply, closeAfter);
  else ex.res.cork(() => writeCorked(ex, hooks.nativeEngine, reply, closeAfter));
}

/** The answer's bytes; large bodies honour backpressure. */
function writeCorked(ex: Exchange, packed: boolean, reply: Reply, closeAfter: boolean): void {
  const head = ex.head;
  const res = ex.res;
  const status = reply.status ?? 200;
  const isJson = reply.json !== undefined || reply.jsonText !== undefined;
  const body = isJson ? (reply.jsonText ?? JSON.stringify(reply.json)) : reply.body;
  const contentType = reply.contentType;
  const jsonType = isJson && status !== 304;
  const noStore = isJson && !reply.headers?.['Cache-Control'];
  if (packed) {
    res.writeStatus(replyHead(status, jsonType, noStore));
  } else {
    res.writeStatus(statusLine(status));
    writeHeaders(res, CORS_BYTES);
    if (jsonType) res.writeHeader(CONTENT_TYPE, JSON_TYPE);
    if (noStore) res.writeHeader(CACHE_CONTROL, NO_STORE);
  }
  if (!isJson && status !== 304 && contentType) res.writeHeader(CONTENT_TYPE, contentType);
  if (reply.headers) for (const k in reply.headers) res.writeHeader(k, reply.headers[k]!);
  // closeAfter: uWS writes `Connection: close` itself when the reply ends with closeConnection set.
  // HEAD: the Content-Length the GET would have is written as a plain header, because uWS 20.30 does not count
  // endWithoutBody(n > 0) as a reply and aborts the process when the handler returns.
  // With closeAfter, endWithoutBody(0, true) writes its own Content-Length: a second one would make the answer invalid.
  const headLength = head && !closeAfter && status !== 304;
  if (headLength && body !== undefined)
    res.writeHeader('Content-Length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength));
  if (headLength && reply.stream?.length !== undefined) res.writeHeader('Content-Length', String(reply.stream.length));
  if (status === 304 || body === undefined || head) {
    // uWS 20.30 turns an explicit `undefined` length into a bogus huge Content-Length; only the bare call omits it.
    if (closeAfter) res.endWithoutBody(0, true);
    else res.endWithoutBody();
    return;
  }
  if (typeof body === 'string' || body.byteLength < 64 * 1024) {
    res.end(body, closeAfter);
    return;
  }
  sendWithBackpressure(ex, body);
}
