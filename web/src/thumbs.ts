// Thumbnails fetched with the key header, kept as blob URLs with their ETag, revalidated with If-None-Match when a
// `thumbnail` event names a new ETag. A few at a time, so scrolling a long list never floods the render queue.
import { authHeaders } from './api';

interface Entry {
  etag: string;
  src: string;
  loading: Promise<string> | null;
  /** Answered with an error: not asked again until an event names a new ETag. */
  failed: boolean;
}

const SIZE = 96;
const CONCURRENCY = 4;
const cache = new Map<string, Entry>();
const queue: Array<() => void> = [];
let running = 0;

function slot(): Promise<() => void> {
  return new Promise((resolve) => {
    const go = (): void => {
      running++;
      resolve(() => {
        running--;
        queue.shift()?.();
      });
    };
    if (running < CONCURRENCY) go();
    else queue.push(go);
  });
}

/** Whether the last answer for url was an error (a caller that polls waits a little before asking again). */
export const thumbFailed = (url: string): boolean => cache.get(url)?.failed === true;

export const thumbUrl = (url: string): string => (url.includes('?') ? url : `${url}?size=${SIZE}&format=jpg`);

/** The cached image for url, fetched (or revalidated) when wanted differs from the ETag held. */
export async function thumb(url: string, wanted: string | undefined, stillWanted: () => boolean): Promise<string> {
  const have = cache.get(url);
  if (have?.loading) return have.loading;
  if (have && (have.src !== '' || have.failed) && (wanted === undefined || wanted === '' || wanted === have.etag)) return have.src;
  const entry: Entry = have ?? { etag: '', src: '', loading: null, failed: false };
  cache.set(url, entry);
  entry.loading = (async () => {
    const done = await slot();
    try {
      // Scrolled past before its turn came: skip the request; the row asks again if it comes back.
      if (!stillWanted()) return entry.src;
      const headers = authHeaders();
      if (entry.etag !== '') headers['If-None-Match'] = entry.etag;
      const r = await fetch(thumbUrl(url), { headers, cache: 'no-store' });
      if (r.status === 304) return entry.src;
      if (!r.ok) {
        entry.failed = true;
        return entry.src;
      }
      entry.failed = false;
      const blob = await r.blob();
      if (entry.src !== '') URL.revokeObjectURL(entry.src);
      entry.src = URL.createObjectURL(blob);
      entry.etag = r.headers.get('ETag') ?? '';
      return entry.src;
    } catch {
      return entry.src;
    } finally {
      entry.loading = null;
      done();
    }
  })();
  return entry.loading;
}
