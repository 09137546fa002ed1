// Answers the interface documents for thumbnail routes under load (503 PREVIEW_TIMEOUT: readback not done within
// 500 ms; 503 THUMBNAIL_QUEUE_FULL with Retry-After: queue depth above 32). Tests accept them, count them and report
// the counts, so a loaded machine cannot fail a test with an answer the spec allows, and a change in how often
// they happen still shows in the figures.
import type { Res } from './server.js';

const THUMB_PATH = /^(\/api\/v1)?(\/media)?\/thumbnails\/|^\/api\/v1\/catalog\/effects\/[^/]+\/thumbnail/;

/** `503 PREVIEW_TIMEOUT` or `503 THUMBNAIL_QUEUE_FULL` when `r` is one of those answers to a thumbnail path, else null. */
export function documentedLoadAnswer(path: string, r: Pick<Res, 'status' | 'headers' | 'text'>): string | null {
  if (r.status !== 503 || !THUMB_PATH.test(path.replace(/^https?:\/\/[^/]+/, ''))) return null;
  let code: unknown;
  try {
    code = (JSON.parse(r.text) as { code?: unknown }).code;
  } catch {
    return null;
  }
  if (code === 'PREVIEW_TIMEOUT') return '503 PREVIEW_TIMEOUT';
  // Queue full always tells the client when to come back.
  if (code === 'THUMBNAIL_QUEUE_FULL' && r.headers['retry-after'] !== undefined) return '503 THUMBNAIL_QUEUE_FULL';
  return null;
}

/** Counts of documented load answers, by `status CODE`. */
export class DocumentedAnswers {
  readonly counts: Record<string, number> = {};

  /** Counts `r` when it is a documented load answer to `path`; true when it was. */
  note(path: string, r: Pick<Res, 'status' | 'headers' | 'text'>): boolean {
    const key = documentedLoadAnswer(path, r);
    if (key) this.counts[key] = (this.counts[key] ?? 0) + 1;
    return key !== null;
  }

  get total(): number {
    return Object.values(this.counts).reduce((a, b) => a + b, 0);
  }

  /** `documented load answers: none` or `documented load answers: 503 PREVIEW_TIMEOUT ×2`. */
  summary(): string {
    const parts = Object.entries(this.counts).map(([k, n]) => `${k} ×${n}`);
    return `documented load answers: ${parts.length ? parts.join(', ') : 'none'}`;
  }
}

/**
 * Sends `send()` until the answer is not a documented load answer, waiting what Retry-After says (1 s if absent)
 * between tries, for at most `timeoutMs`; every documented answer on the way is counted in `counter`. Returns the
 * last answer, so the caller's own checks still run on a real one.
 */
export async function retryDocumented(
  path: string,
  send: () => Promise<Res>,
  counter: DocumentedAnswers,
  timeoutMs = 30_000,
): Promise<Res> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await send();
    if (!counter.note(path, r) || Date.now() > deadline) return r;
    const wait = Number(r.headers['retry-after']);
    await new Promise((res) => setTimeout(res, Number.isFinite(wait) && wait > 0 ? wait * 1000 : 1000));
  }
}
