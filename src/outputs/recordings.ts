// The recordings folder as a listing: only names the record kind writes (`<output id>-<UTC timestamp>.mkv`),
// that are regular files (never a link), with size, whether ffmpeg is still writing the file, and its duration from ffprobe once it is complete.
import { execFile } from 'node:child_process';
import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, notFound } from '../errors.js';
import { limiter } from '../util/limiter.js';

/** What the record kind writes; anything else in the folder (or any name from a request) is not a recording. */
export const RECORDING_NAME = /^([A-Za-z0-9][A-Za-z0-9_.-]{0,127})-(\d{8}T\d{9}Z)\.mkv$/;

const PROBE_TIMEOUT_MS = 10_000;
const PROBE_CONCURRENCY = 2;
const CACHE_MAX = 1000;

export interface Recording {
  file: string;
  outputId: string;
  startedAt: string;
  /** Seconds, from ffprobe; null while the file is written or when ffprobe could not read one. */
  durationSeconds: number | null;
  bytes: number;
  complete: boolean;
}

export class Recordings {
  private readonly probes = limiter(PROBE_CONCURRENCY);
  /** Durations by name, size and mtime: a finished file is probed once. */
  private readonly durations = new Map<string, Promise<number | null>>();

  constructor(
    private readonly opts: {
      dir: string;
      /** Names of the files ffmpeg is writing now. */
      active: () => ReadonlySet<string>;
      ffprobe?: string;
    },
  ) {}

  get dir(): string {
    return this.opts.dir;
  }

  /** Newest first. */
  async list(): Promise<Recording[]> {
    let names: string[];
    try {
      names = await readdir(this.opts.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const active = this.opts.active();
    const items = await Promise.all(names.filter((n) => RECORDING_NAME.test(n)).map((n) => this.item(n, active.has(n))));
    return items
      .filter((x): x is Recording => x !== null)
      .sort((a, b) => (a.startedAt === b.startedAt ? a.file.localeCompare(b.file) : a.startedAt < b.startedAt ? 1 : -1));
  }

  /** The listed recording of that name; 404 ITEM_NOT_FOUND naming the ones there are otherwise. */
  async find(name: string): Promise<Recording> {
    const items = await this.list();
    const hit = RECORDING_NAME.test(name) ? items.find((r) => r.file === name) : undefined;
    if (!hit)
      throw notFound(
        'recording',
        name,
        items.map((r) => r.file),
      );
    return hit;
  }

  async remove(name: string): Promise<Recording> {
    const r = await this.find(name);
    if (!r.complete) throw new ApiError('RECORDING_ACTIVE', undefined, { file: r.file });
    try {
      await unlink(join(this.opts.dir, r.file));
    } catch (err) {
      // Removed by someone else between the listing and now: the same answer as a name never listed.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return this.find(name);
      throw err;
    }
    return r;
  }

  private async item(file: string, writing: boolean): Promise<Recording | null> {
    let st;
    try {
      // lstat: a link named like a recording (to a file anywhere) is not one, whatever it points at.
      st = await lstat(join(this.opts.dir, file));
    } catch {
      return null;
    }
    if (!st.isFile()) return null;
    const m = RECORDING_NAME.exec(file)!;
    const t = m[2]!;
    const startedAt = `${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)}T${t.slice(9, 11)}:${t.slice(11, 13)}:${t.slice(13, 15)}.${t.slice(15, 18)}Z`;
    const durationSeconds = writing ? null : await this.duration(file, st.size, st.mtimeMs);
    return { file, outputId: m[1]!, startedAt, durationSeconds, bytes: st.size, complete: !writing };
  }

  private duration(file: string, size: number, mtimeMs: number): Promise<number | null> {
    const key = `${file}\0${size}\0${mtimeMs}`;
    let d = this.durations.get(key);
    if (!d) {
      if (this.durations.size >= CACHE_MAX) this.durations.delete(this.durations.keys().next().value!);
      d = this.probes(() => probeDuration(this.opts.ffprobe ?? 'ffprobe', join(this.opts.dir, file)));
      this.durations.set(key, d);
    }
    return d;
  }
}

/** Container duration in seconds; null when ffprobe fails or the container has none (a file cut by a kill). */
function probeDuration(ffprobe: string, path: string): Promise<number | null> {
  return new Promise((resolve) => {
    execFile(
      ffprobe,
      ['-v', 'error', '-show_entries', 'format=duration', '-of', 'json', path],
      { timeout: PROBE_TIMEOUT_MS },
      (err, stdout) => {
        if (err) return resolve(null);
        try {
          const d = Number((JSON.parse(stdout) as { format?: { duration?: string } }).format?.duration);
          resolve(Number.isFinite(d) && d > 0 ? Math.round(d * 1000) / 1000 : null);
        } catch {
          resolve(null);
        }
      },
    );
  });
}
