// Persistent cache of ffprobe results keyed by absolute path + size + mtime, so a restart does not re-probe the library.
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '../log.js';
import { atomicWriteFile } from '../util/atomic-write.js';
import { readRegularText } from '../util/regular-file.js';
import { DATA_FILE_LIMITS } from '../limits.js';
import type { ProbeResult } from './probe.js';

/** Bumped whenever classification changes, so stale verdicts from an older build are dropped, not trusted. */
export const PROBE_CACHE_VERSION = 1;

interface Entry {
  size: number;
  mtimeMs: number;
  result: ProbeResult;
}

interface CacheFile {
  version: number;
  entries: Record<string, Entry>;
}

export class ProbeCache {
  private entries = new Map<string, Entry>();
  private dirty = false;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly log?: Logger,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Reads the cache file; a missing, unreadable or foreign file starts an empty cache (it is only a cache). */
  async load(): Promise<void> {
    let text: string;
    try {
      // A pipe or an oversized file in its place is refused unread (and replaced by the next save).
      text = await readRegularText(this.file, DATA_FILE_LIMITS.probeCacheMaxBytes);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        this.log?.warn({ file: this.file, err: String(err) }, 'probe cache unreadable; starting empty');
      return;
    }
    try {
      const parsed = JSON.parse(text) as Partial<CacheFile>;
      if (parsed.version !== PROBE_CACHE_VERSION || parsed.entries === null || typeof parsed.entries !== 'object') {
        this.log?.info({ file: this.file }, 'probe cache from another version; starting empty');
        return;
      }
      for (const [path, e] of Object.entries(parsed.entries)) {
        if (isEntry(e)) this.entries.set(path, e);
      }
    } catch {
      this.log?.warn({ file: this.file }, 'probe cache is not valid JSON; starting empty');
    }
  }

  /** undefined: not cached (probe it); null: known unsupported; otherwise the cached info. */
  get(path: string, size: number, mtimeMs: number): ProbeResult | undefined {
    const e = this.entries.get(path);
    if (e === undefined || e.size !== size || e.mtimeMs !== mtimeMs) return undefined;
    return e.result;
  }

  set(path: string, size: number, mtimeMs: number, result: ProbeResult): void {
    this.entries.set(path, { size, mtimeMs, result });
    this.dirty = true;
  }

  /** Drops entries whose path `keep` rejects (files that no longer exist), so the file does not grow forever. */
  prune(keep: (path: string) => boolean): void {
    for (const path of this.entries.keys()) {
      if (!keep(path)) {
        this.entries.delete(path);
        this.dirty = true;
      }
    }
  }

  /** Writes the cache when it changed; writes are serialized so two saves never race on the temp file. */
  save(): Promise<void> {
    this.saving = this.saving.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      const body: CacheFile = { version: PROBE_CACHE_VERSION, entries: Object.fromEntries(this.entries) };
      try {
        await mkdir(dirname(this.file), { recursive: true });
        await atomicWriteFile(this.file, JSON.stringify(body));
      } catch (err) {
        this.dirty = true;
        this.log?.warn({ file: this.file, err: String(err) }, 'probe cache not written');
      }
    });
    return this.saving;
  }
}

function isEntry(e: unknown): e is Entry {
  if (e === null || typeof e !== 'object') return false;
  const x = e as Partial<Entry>;
  if (typeof x.size !== 'number' || typeof x.mtimeMs !== 'number') return false;
  if (x.result === null) return true;
  const r = x.result as unknown as Record<string, unknown> | undefined;
  return (
    r !== undefined && (r['type'] === 'video' || r['type'] === 'image') && typeof r['width'] === 'number' && typeof r['height'] === 'number'
  );
}
