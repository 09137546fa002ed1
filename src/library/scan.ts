// One pass over the media roots: async directory walk, stat, cached probe; returns frozen folder trees.
import { readdir, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { basename, extname, join } from 'node:path';
import type { Logger } from '../log.js';
import type { ProbeCache } from './probe-cache.js';
import { limiter } from '../util/limiter.js';
import { ProbeError, type MediaType, type ProbeFn, type ProbeResult } from './probe.js';

export interface MediaFile {
  /** `media-` + first 16 hex of sha256(`<root absolute path>\0<relPath>`): stable across restarts and rescans. */
  readonly id: string;
  /** File name without its extension. */
  readonly name: string;
  readonly type: MediaType;
  readonly path: string;
  /** Path relative to its root, `/`-separated. */
  readonly relPath: string;
  readonly rootIndex: number;
  readonly width: number;
  readonly height: number;
  /** null for stills (and videos whose container gives no duration). */
  readonly durationSec: number | null;
  readonly fps: number | null;
  readonly size: number;
  readonly mtimeMs: number;
}

export interface MediaFolder {
  readonly name: string;
  readonly path: string;
  /** '' for a root. */
  readonly relPath: string;
  /** Sorted by name, case-insensitive. Folders without supported files are kept (the browse tree hides them). */
  readonly folders: readonly MediaFolder[];
  readonly files: readonly MediaFile[];
}

export interface MediaRoot extends MediaFolder {
  readonly index: number;
  /** false while the root directory is missing (it is polled for and picked up when it appears). */
  readonly exists: boolean;
}

export interface MediaSnapshot {
  /** Bumped on every content change. */
  readonly version: number;
  readonly roots: readonly MediaRoot[];
  /** Every supported file of every root, in tree order. */
  readonly files: readonly MediaFile[];
  readonly byId: ReadonlyMap<string, MediaFile>;
}

export function mediaId(rootAbs: string, relPath: string): string {
  return `media-${createHash('sha256').update(`${rootAbs}\0${relPath}`).digest('hex').slice(0, 16)}`;
}

/** Case-insensitive by code unit (not locale: the order must not depend on the machine's ICU data). */
export function byName(a: { name: string }, b: { name: string }): number {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export interface ScanContext {
  cache: ProbeCache;
  /** Already concurrency-limited by the caller. */
  probe: ProbeFn;
  log: Logger;
  /** Called for every directory before it is read (the watcher hooks in here); key is path + inode. */
  onDir?: (dirAbs: string, key: string) => void;
}

export interface ScanResult {
  roots: MediaRoot[];
  /** Per root: `dev:ino` of the directory, or 'missing'. */
  identities: string[];
  /** Keys (path + inode) of every directory walked. */
  dirs: Set<string>;
  /** Every regular file seen, supported or not (keeps their probe-cache entries). */
  paths: Set<string>;
  /** Entries that are neither a folder nor a regular file (a pipe, socket or device): never handed to ffprobe. */
  skipped: Set<string>;
  seen: number;
  probed: number;
  cached: number;
  unsupported: number;
  failed: number;
}

const PROGRESS_EVERY = 500;
const statSlot = limiter(32);

export async function scanRoots(roots: readonly string[], ctx: ScanContext): Promise<ScanResult> {
  const r: ScanResult = {
    roots: [],
    identities: [],
    dirs: new Set(),
    paths: new Set(),
    skipped: new Set(),
    seen: 0,
    probed: 0,
    cached: 0,
    unsupported: 0,
    failed: 0,
  };
  const inodes = new Set<string>();
  for (let i = 0; i < roots.length; i++) {
    const rootAbs = roots[i] as string;
    const id = await identity(rootAbs);
    r.identities.push(id);
    const walked = id === 'missing' ? null : await walk(rootAbs, rootAbs, '', i);
    r.roots.push(walked ? Object.freeze({ ...walked, index: i, exists: true }) : emptyRoot(rootAbs, i, false));
  }
  return r;

  async function walk(rootAbs: string, dirAbs: string, relPath: string, rootIndex: number): Promise<MediaFolder | null> {
    const st = await stat(dirAbs).catch(() => null);
    if (st === null) return null;
    const ino = `${st.dev}:${st.ino}`;
    if (inodes.has(ino)) return null; // a symlink loop, or a second link to a folder already listed
    inodes.add(ino);
    // Keyed by inode too: a folder deleted and re-created under the same path needs a new watch.
    const key = `${dirAbs}\0${ino}`;
    r.dirs.add(key);
    ctx.onDir?.(dirAbs, key); // before reading, so a file created between the read and the watch is not missed
    const entries = await readdir(dirAbs, { withFileTypes: true }).catch(() => null);
    if (entries === null) return null;
    const folders: Promise<MediaFolder | null>[] = [];
    const files: Promise<MediaFile | null>[] = [];
    for (const ent of entries) {
      if (ent.name.startsWith('.')) continue;
      const abs = join(dirAbs, ent.name);
      const rel = relPath === '' ? ent.name : `${relPath}/${ent.name}`;
      let isDir = ent.isDirectory();
      let isFile = ent.isFile();
      // A dangling link is left out quietly: it names nothing to skip.
      let exists = true;
      if (ent.isSymbolicLink()) {
        const target = await stat(abs).catch(() => null);
        isDir = target?.isDirectory() ?? false;
        isFile = target?.isFile() ?? false;
        exists = target !== null;
      }
      if (isDir) folders.push(walk(rootAbs, abs, rel, rootIndex));
      else if (isFile) files.push(file(rootAbs, abs, rel, rootIndex));
      else if (exists) r.skipped.add(abs);
    }
    const sub = (await Promise.all(folders)).filter((f): f is MediaFolder => f !== null).sort(byName);
    const list = (await Promise.all(files)).filter((f): f is MediaFile => f !== null).sort(byName);
    return Object.freeze({ name: basename(dirAbs), path: dirAbs, relPath, folders: Object.freeze(sub), files: Object.freeze(list) });
  }

  async function file(rootAbs: string, abs: string, relPath: string, rootIndex: number): Promise<MediaFile | null> {
    const st = await statSlot(() => stat(abs)).catch(() => null);
    if (st === null) return null;
    // Replaced by a pipe or the like since the folder was read: a media reader would block opening it.
    if (!st.isFile()) {
      r.skipped.add(abs);
      return null;
    }
    r.paths.add(abs);
    if (++r.seen % PROGRESS_EVERY === 0) ctx.log.info({ files: r.seen, probed: r.probed, fromCache: r.cached }, 'media scan progress');
    let info: ProbeResult | undefined = ctx.cache.get(abs, st.size, st.mtimeMs);
    if (info === undefined) {
      try {
        info = await ctx.probe(abs);
        r.probed++;
        ctx.cache.set(abs, st.size, st.mtimeMs, info);
      } catch (err) {
        // Not the file's fault (ffprobe missing or overloaded): omit it now, retry at the next scan.
        if (r.failed++ === 0) ctx.log.warn({ file: abs, err: err instanceof ProbeError ? err.message : String(err) }, 'media probe failed');
        return null;
      }
    } else r.cached++;
    if (info === null) {
      r.unsupported++;
      return null;
    }
    const name = basename(abs, extname(abs)) || basename(abs);
    const { type, width, height, durationSec, fps } = info;
    return Object.freeze({
      id: mediaId(rootAbs, relPath),
      name,
      type,
      path: abs,
      relPath,
      rootIndex,
      width,
      height,
      durationSec,
      fps,
      size: st.size,
      mtimeMs: st.mtimeMs,
    });
  }
}

/** `dev:ino` of a directory, or 'missing' (absent, unreadable, or not a directory). */
export async function identity(path: string): Promise<string> {
  try {
    const st = await stat(path);
    return st.isDirectory() ? `${st.dev}:${st.ino}` : 'missing';
  } catch {
    return 'missing';
  }
}

export function emptyRoot(path: string, index: number, exists: boolean): MediaRoot {
  return Object.freeze({ name: basename(path), path, relPath: '', folders: Object.freeze([]), files: Object.freeze([]), index, exists });
}

export function freezeSnapshot(version: number, roots: MediaRoot[]): MediaSnapshot {
  const files: MediaFile[] = [];
  const collect = (f: MediaFolder): void => {
    for (const sub of f.folders) collect(sub);
    files.push(...f.files);
  };
  roots.forEach(collect);
  return Object.freeze({ version, roots: Object.freeze(roots), files: Object.freeze(files), byId: new Map(files.map((f) => [f.id, f])) });
}

/** What a snapshot shows; equal signatures mean no 'change' event is due. */
export function signatureOf(roots: readonly MediaRoot[]): string {
  const parts: string[] = [];
  const add = (f: MediaFolder): void => {
    parts.push(`d${f.relPath}`);
    for (const x of f.files) parts.push(`f${x.id}|${x.size}|${x.mtimeMs}|${x.type}|${x.width}x${x.height}`);
    f.folders.forEach(add);
  };
  for (const root of roots) {
    parts.push(`r${root.index}|${root.exists}`);
    add(root);
  }
  return parts.join('\n');
}
