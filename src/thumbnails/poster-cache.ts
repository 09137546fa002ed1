// Media posters: one frame per media file extracted by ffmpeg once, kept on disk as PNG keyed by id, size and mtime.
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { Logger } from '../log.js';
import { limiter } from '../util/limiter.js';
import { pidAlive } from '../util/pid-alive.js';
import { parentDeathPrefix } from '../shared/parent-death.js';

export interface PosterMedia {
  id: string;
  path: string;
  size: number;
  mtimeMs: number;
  kind: 'video' | 'still';
  /** Seconds, when the container reports it. */
  duration?: number;
}

export interface Poster {
  /** Absolute path of the PNG (at most 512×512, square pixels). */
  path: string;
  width: number;
  height: number;
}

/** hits/misses count lookups: concurrent requests for one poster share one lookup and count once. */
export interface PosterCacheStats {
  hits: number;
  misses: number;
  /** Extractions queued or running now. */
  extracting: number;
  /** Poster files in the cache folder (known from the first get on). */
  entries: number;
}

export interface PosterCacheOptions {
  dir: string; // usually <dataDir>/cache/posters; created on first use
  ffmpeg?: string;
  log: Logger;
  concurrency?: number; // ffmpeg processes at once (default 2)
  maxEntries?: number; // poster files kept; the oldest go beyond this (default 2000)
  timeoutMs?: number; // ffmpeg is killed after this long (default 10 000)
}

const ID = /^media-[0-9a-f]{16}$/;
const ENTRY = /^(media-[0-9a-f]{16})-\d+-\d+\.png$/;
const TEMP = /^\.media-[0-9a-f]{16}-\d+-\d+\.png\.(\d+)\.[0-9a-f]+\.tmp$/;
const MAX_SIDE = 512;
const STDERR_KEEP = 8192;
// Pixels are made square first by shrinking the longer display axis (never growing one), then fitted inside the box.
const FILTER =
  "scale='if(gt(sar,1),iw,max(1,trunc(iw*sar)))':'if(gt(sar,1),max(1,trunc(ih/sar)),ih)',setsar=1," +
  `scale='min(${MAX_SIDE},iw)':'min(${MAX_SIDE},ih)':force_original_aspect_ratio=decrease`;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
let warnedNoPrefix = false;

/** Width and height from a PNG's IHDR chunk (the first 24 bytes), or null when the bytes are not a PNG header. */
function ihdr(b: Buffer): { width: number; height: number } | null {
  if (b.length < 24 || !b.subarray(0, 8).equals(PNG_SIGNATURE) || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  const width = b.readUInt32BE(16);
  const height = b.readUInt32BE(20);
  return width > 0 && height > 0 ? { width, height } : null;
}

interface Header {
  dims: { width: number; height: number } | null;
  mtimeMs: number;
  /** False for a pipe or the like under a poster's name: never read, it is removed as damaged. */
  regular: boolean;
}

/** The PNG header of a file and its mtime; null when the file does not exist. */
async function readHeader(file: string, sync: boolean): Promise<Header | null> {
  // O_NONBLOCK: opening a pipe the ordinary way would park a file thread until a writer came.
  let fh: FileHandle;
  try {
    fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    // A socket cannot be opened at all.
    if (code === 'ENXIO') return { dims: null, mtimeMs: 0, regular: false };
    throw err;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return { dims: null, mtimeMs: st.mtimeMs, regular: false };
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(24), 0, 24, 0);
    if (sync) await fh.sync();
    return { dims: ihdr(buffer.subarray(0, bytesRead)), mtimeMs: st.mtimeMs, regular: true };
  } finally {
    await fh.close();
  }
}

export class PosterCache {
  private readonly dir: string;
  private readonly ffmpeg: string;
  private readonly log: Logger;
  private readonly maxEntries: number;
  private readonly timeoutMs: number;
  private readonly slot: <T>(task: () => Promise<T>) => Promise<T>;
  /** File name → mtime, oldest first (loaded sorted, new posters appended), so eviction takes from the front. */
  private readonly index = new Map<string, number>();
  private readonly inflight = new Map<string, Promise<Poster>>();
  private loading: Promise<void> | null = null;
  private hits = 0;
  private misses = 0;
  private extracting = 0;

