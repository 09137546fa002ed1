// The page's only door to vjd: the public API under /api/v1, with the key (when one is set) in a header.
// The key lives in sessionStorage for this tab and never goes into a URL.
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

export interface Answer<T = any> {
  status: number;
  ok: boolean;
  body: T;
}

/** One JSON request; network failures come back as status 0 rather than throwing. */
export async function call<T = any>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Answer<T>> {
  const headers: Record<string, string> = authHeaders();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let r: Response;
  try {
    r = await fetch(API + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch (err) {
    return { status: 0, ok: false, body: { error: true, code: 'NETWORK', message: String(err) } as T };
  }
  const text = await r.text();
  let data: unknown = null;
  try {
    data = text === '' ? null : JSON.parse(text);
  } catch {
    data = text;
  }
  if (r.status === 401) for (const cb of [...unauthorized]) cb();
  return { status: r.status, ok: r.ok, body: data as T };
}

/** The message of an error answer, for the notice line. */
export function problem(a: Answer): string {
  const b = a.body as { code?: string; message?: string } | null;
  if (b && typeof b === 'object' && b.message) return `${b.code ?? a.status}: ${b.message}`;
  return `HTTP ${a.status}`;
}

