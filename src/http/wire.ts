// Header names, status lines and fixed header values as bytes. uWS converts every JS string argument to UTF-8 on
// each call; bytes pass straight through, and the hot path calls it a dozen times per request. The JS fallback
// engine turns them back into strings, so both engines accept these.
import { CORS_HEADERS } from './cors.js';

const bytes = (s: string): Buffer => Buffer.from(s, 'latin1');

const STATUS_TEXT: Record<number, string> = {
  200: '200 OK',
  201: '201 Created',
  204: '204 No Content',
  206: '206 Partial Content',
  302: '302 Found',
  304: '304 Not Modified',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  409: '409 Conflict',
  413: '413 Payload Too Large',
  415: '415 Unsupported Media Type',
  416: '416 Range Not Satisfiable',
  421: '421 Misdirected Request',
  426: '426 Upgrade Required',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
  504: '504 Gateway Timeout',
};
const STATUS_LINES = new Map(Object.entries(STATUS_TEXT).map(([code, text]) => [Number(code), bytes(text)]));

/** The status line for a code (`200 OK`); an unlisted code gets a generic reason phrase. */
export function statusLine(status: number): Buffer | string {
  return STATUS_LINES.get(status) ?? `${status} Status`;
}

export const HOST = bytes('host');
export const CONTENT_LENGTH = bytes('content-length');
export const TRANSFER_ENCODING = bytes('transfer-encoding');

export const CORS_BYTES: ReadonlyArray<readonly [Buffer, Buffer]> = CORS_HEADERS.map(([k, v]) => [bytes(k), bytes(v)] as const);
export const CONTENT_TYPE = bytes('Content-Type');
export const JSON_TYPE = bytes('application/json; charset=utf-8');
export const CACHE_CONTROL = bytes('Cache-Control');
export const NO_STORE = bytes('no-store');
