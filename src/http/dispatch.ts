// The transport-neutral half of a request: validation, the handler, durability of mutations, conditional replies,
// errors, and the 401/404/405 answers of a path no route serves. HTTP's adapter runs routes through `execute`;
// WebSocket requests, OSC addresses and the event topics go through `dispatchRequest`, so every transport gets
// the same validation, auth, errors and limits.
import { ApiError } from '../errors.js';
import { LIMITS } from '../limits.js';
import { etagMatches } from '../util/etag.js';
import type { Logger } from '../log.js';
import type { ApiKeyGuard } from './auth.js';
import { CAPTURED_HEADERS, type CapturedHeader, type Method, type Reply, type RouteRequest } from './route.js';
import type { CompiledRoute, Router } from './router.js';

export interface ExecuteDeps {
  log: Logger;
  /** Resolves once every state change made so far is on disk; a mutation's 2xx is sent only after it. */
  durable(): Promise<void>;
  /** Holds operations carrying `at` (src/schedule); without it `at` is refused. */
  schedule?: ScheduleHook;
  /** Publishes operations carrying `show` to the show's boxes (src/mqtt/mirror.ts); without it `show` is refused. */
  mirror?: MirrorHook;
}

/** A show leader's mirroring: which routes take `show`, and the publishing of one (docs/show.md, Mirroring). */
export interface MirrorHook {
  /** Whether operations on the route path `path` may carry `show`. */
  takes(path: string): boolean;
  /** The 202 answer naming the published command; throws the ApiError of a refusal. */
  add(req: { path: string; target: unknown; body: unknown; at: unknown }): Reply;
}

/** A validated operation to run at `at` (docs/scheduling.md). */
export interface ScheduleRequest {
  /** `POST <path>` */
  op: string;
  /** As sent; the scheduler checks its form. */
  at: unknown;
  transport: string;
  /** Runs the operation's handler (no `at`, no wait for the disk); never rejects. */
  run: () => Promise<Reply>;
}

export interface ScheduleHook {
  /** The 202 answer naming the scheduled operation; throws the ApiError of a refused `at`. */
  add(req: ScheduleRequest): Reply;
}

/** What a transport carries beside the request itself. */
export interface Carried {
  /** `at` given beside the body (NeutralRequest.at). */
  at?: unknown;
  /** The transport's name, shown for scheduled operations. */
  transport?: string;
}

export interface DispatchDeps extends ExecuteDeps {
  router: Router;
  guard: ApiKeyGuard;
}

/** A request as any transport carries it. `path` may carry a query string; `query` then adds to it. */
export interface NeutralRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
  /** The parsed JSON body (POST); undefined when none was sent. */
  body?: unknown;
  headers?: Partial<Record<CapturedHeader, string>>;
  /** In-process callers (event snapshots, OSC after its own admission rules) skip the API key. */
  trusted?: boolean;
  /** False for callers nobody answers (OSC): the change is applied and written as usual, without waiting for the disk. */
  awaitDurable?: boolean;
  /**
   * Runs the operation at this instant instead of now (docs/scheduling.md), as an `at` field in the body would; a
   * POST only. Sending both is refused.
   */
  at?: unknown;
  /** The transport's name (events, osc, mqtt…), shown in GET /show/scheduled. */
  transport?: string;
}

export interface NeutralReply extends Reply {
  status: number;
}

/**
 * Validates and runs one route. Synchronous GET handlers answer synchronously (the HTTP hot path allocates no
 * promise); everything else resolves to a reply. Never throws or rejects: failures become error replies.
 */