  constructor(opts: PosterCacheOptions) {
    this.dir = resolve(opts.dir);
    this.ffmpeg = opts.ffmpeg ?? 'ffmpeg';
    this.log = opts.log;
    this.maxEntries = Math.max(1, opts.maxEntries ?? 2000);
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.slot = limiter(opts.concurrency ?? 2);
  }

  stats(): PosterCacheStats {
    return { hits: this.hits, misses: this.misses, extracting: this.extracting, entries: this.index.size };
  }

  /** The poster of one media version; concurrent calls for the same version share one lookup and extraction. */
  async get(media: PosterMedia): Promise<Poster> {
    // Everything that forms the file name is checked before the filesystem is touched.
    if (typeof media.id !== 'string' || !ID.test(media.id))
      throw new Error(`invalid media id for a poster: ${JSON.stringify(String(media.id).slice(0, 40))}`);
    if (!Number.isSafeInteger(media.size) || media.size < 0 || !Number.isFinite(media.mtimeMs) || media.mtimeMs < 0) {
      throw new Error(`invalid size or mtime for the poster of ${media.id}`);
    }
    if (typeof media.path !== 'string' || !isAbsolute(media.path)) throw new Error(`media path of ${media.id} is not absolute`);
    const name = `${media.id}-${media.size}-${Math.trunc(media.mtimeMs)}.png`;
    let pending = this.inflight.get(name);
    if (!pending) {
      pending = this.lookup(name, media).finally(() => this.inflight.delete(name));
      this.inflight.set(name, pending);
    }
    return pending;
  }

  private async lookup(name: string, media: PosterMedia): Promise<Poster> {
    await this.load();
    const file = join(this.dir, name);
    const found = await this.readPoster(file, name);
    if (found) {
      this.hits++;
      return { path: file, ...found };
    }
    this.misses++;
    this.extracting++;
    try {
      return await this.slot(() => this.extract(name, file, media));
    } finally {
      this.extracting--;
    }
  }

  /** One readdir on first use; temp files left by a vjd that died mid-extraction are removed. */
  private load(): Promise<void> {
    this.loading ??= (async () => {
      await mkdir(this.dir, { recursive: true });
      const found: Array<[string, number]> = [];
      await Promise.all(
        (await readdir(this.dir)).map(async (n) => {
          const temp = TEMP.exec(n);
          if (temp && Number(temp[1]) !== process.pid && !pidAlive(Number(temp[1]))) await this.remove(n);
          if (!ENTRY.test(n)) return;
          const st = await stat(join(this.dir, n)).catch(() => null);
          if (st?.isFile()) found.push([n, st.mtimeMs]);
        }),
      );
      found.sort((a, b) => a[1] - b[1]);
      for (const [n, t] of found) this.index.set(n, t);
    })().catch((err) => {
      this.loading = null;
      throw err;
    });
    return this.loading;
  }

  /** Dimensions of a cached poster; null when absent. A damaged file (say, cut short by a crash) is removed. */
  private async readPoster(file: string, name: string): Promise<{ width: number; height: number } | null> {
    const head = await readHeader(file, false);
    if (!head) {
      this.index.delete(name);
      return null;
    }
    if (head.dims) {
      if (!this.index.has(name)) this.index.set(name, head.mtimeMs);
      return head.dims;
    }
    if (!head.regular) this.log.warn({ file: join(this.dir, name), reason: 'not a regular file' }, 'poster cache entry removed');
    await this.remove(name);
    return null;
  }

