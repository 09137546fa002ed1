// Frames for live-input thumbnails: the input's one reader in the reader pool, held in the `preview` role from the
// first thumbnail request until a quiet period without requests. The current input's reader is the program's own
// (no second ffmpeg, which an input that takes one connection could not have), and a previewed input that leaves
// the program keeps its reader for the preview instead of being closed and reopened.
import { liveReaderKey, type ReaderPool } from '../inputs/reader-pool.js';
import type { LiveInput } from '../inputs/providers.js';
import { FrameRingReader } from '../shared/frame-ring.js';

/** A preview nobody asked about for this long releases its reader (its ffmpeg stops unless it is on the output). */
export const PREVIEW_QUIET_MS = 20_000;

export interface LiveFrameInfo {
  /** Ring to read; null while the reader is still opening. */
  ring: SharedArrayBuffer | null;
  frameCount: number;
  lastFrameMs: number;
  /** Content size of the newest frame (the input's aspect), or the last one seen earlier, or null if never seen. */
  size: { width: number; height: number } | null;
}

export class LivePreviews {
  /** Last request time per previewed input id. */
  private readonly lastUse = new Map<string, number>();
  private readonly readers = new WeakMap<SharedArrayBuffer, FrameRingReader>();
  /** The last frame size seen per input, so a placeholder keeps the input's aspect while it is disconnected. */
  private readonly sizes = new Map<string, { width: number; height: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly pool: ReaderPool,
    private readonly quietMs = PREVIEW_QUIET_MS,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(2000, quietMs));
    this.sweeper.unref();
  }

  /** Where `input`'s newest frame is; holds its reader for the preview (opening it if nobody else has). */
  frame(input: LiveInput, now = Date.now()): LiveFrameInfo {
    const key = liveReaderKey(input.id);
    this.lastUse.set(input.id, now);
    // Joins the reader the program may already hold; errors are logged by the pool and the next request retries.
    this.pool.acquire(key, input.input, true, 'preview').catch(() => {});
    const ring = this.pool.ring(key);
    if (!ring) return { ring: null, frameCount: 0, lastFrameMs: 0, size: this.sizes.get(input.id) ?? null };
    let reader = this.readers.get(ring);
    if (!reader) {
      reader = new FrameRingReader(ring);
      this.readers.set(ring, reader);
    }
    const size = reader.newestSize();
    if (size && size.width > 0 && size.height > 0) this.sizes.set(input.id, size);
    return { ring, frameCount: reader.frameCount(), lastFrameMs: reader.lastFrameTimeMs(), size: this.sizes.get(input.id) ?? null };
  }

  private release(id: string): void {
    this.lastUse.delete(id);
    this.pool.release(liveReaderKey(id), 'preview');
  }

  private sweep(now = Date.now()): void {
    for (const [id, at] of this.lastUse) if (now - at > this.quietMs) this.release(id);
  }

  /** Releases previews of inputs that no longer exist. */
  retain(ids: ReadonlySet<string>): void {
    for (const id of [...this.lastUse.keys()]) if (!ids.has(id)) this.release(id);
  }

  /** Inputs whose reader is open for previews only (not on the output, not being activated). */
  open(): number {
    return this.pool.countOnly('preview');
  }

  stop(): void {
    clearInterval(this.sweeper);
    for (const id of [...this.lastUse.keys()]) this.release(id);
  }
}
