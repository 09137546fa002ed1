// Frames for live-input thumbnails: the current input's own ring, or a lightweight preview feed (at most 512 px,
// 5 fps) opened on the first thumbnail request and closed after a quiet period without requests.
import type { IngestClient } from '../inputs/ingest-client.js';
import type { LiveInput } from '../inputs/providers.js';
import { FrameRingReader } from '../shared/frame-ring.js';
import type { Logger } from '../log.js';

/** A preview feed nobody asked about for this long is closed (its ffmpeg stops). */
export const PREVIEW_QUIET_MS = 20_000;

export interface LiveFrameInfo {
  /** Ring to read; null while a preview feed is still opening. */
  ring: SharedArrayBuffer | null;
  frameCount: number;
  lastFrameMs: number;
  /** Content size of the newest frame (the input's aspect), or the last one seen earlier, or null if never seen. */
  size: { width: number; height: number } | null;
}

interface Preview {
  key: string;
  ring: SharedArrayBuffer | null;
  reader: FrameRingReader | null;
  lastUse: number;
  inputSig: string;
}

export class LivePreviews {
  private readonly previews = new Map<string, Preview>();
  private readonly readers = new WeakMap<SharedArrayBuffer, FrameRingReader>();
  /** What each input object reads (inputs are replaced, never changed, when the enumeration changes). */
  private readonly sigs = new WeakMap<LiveInput, string>();
  /** The last frame size seen per input, so a placeholder keeps the input's aspect while it is disconnected. */
  private readonly sizes = new Map<string, { width: number; height: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly ingest: IngestClient,
    private readonly currentRing: (liveId: string) => SharedArrayBuffer | null,
    private readonly log: Logger,
    private readonly quietMs = PREVIEW_QUIET_MS,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(2000, quietMs));
    this.sweeper.unref();
  }

  /** Where `input`'s newest frame is; opens a preview feed when the input is not the current source. */
  frame(input: LiveInput, now = Date.now()): LiveFrameInfo {
    const own = this.currentRing(input.id);
    let ring: SharedArrayBuffer | null = own;
    if (own) this.closePreview(input.id);
    else ring = this.preview(input, now);
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

  private preview(input: LiveInput, now: number): SharedArrayBuffer | null {
    let sig = this.sigs.get(input);
    if (sig === undefined) this.sigs.set(input, (sig = JSON.stringify(input.input)));
    let p = this.previews.get(input.id);
    if (p && p.inputSig !== sig) {
      this.closePreview(input.id);
      p = undefined;
    }
    if (!p) {
      const created: Preview = { key: `preview:${input.id}`, ring: null, reader: null, lastUse: now, inputSig: sig };
      this.previews.set(input.id, created);
      this.log.info({ input: input.id }, 'live preview opened');
      this.ingest.open(created.key, input.input, { live: true, preview: true }).then(
        (ring) => {
          if (this.previews.get(input.id) === created) created.ring = ring;
        },
        (err: Error) => {
          // The next request tries again; meanwhile the placeholder is shown.
          if (this.previews.get(input.id) === created) this.previews.delete(input.id);
          this.log.warn({ input: input.id, err: err.message }, 'live preview could not open');
        },
      );
      return null;
    }
    p.lastUse = now;
    return p.ring;
  }

  private closePreview(id: string): void {
    const p = this.previews.get(id);
    if (!p) return;
    this.previews.delete(id);
    this.ingest.close(p.key);
    this.log.info({ input: id }, 'live preview closed');
  }

  private sweep(now = Date.now()): void {
    for (const [id, p] of this.previews) if (now - p.lastUse > this.quietMs) this.closePreview(id);
  }

  /** Closes previews of inputs that no longer exist. */
  retain(ids: ReadonlySet<string>): void {
    for (const id of [...this.previews.keys()]) if (!ids.has(id)) this.closePreview(id);
  }

  open(): number {
    return this.previews.size;
  }

  stop(): void {
    clearInterval(this.sweeper);
    for (const id of [...this.previews.keys()]) this.closePreview(id);
  }
}
