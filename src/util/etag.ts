// If-None-Match matching, shared by the adapter's conditional replies and the thumbnail service (which decides
// 304 before queueing any work).

/** Longer headers are not parsed (no match): bounds the split on a hostile header; real lists are far shorter. */
const IF_NONE_MATCH_MAX = 8192;

/** True when an If-None-Match header names `etag` (a list, `*`, and weak forms count). */
export function etagMatches(header: string, etag: string): boolean {
  if (header === '' || header.length > IF_NONE_MATCH_MAX) return false;
  if (header === etag) return true;
  for (const part of header.split(',')) {
    const t = part.trim();
    if (t === '*' || t === etag || (t.startsWith('W/') && t.slice(2) === etag)) return true;
  }
  return false;
}
