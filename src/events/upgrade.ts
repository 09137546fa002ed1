// The checks an events-socket upgrade passes before any socket exists: the Host rules, the page's Origin, and
// no credential in the URL. A refusal is a plain HTTP answer with the error body, like any route's.
import type { HttpRequest, HttpResponse } from '../http/uws.js';
import { ApiError } from '../errors.js';
import { CORS_HEADERS } from '../http/cors.js';
import type { HostPolicy } from '../http/host-policy.js';
import type { OriginPolicy } from './origin.js';

/** Query parameter names that would carry a credential: refused, because URLs end up in logs and histories. */
const KEY_PARAMS = /^(key|apikey|api[-_]key|x-api-key|token|access[-_]?token|auth|authorization|bearer)$/i;

const REASONS: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 421: 'Misdirected Request' };

/** The error the upgrade is refused with, or null when it may go on. */
export function upgradeProblem(req: HttpRequest, hosts: HostPolicy, origins: OriginPolicy): ApiError | null {
  const host = req.getHeader('host');
  if (!hosts.allows(host)) {
    return new ApiError(
      'MISDIRECTED_REQUEST',
      `this server does not answer for Host "${host.slice(0, 100)}"; add the name to server.allowedHosts`,
    );
  }
  const origin = req.getHeader('origin');
  if (!origins.allows(origin, host)) {
    return new ApiError(
      'ORIGIN_NOT_ALLOWED',
      `a page on ${JSON.stringify(origin.slice(0, 100))} may not open the events socket; add its origin to server.allowedOrigins`,
    );
  }
  const query = req.getQuery() ?? '';
  for (const [name] of new URLSearchParams(query)) {
    if (KEY_PARAMS.test(name)) {
      return new ApiError(
        'INVALID_REQUEST',
        `credentials in the URL (${name.slice(0, 40)}) are refused: they end up in logs; send X-API-Key or Authorization: Bearer on the upgrade, or {"type":"auth","key":"…"} as the first message`,
      );
    }
  }
  return null;
}

export function refuse(res: HttpResponse, err: ApiError): void {
  res.cork(() => {
    res.writeStatus(`${err.status} ${REASONS[err.status] ?? 'Bad Request'}`);
    for (const [k, v] of CORS_HEADERS) res.writeHeader(k, v);
    res.writeHeader('Content-Type', 'application/json; charset=utf-8');
    res.writeHeader('Cache-Control', 'no-store');
    res.end(JSON.stringify(err.toBody()));
  });
}
