// CORS headers sent on every response (errors and 304 included) and the preflight answer.
// A browser page reads a recording in parts (a <video> element seeking, a download resuming): it sends `Range`
// and must be allowed to read Content-Range, Accept-Ranges and Content-Length on the answer.
export const CORS_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', 'ETag, Content-Range, Accept-Ranges, Content-Length'],
];

export const PREFLIGHT_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS'],
  ['Access-Control-Allow-Headers', 'Content-Type, X-API-Key, Authorization, If-None-Match, Range'],
  ['Access-Control-Max-Age', '600'],
];