export function execute(route: CompiledRoute, request: RouteRequest, deps: ExecuteDeps, carried?: Carried): Reply | Promise<Reply> {
  // `at` leaves the body before the route's validation: the rest is checked now, the handler runs at the instant.
  const at = route.def.method === 'POST' ? takeAt(request, carried?.at) : carried?.at;
  // `show` (a leader's mirroring) leaves the body the same way, on the routes that take it.
  const target = route.def.method === 'POST' && deps.mirror?.takes(route.def.path) ? takeField(request, 'show') : undefined;
  const invalid =
    route.validate('params', request.params) ??
    route.validate('query', request.query) ??
    (route.def.method === 'POST' ? route.validate('body', request.body) : null);
  if (invalid) return errorReply(invalid);
  if (target !== undefined && at !== AT_TWICE) return mirrored(request, target, at, deps);
  if (at !== undefined) return scheduled(route, request, at, deps, carried?.transport ?? 'http');
  let result: Reply | Promise<Reply>;
  try {
    result = route.def.handler(request as never);
  } catch (err) {
    return failure(err, route, deps.log);
  }
  if (request.method === 'POST') {
    // A mutation's success is sent only once the change is on disk, so a 2xx survives a crash right after it.
    return Promise.resolve(result)
      .then(async (reply) => ((reply.status ?? 200) < 300 ? ((await whenDurable(deps)) ?? reply) : reply))
      .catch((err: unknown) => failure(err, route, deps.log));
  }
  if (result instanceof Promise) {
    return result.then(
      (reply) => conditional(reply, request.headers['if-none-match']),
      (err: unknown) => failure(err, route, deps.log),
    );
  }
  return conditional(result, request.headers['if-none-match']);
}

/** Sent both in the body and beside it. */
const AT_TWICE = Symbol('at twice');

/** Takes `at` out of a JSON object body; `beside` is NeutralRequest.at. */
function takeAt(request: RouteRequest, beside: unknown): unknown {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !Object.hasOwn(body, 'at')) return beside;
  const { at, ...rest } = body as Record<string, unknown>;
  request.body = rest;
  return beside === undefined ? at : AT_TWICE;
}

/** Takes `key` out of a JSON object body; undefined when it has none. */
function takeField(request: RouteRequest, key: string): unknown {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !Object.hasOwn(body, key)) return undefined;
  const { [key]: value, ...rest } = body as Record<string, unknown>;
  request.body = rest;
  return value;
}

/** Hands a validated operation to the show (the boxes apply it, `at` included): 202, or why not. */
function mirrored(request: RouteRequest, target: unknown, at: unknown, deps: ExecuteDeps): Reply {
  try {
    return deps.mirror!.add({ path: request.url, target, body: request.body, at });
  } catch (err) {
    if (err instanceof ApiError) return errorReply(err);
    deps.log.error({ err }, 'mirroring failed');
    return errorReply(new ApiError('INTERNAL'));
  }
}

/** Hands a validated operation to the scheduler: its answer is 202, or the refusal of its `at`. */
function scheduled(route: CompiledRoute, request: RouteRequest, at: unknown, deps: ExecuteDeps, transport: string): Reply {
  if (route.def.method !== 'POST') return errorReply(new ApiError('INVALID_AT', 'only operations (POST) take at; reads answer now'));
  if (at === AT_TWICE) return errorReply(new ApiError('INVALID_AT', 'at came both in the body and beside it; send one'));
  if (!deps.schedule) return errorReply(new ApiError('INVALID_AT', 'this transport cannot schedule operations'));
  // The handler runs later without waiting for the disk: its answer goes to the record, not to a client.
  const later: ExecuteDeps = { log: deps.log, durable: () => Promise.resolve() };
  const copy: RouteRequest = { ...request, aborted: false };
  try {
    return deps.schedule.add({ op: `POST ${request.url}`, at, transport, run: async () => execute(route, copy, later) });
  } catch (err) {
    return failure(err, route, deps.log);
  }
}

/** Runs a request from any transport through the route table; resolves to the reply HTTP would send. */
export async function dispatchRequest(deps: DispatchDeps, input: NeutralRequest): Promise<NeutralReply> {
  const q = input.path.indexOf('?');
  const path = q >= 0 ? input.path.slice(0, q) : input.path;
  const method = input.method.toUpperCase();
  const headers = {} as Record<CapturedHeader, string>;
  for (const h of CAPTURED_HEADERS) headers[h] = input.headers?.[h] ?? '';
  const authorized = (): boolean => input.trusted === true || deps.guard.check(headers['x-api-key'], headers['authorization']);
  const found = deps.router.find(method, path);
  if (!found) return withStatus(errorReply(routeMiss(deps.router, method, path, authorized)));
  const route = found.route;
  if (route.def.auth === 'required' && !authorized()) return withStatus(errorReply(unauthorized()));
  const params: Record<string, string> = {};
  route.paramNames.forEach((name, i) => {
    params[name] = decodeParam(found.params[i] ?? '');
  });
  const query = q >= 0 ? parseQuery(input.path.slice(q + 1)) : (Object.create(null) as Record<string, string>);
  if (input.query) for (const k of Object.keys(input.query)) query[k] = String(input.query[k]);
  let body: unknown;
  if (route.def.method === 'POST') {
    if (input.body === undefined || input.body === null) {
      if (route.def.emptyBody !== true) return withStatus(errorReply(new ApiError('INVALID_REQUEST', 'request body must be JSON')));
      body = {};
    } else {
      body = input.body;
    }
  }
  const request: RouteRequest = { method: route.def.method, url: path, query, params, body, headers, aborted: false };
  const carried: Carried = { at: input.at, transport: input.transport ?? 'dispatch' };
  return withStatus(
    await execute(route, request, input.awaitDurable === false ? { ...deps, durable: () => Promise.resolve() } : deps, carried),
  );
}

