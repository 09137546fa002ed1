// The media library: scans media roots, probes files (cached), watches for changes and publishes immutable snapshots.
import { EventEmitter } from 'node:events';
import { watch, type FSWatcher } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { Logger } from '../log.js';
import { ProbeCache } from './probe-cache.js';
import { probeFile, type ProbeFn } from './probe.js';
import { limiter } from '../util/limiter.js';
import { emptyRoot, freezeSnapshot, identity, scanRoots, signatureOf, type MediaSnapshot } from './scan.js';

export { mediaId, type MediaFile, type MediaFolder, type MediaRoot, type MediaSnapshot } from './scan.js';

export interface MediaLibraryOptions {
  roots: string[];
  /** Usually `<dataDir>/cache/probe-cache.json`. */
  cacheFile: string;
  log: Logger;
  /** Concurrent ffprobe processes (default 4). */
  concurrency?: number;
  /** Rescan delay after a change event (default 300 ms). */
  debounceMs?: number;
  /** Root existence poll interval (default 2000 ms). */
  pollMs?: number;
  /** Replaces ffprobe (tests count calls through it). */
  probe?: ProbeFn;
}

/** Rescan period while inotify watches cannot be added (limit reached), in poll ticks (15 × 2 s). */
const BROKEN_WATCH_RESCAN_TICKS = 15;

/**
 * Emits 'change' (with the new snapshot) after the first scan and whenever what it shows changes.
 * Watching: one non-recursive fs.watch per directory, fed by the async scan. Node 20's `recursive: true` on Linux
 * walks the tree synchronously and adds an inotify watch per file (measured: 302 watches for 300 files), which
 * would block the main thread on big libraries; a directory watch already reports changes of the files in it.
 */
export class MediaLibrary extends EventEmitter {
  readonly roots: readonly string[];
  private readonly log: Logger;
  private readonly cache: ProbeCache;
  private readonly probe: ProbeFn;
  private readonly debounceMs: number;
  private readonly pollMs: number;
  private current: MediaSnapshot;
  private signature = '';
  private watching = false;
  private readonly watchers = new Map<string, FSWatcher>();
  private rootIdentity: string[];
  private debounce: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private scanning: Promise<void> | null = null;
  private rescanWanted = false;
  private watchBroken = false;
  private ticks = 0;
  /** Entries skipped by the last scan: each is named once while it stays, not at every rescan. */
  private skipped = new Set<string>();

  constructor(opts: MediaLibraryOptions) {
    super();
    this.roots = opts.roots.map((r) => resolve(r));
    this.log = opts.log;
    this.cache = new ProbeCache(opts.cacheFile, opts.log);
    const slot = limiter(opts.concurrency ?? 4);
    const probe = opts.probe ?? ((file: string) => probeFile(file));
    this.probe = (file) => slot(() => probe(file));
    this.debounceMs = opts.debounceMs ?? 300;
    this.pollMs = opts.pollMs ?? 2000;
    this.rootIdentity = this.roots.map(() => '');
    this.current = freezeSnapshot(
      0,
      this.roots.map((p, index) => emptyRoot(p, index, false)),
    );
  }

  /** The newest snapshot (version 0, all roots empty, before the first scan ends). */
  snapshot(): MediaSnapshot {
    return this.current;
  }

  /** Loads the probe cache, scans every root, then watches directories and polls for missing/re-created roots. */
  async start(): Promise<void> {
    await this.cache.load();
    this.watching = true;
    await this.rescan();
    // Like a server socket, a started library keeps the process alive until stop().
    this.poll = setInterval(() => void this.checkRoots(), this.pollMs);
  }

  async stop(): Promise<void> {
    this.watching = false;
    if (this.poll) clearInterval(this.poll);
    if (this.debounce) clearTimeout(this.debounce);
    this.poll = this.debounce = null;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    await this.scanning;
    await this.cache.save();
  }

  /** Scans now; a request during a scan runs one more scan after it (coalesced). */
  rescan(): Promise<void> {
    if (this.scanning) {
      this.rescanWanted = true;
      return this.scanning;
    }
    this.scanning = (async () => {
      do {
        this.rescanWanted = false;
        await this.scanOnce();
      } while (this.rescanWanted && this.watching);
    })().finally(() => {
      this.scanning = null;
    });
    return this.scanning;
  }

  private schedule(): void {
    // A window from the first event (not reset per event) bounds the delay while a long copy keeps writing.
    if (this.debounce || !this.watching) return;
    this.debounce = setTimeout(() => {
      this.debounce = null;
      void this.rescan();
    }, this.debounceMs);
  }

  /** A root that appeared, vanished or was re-created (new inode: its old watches died with it) is rescanned. */
  private async checkRoots(): Promise<void> {
    this.ticks++;
    const ids = await Promise.all(this.roots.map((r) => identity(r)));
    if (ids.some((id, i) => id !== this.rootIdentity[i])) this.schedule();
    else if (this.watchBroken && this.ticks % BROKEN_WATCH_RESCAN_TICKS === 0) this.schedule();
  }

  private async scanOnce(): Promise<void> {
    const started = performance.now();
    const s = await scanRoots(this.roots, {
      cache: this.cache,
      probe: this.probe,
      log: this.log,
      onDir: (dir, key) => {
        if (this.watching) this.watchDir(dir, key);
      },
    });
    this.rootIdentity = s.identities;
    for (const file of s.skipped) if (!this.skipped.has(file)) this.log.warn({ file, reason: 'not a regular file' }, 'media entry skipped');
    this.skipped = s.skipped;
    for (const [key, w] of this.watchers) {
      if (!s.dirs.has(key)) {
        w.close();
        this.watchers.delete(key);
      }
    }
    // Entries of a missing root are kept: an unmounted drive coming back should not be re-probed.
    const missing = this.roots.filter((_, i) => s.identities[i] === 'missing');
    this.cache.prune((p) => s.paths.has(p) || missing.some((r) => p.startsWith(r + sep)));
    await this.cache.save();
    const ms = Math.round(performance.now() - started);
    const sig = signatureOf(s.roots);
    if (sig === this.signature && this.current.version > 0) {
      this.log.debug({ ms }, 'media rescan: no change');
      return;
    }
    this.signature = sig;
    this.current = freezeSnapshot(this.current.version + 1, s.roots);
    const videos = this.current.files.filter((f) => f.type === 'video').length;
    this.log.info(
      {
        roots: this.roots.length,
        missingRoots: missing.length,
        videos,
        images: this.current.files.length - videos,
        unsupported: s.unsupported,
        probed: s.probed,
        fromCache: s.cached,
        probeFailures: s.failed,
        watchedFolders: this.watchers.size,
        ms,
      },
      'media library scanned',
    );
    this.emit('change', this.current);
  }

  private watchDir(dir: string, key: string): void {
    if (this.watchers.has(key)) return;
    try {
      const w = watch(dir, (_event, name) => {
        // Hidden names are skipped by the scan, so their churn (temp files of atomic writers) needs no rescan.
        if (typeof name === 'string' && name.startsWith('.')) return;
        this.schedule();
      });
      w.on('error', () => {
        w.close();
        this.watchers.delete(key);
        this.schedule();
      });
      this.watchers.set(key, w);
    } catch (err) {
      if (!this.watchBroken) this.log.warn({ dir, err: String(err) }, 'cannot watch media folder; rescanning every 30 s instead');
      this.watchBroken = true;
    }
  }
}
