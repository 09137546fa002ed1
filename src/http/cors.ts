// CORS headers sent on every response (errors and 304 included) and the preflight answer.
export const CORS_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', 'ETag'],
];

export const PREFLIGHT_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS'],
  ['Access-Control-Allow-Headers', 'Content-Type, X-API-Key, Authorization, If-None-Match'],
  ['Access-Control-Max-Age', '600'],
];