/** What a path no route serves for this method answers: 401 before 405 (methods are not told without the key), then 405 or 404. */
export function routeMiss(router: Router, method: string, url: string, authorized: () => boolean): ApiError {
  const allowed = router.methodsFor(url);
  const needsKey = allowed.some((m) => router.find(m, url)?.route.def.auth === 'required');
  if (needsKey && !authorized()) return unauthorized();
  return allowed.length > 0
    ? new ApiError(
        'METHOD_NOT_ALLOWED',
        `${truncate(method, 16)} is not allowed on ${truncate(url, 200)}; use ${allowed.join(', ')}`,
        undefined,
        {
          Allow: allowHeader(allowed),
        },
      )
    : new ApiError('NOT_FOUND', `no route ${truncate(url, 200)}`);
}

function allowHeader(methods: Method[]): string {
  return [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
}

export function unauthorized(): ApiError {
  return new ApiError('UNAUTHORIZED', undefined, undefined, { 'WWW-Authenticate': 'Bearer realm="vjd"' });
}

/** Null once everything changed so far is on disk; a 503 STATE_NOT_SAVED reply when the write failed or is too slow. */
async function whenDurable(deps: ExecuteDeps): Promise<Reply | null> {
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`the state file was not written within ${LIMITS.durableWaitMs} ms`), LIMITS.durableWaitMs);
  });
  try {
    const why = await Promise.race([deps.durable().then(() => null), slow]);
    if (why === null) return null;
    return errorReply(
      new ApiError('STATE_NOT_SAVED', `the change is applied but ${why}; vjd keeps retrying`, undefined, { 'Retry-After': '1' }),
    );
  } catch (err) {
    return errorReply(new ApiError('STATE_NOT_SAVED', (err as Error).message, undefined, { 'Retry-After': '1' }));
  } finally {
    clearTimeout(timer);
  }
}

/** Turns a reply carrying an ETag into 304 Not Modified when the client already has that version. */
export function conditional(reply: Reply, ifNoneMatch: string): Reply {
  if (!reply.etag) return reply;
  const headers: Record<string, string> = { ...reply.headers, ETag: reply.etag };
  if (ifNoneMatch !== '' && etagMatches(ifNoneMatch, reply.etag)) {
    return { status: 304, headers: { ETag: reply.etag, 'Cache-Control': headers['Cache-Control'] ?? 'no-cache' } };
  }
  return { ...reply, headers };
}

export function failure(err: unknown, route: CompiledRoute, log: Logger): Reply {
  if (err instanceof ApiError) return errorReply(err);
  log.error({ err, route: `${route.def.method} ${route.def.path}` }, 'handler failed');
  return errorReply(new ApiError('INTERNAL'));
}

export function errorReply(err: ApiError): Reply {
  return { status: err.status, json: err.toBody(), headers: err.headers };
}

function withStatus(reply: Reply): NeutralReply {
  return { ...reply, status: reply.status ?? 200 };
}

/** First value wins for repeated keys; values stay strings for the route schema to check. */
export function parseQuery(raw: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (raw === '') return out;
  for (const [k, v] of new URLSearchParams(raw)) if (!(k in out)) out[k] = v;
  return out;
}

export function decodeParam(raw: string): string {
  // Without an escape there is nothing to decode; the engine's decoder would still copy the string.
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
