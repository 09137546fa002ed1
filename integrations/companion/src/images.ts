// Image feedbacks: a source's, a scene's or the program's thumbnail as the button's picture. Each URL is fetched
// with If-None-Match (an unchanged picture is a 304 at vjd, answered from counters) and refreshed only when the
// `thumbnail` topic says its ETag moved: the URL is registered with vjd by requesting it over the events socket.
import type { CompanionFeedbackDefinitions } from '@companion-module/base';
import { pickList } from './actions.js';
import { type Choices, thumbPathForId } from './choices.js';
import type { EventsLink } from './connection.js';
import type { VjdHttp } from './http.js';
import type { TopicNeeds } from './subscriptions.js';

interface Entry {
  etag: string | null;
  png64: string | null;
  inflight: Promise<string | null> | null;
  /** Failed fetches in a row (a busy vjd answers 503 THUMBNAIL_QUEUE_FULL or PREVIEW_TIMEOUT): the retry backs off. */
  failures: number;
  retry: NodeJS.Timeout | null;
}

export class ImageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly users = new Map<string, string>();
  private readonly watched = new Set<string>();

  constructor(
    private readonly http: () => VjdHttp | null,
    private readonly link: () => EventsLink | null,
    private readonly recheck: (instanceIds: string[]) => void,
  ) {}

  use(instanceId: string, url: string): void {
    this.users.set(instanceId, url);
    this.watch(url);
  }

  release(instanceId: string): void {
    this.users.delete(instanceId);
  }

  /** After a reconnect vjd watches nothing for this socket: register every URL in use again. */
  rewatch(): void {
    this.watched.clear();
    for (const url of new Set(this.users.values())) this.watch(url);
  }

  /** A `thumbnail` event: redraw the buttons of that URL unless we already hold that picture. */
  onEvent(data: { url?: string; etag?: string }): void {
    if (!data?.url || this.entries.get(data.url)?.etag === data.etag) return;
    const ids = [...this.users].filter(([, u]) => u === data.url).map(([id]) => id);
    if (ids.length > 0) this.recheck(ids);
  }

  /** The picture as base64 PNG; concurrent asks for one URL share one conditional request. */
  png64(url: string): Promise<string | null> {
    let e = this.entries.get(url);
    if (!e) this.entries.set(url, (e = { etag: null, png64: null, inflight: null, failures: 0, retry: null }));
    if (e.inflight) return e.inflight;
    const entry = e;
    const http = this.http();
    if (!http) return Promise.resolve(entry.png64);
    entry.inflight = http
      .image(url, entry.png64 ? entry.etag : null)
      .then((r) => {
        if (r.status === 200 && r.body) {
          entry.png64 = r.body.toString('base64');
          entry.etag = r.etag;
        }
        entry.failures = 0;
        return entry.png64;
      })
      .catch(() => {
        // No event will come for a picture that did not change, so a failed fetch is asked again by itself.
        this.retryLater(url, entry);
        return entry.png64;
      })
      .finally(() => {
        entry.inflight = null;
      });
    return entry.inflight;
  }

  private retryLater(url: string, entry: Entry): void {
    if (entry.retry) return;
    const delay = Math.min(15_000, 500 * 2 ** entry.failures++);
    entry.retry = setTimeout(() => {
      entry.retry = null;
      const ids = [...this.users].filter(([, u]) => u === url).map(([id]) => id);
      if (ids.length > 0) this.recheck(ids);
    }, delay);
  }

  private watch(url: string): void {
    const link = this.link();
    if (this.watched.has(url) || !link) return;
    this.watched.add(url);
    link.request('GET', url).catch(() => this.watched.delete(url));
  }
}

/** Longest edge of the button's image area, as vjd's `size` (32-512). */
function sizeFor(image: { width: number; height: number } | undefined): number {
  const edge = Math.max(image?.width ?? 72, image?.height ?? 72);
  return Math.min(512, Math.max(32, Math.round(edge)));
}

export function imageFeedbacks(c: Choices, cache: ImageCache, needs: TopicNeeds): CompanionFeedbackDefinitions {
  const draw = async (fb: { id: string; image?: { width: number; height: number } }, path: string | null) => {
    if (!path) return {};
    const url = `${path}?size=${sizeFor(fb.image)}`;
    cache.use(fb.id, url);
    const png64 = await cache.png64(url);
    return png64 ? { png64, pngalignment: 'center:center' as const } : {};
  };
  const track = {
    subscribe: (fb: { id: string; feedbackId: string }) => needs.add(fb.id, fb.feedbackId),
    unsubscribe: (fb: { id: string }) => {
      cache.release(fb.id);
      needs.remove(fb.id);
    },
  };
  return {
    source_image: {
      type: 'advanced',
      name: 'Image: source thumbnail',
      options: [pickList('source', 'Source', c.sources)],
      callback: (fb) => draw(fb, thumbPathForId(String(fb.options.source), c.thumbPaths)),
      ...track,
    },
    scene_image: {
      type: 'advanced',
      name: 'Image: scene thumbnail',
      options: [pickList('scene', 'Scene', c.scenes)],
      callback: (fb) => draw(fb, `/api/v1/thumbnails/scene/${encodeURIComponent(String(fb.options.scene))}`),
      ...track,
    },
    program_image: {
      type: 'advanced',
      name: 'Image: program output (live, up to 10 updates a second)',
      options: [],
      callback: (fb) => draw(fb, '/api/v1/thumbnails/current'),
      ...track,
    },
  };
}
