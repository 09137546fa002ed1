// The page's only door to vjd: the public API under /api/v1, with the key (when one is set) in a header, each call
// typed by the operation it names in the generated description (api-types.d.ts). The key lives in sessionStorage for
// this tab and never goes into a URL.
import type { ApiPaths, Method, Op, Params, RequestBody, Success } from './api-shapes';

export const API = '/api/v1';
const KEY_SLOT = 'vjd.apiKey';

let key = sessionStorage.getItem(KEY_SLOT) ?? '';
const unauthorized = new Set<() => void>();

export const getKey = (): string => key;
export function setKey(k: string): void {
  key = k;
  if (k === '') sessionStorage.removeItem(KEY_SLOT);
  else sessionStorage.setItem(KEY_SLOT, k);
}
/** Called on every 401, so the page can ask for the key again. */
export function onUnauthorized(cb: () => void): () => void {
  unauthorized.add(cb);
  return () => unauthorized.delete(cb);
}

export const authHeaders = (): Record<string, string> => (key === '' ? {} : { 'X-API-Key': key });

/** An error answer's body; `NETWORK` when no answer came (status 0). */
export interface Problem {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export type Answer<T> = { status: number; ok: true; body: T } | { status: number; ok: false; body: Problem | null };

/** Path parameters (substituted into `{name}`), query and JSON body of one call, typed by its operation. */
export interface Init<O> {
  path?: Params<O, 'path'>;
  query?: Params<O, 'query'>;
  body?: RequestBody<O>;
}

function url(
  path: string,
  params: Record<string, string | number | undefined>,
  query: Record<string, string | number | undefined>,
): string {
  let u = API + path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
  const qs = q.toString();
  if (qs !== '') u += `?${qs}`;
  return u;
}

type Loose = Record<string, string | number | undefined>;

const isProblem = (b: unknown): b is Problem => typeof b === 'object' && b !== null && typeof (b as Problem).message === 'string';

/** One JSON request; network failures come back as status 0 rather than throwing. */
export async function call<M extends Method, P extends ApiPaths<M>>(
  method: M,
  path: P,
  init?: Init<Op<M, P>>,
): Promise<Answer<Success<Op<M, P>>>> {
  const headers: Record<string, string> = authHeaders();
  const body = init?.body;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let r: Response;
  try {
    r = await fetch(url(path, (init?.path ?? {}) as Loose, (init?.query ?? {}) as Loose), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch (err) {
    return { status: 0, ok: false, body: { code: 'NETWORK', message: String(err) } };
  }
  const text = await r.text();
  let data: unknown = null;
  try {
    data = text === '' ? null : JSON.parse(text);
  } catch {
    data = text;
  }
  if (r.status === 401) for (const cb of [...unauthorized]) cb();
  // The server's answers are described by the types the call is typed with; the contract tests hold it to them.
  if (r.ok) return { status: r.status, ok: true, body: data as Success<Op<M, P>> };
  return { status: r.status, ok: false, body: isProblem(data) ? data : null };
}

/** The message of an error answer, for the notice line. */
export function problem(a: { status: number; ok: false; body: Problem | null }): string {
  const b = a.body;
  if (b?.message) return `${b.code ?? a.status}: ${b.message}`;
  return `HTTP ${a.status}`;
}