  private async extract(name: string, file: string, media: PosterMedia): Promise<Poster> {
    const started = performance.now();
    await mkdir(this.dir, { recursive: true });
    const tmp = join(this.dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      const d = media.duration;
      let seek = media.kind === 'video' ? (d !== undefined && Number.isFinite(d) && d > 0 ? Math.min(1, d * 0.1) : 1) : 0;
      if (seek < 0.001) seek = 0;
      let got = await this.runFfmpeg(media, seek, tmp);
      // The container may claim more than the stream holds: a seek past the last frame yields nothing.
      if (!got && seek > 0) got = await this.runFfmpeg(media, 0, tmp);
      if (!got) throw new Error(`poster of ${media.id}: ffmpeg decoded no video frame`);
      // Synced before it becomes visible: a crash must not leave an empty poster under the final name.
      const dims = (await readHeader(tmp, true))?.dims;
      if (!dims) throw new Error(`poster of ${media.id}: ffmpeg wrote no PNG`);
      await rename(tmp, file);
      this.index.delete(name);
      this.index.set(name, Date.now());
      await this.prune(name, media.id);
      this.log.debug({ id: media.id, ...dims, ms: Math.round(performance.now() - started) }, 'media poster extracted');
      return { path: file, ...dims };
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      this.log.warn({ id: media.id, file: media.path, err: (err as Error).message }, 'media poster not extracted');
      throw err;
    }
  }

  /** Drops older versions of the same media and, past maxEntries, the oldest posters. */
  private async prune(keep: string, id: string): Promise<void> {
    const drop: string[] = [];
    for (const n of this.index.keys()) if (n !== keep && ENTRY.exec(n)?.[1] === id) drop.push(n);
    let over = this.index.size - drop.length - this.maxEntries;
    for (const n of this.index.keys()) {
      if (over <= 0) break;
      if (n === keep || drop.includes(n)) continue;
      drop.push(n);
      over--;
    }
    await Promise.all(drop.map((n) => this.remove(n)));
  }

  private async remove(name: string): Promise<void> {
    this.index.delete(name);
    await unlink(join(this.dir, name)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') this.log.warn({ file: name, err: err.message }, 'cannot remove a poster cache file');
    });
  }

  /** Runs ffmpeg once; true when it wrote a frame, false when it decoded none (exit 0, empty output). */
  private async runFfmpeg(media: PosterMedia, seek: number, tmp: string): Promise<boolean> {
    const prefix = await parentDeathPrefix('KILL');
    if (!prefix && !warnedNoPrefix) {
      warnedNoPrefix = true;
      this.log.warn('setpriv --pdeathsig unavailable: poster ffmpeg processes may outlive a killed vjd');
    }
    const args = [
      ...(prefix ?? []),
      this.ffmpeg,
      ...['-hide_banner', '-nostdin', '-v', 'error'],
      ...(seek > 0 ? ['-ss', seek.toFixed(3)] : []),
      // `file:` keeps a name with a colon from being read as a protocol; 0:V skips cover art of audio-style files.
      ...['-i', `file:${media.path}`, '-map', '0:V:0', '-frames:v', '1', '-vf', FILTER],
      ...['-c:v', 'png', '-f', 'image2pipe', '-y', `file:${tmp}`],
    ];
    await new Promise<void>((resolveRun, reject) => {
      const child = spawn(args[0]!, args.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, this.timeoutMs);
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (s: string) => {
        stderr = (stderr + s).slice(-STDERR_KEEP);
      });
      // A promise settles once, so whichever of 'error' and 'close' comes second changes nothing.
      child.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(new Error(`poster of ${media.id}: ${err.code === 'ENOENT' ? `${args[0]} not found` : err.message}`));
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (timedOut) reject(new Error(`poster of ${media.id}: ffmpeg killed after ${this.timeoutMs} ms without finishing`));
        else if (code === 0) resolveRun();
        else {
          const last = stderr
            .trim()
            .split(/[\r\n]+/)
            .pop()
            ?.trim()
            .slice(0, 300);
          reject(new Error(`poster of ${media.id}: ffmpeg failed: ${last || `no error output (${signal ?? `exit code ${code}`})`}`));
        }
      });
    });
    const st = await stat(tmp).catch(() => null);
    return st !== null && st.size > 0;
  }
}
