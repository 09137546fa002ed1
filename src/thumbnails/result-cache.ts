// A small LRU of encoded thumbnails keyed by subject and ETag, bounded by entries and bytes: repeated requests
// for an image that has not changed (generators, palettes, media posters, a still frame) cost no work at all.

export interface CachedImage {
  bytes: Uint8Array;
  etag: string;
}

export class ResultCache {
  private readonly map = new Map<string, CachedImage>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly maxEntries: number,
  ) {}

  get(key: string): CachedImage | undefined {
    const hit = this.map.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting makes it the most recently used.
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: CachedImage): void {
    const old = this.map.get(key);
    if (old) {
      this.bytes -= old.bytes.byteLength;
      this.map.delete(key);
    }
    if (value.bytes.byteLength > this.maxBytes / 4) return;
    this.map.set(key, value);
    this.bytes += value.bytes.byteLength;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.maxBytes && this.map.size <= this.maxEntries) break;
      this.map.delete(k);
      this.bytes -= v.bytes.byteLength;
    }
  }

  stats(): { entries: number; bytes: number } {
    return { entries: this.map.size, bytes: this.bytes };
  }
}
