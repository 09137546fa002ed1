// Warm-ahead for Browse: a row the pointer rests on or the keyboard reaches asks the server to open its reader
// (POST /sources/warm), so a double-click shortly after finds the first frame ready. Once per row every few
// seconds (the server holds a warm reader for longer than that), never for folders or generators.
import { call } from '../api';

const AGAIN_MS = 5000;
const asked = new Map<string, number>();

/** Asks for `id` unless it was asked for within the last few seconds; failures are of no interest to the operator. */
export function warmAhead(id: string, kind: string): void {
  if (kind !== 'fileInput' && kind !== 'liveInput') return;
  const now = Date.now();
  if (now - (asked.get(id) ?? 0) < AGAIN_MS) return;
  if (asked.size > 256) asked.clear();
  asked.set(id, now);
  void call('POST', '/sources/warm', { body: { id } }).catch(() => undefined);
}
