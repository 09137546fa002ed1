// The palette library: built-ins under assets/palettes plus the configured folders, rescanned when a folder changes.
// A file that does not parse is skipped with a log line naming it, the line and why.
import { EventEmitter } from 'node:events';
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DirWatch } from '../util/dir-watch.js';
import { readRegularFile, RegularFileError } from '../util/regular-file.js';
import { matchName } from '../shared/names.js';
import type { Logger } from '../log.js';
import { MAX_PALETTE_BYTES, PaletteParseError, paletteIdFromFile, parseGpl, parsePaletteJson, type ParsedPalette } from './parse.js';

/** Built-in palettes (the compiled file lives in dist/src/palettes/). */
export const PALETTE_ASSETS_DIR = fileURLToPath(new URL('../../../assets/palettes/', import.meta.url));

const MAX_FILES_PER_DIR = 2000;
const DEBOUNCE_MS = 150;
const PARSERS: Record<string, (text: string, file: string) => ParsedPalette> = { '.json': parsePaletteJson, '.gpl': parseGpl };

export interface Palette {
  /** 0-based position in list(). */
  index: number;
  /** From the file name: lower-case `[a-z0-9-]`, the same across restarts. */
  id: string;
  name: string;
  /** Upper-case `#RRGGBB`. */
  colors: string[];
  /** 1 when the id is first seen by this process; +1 each time its content changes. */
  version: number;
  /** First 12 hex of sha256(name + colors joined by ','): identifies the content across restarts. */
  digest: string;
  file: string;
  builtin: boolean;
}

type Entry = Omit<Palette, 'index' | 'version'>;

export declare interface PaletteLibrary {
  on(event: 'change', fn: (list: readonly Palette[]) => void): this;
}

export class PaletteLibrary extends EventEmitter {
  private palettes: readonly Palette[] = Object.freeze([]);
  private byId = new Map<string, Palette>();
  /** Last digest and version per id, kept after a file goes away so its return continues the count. */
  private readonly seen = new Map<string, { digest: string; version: number }>();
  private libraryVersion = 0;
  private signature = '';
  private watch: DirWatch | null = null;
  private stopped = false;
  /** Warnings of the previous scan: a rescan repeats none of them, so a bad file is reported once per problem. */
  private warned = new Set<string>();
  private missingDirs = new Set<string>();
  private running: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;

  constructor(
    private readonly dirs: string[],
    private readonly log: Logger,
    private readonly assetsDir = PALETTE_ASSETS_DIR,
  ) {
    super();
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.reload();
    if (this.dirs.length > 0 && !this.stopped) {
      this.watch = new DirWatch(this.dirs, () => void this.reload().catch(() => undefined), DEBOUNCE_MS);
      await this.watch.start();
    }
  }

  stop(): void {
    this.stopped = true;
    this.watch?.close();
    this.watch = null;
  }

  list(): readonly Palette[] {
    return this.palettes;
  }

  get(id: string): Palette | undefined {
    return this.byId.get(id);
  }

  /** Exact id first, then flexible matching on the name, then on the id. */
  find(idOrName: string): Palette | undefined {
    return this.byId.get(idOrName) ?? matchName(this.palettes, idOrName, [(p) => p.name, (p) => p.id]);
  }

  /** Bumped on every change to the list. */
  get version(): number {
    return this.libraryVersion;
  }

  /** Scans every folder (one scan at a time; calls during a scan share one follow-up scan). */
  reload(): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.running.then(() => {
      this.queued = null;
      return this.scan();
    });
    this.queued = next;
    // The watcher ignores the returned promise, so a failure is logged here.
    this.running = next.catch((err: unknown) => this.log.error({ err: (err as Error).message }, 'palette scan failed'));
    return next;
  }

  private async scan(): Promise<void> {
    const warnings = new Map<string, [Record<string, unknown>, string]>();
    const warn = (fields: Record<string, unknown>, msg: string): void => void warnings.set(JSON.stringify([fields, msg]), [fields, msg]);
    const entries: Entry[] = [];
    const at = new Map<string, number>();
    const sources: Array<[string, boolean]> = [[this.assetsDir, true], ...this.dirs.map((d): [string, boolean] => [d, false])];
    for (const [dir, builtin] of sources) {
      for (const name of await this.listDir(dir, builtin, warn)) {
        const file = join(dir, name);
        const parsed = await readPalette(file, warn);
        if (!parsed) continue;
        const id = paletteIdFromFile(name);
        const entry: Entry = { id, name: parsed.name, colors: parsed.colors, digest: digestOf(parsed), file, builtin };
        const pos = at.get(id);
        if (pos === undefined) {
          at.set(id, entries.length);
          entries.push(entry);
        } else if (entries[pos]!.builtin && !builtin) {
          // An operator file of a built-in's id takes the built-in's place, like catalog overrides.
          entries[pos] = entry;
        } else {
          warn({ file, id, kept: entries[pos]!.file }, 'palette file skipped: another palette file has the same id');
        }
      }
    }
    if (this.stopped) return;

    for (const [key, [fields, msg]] of warnings) if (!this.warned.has(key)) this.log.warn(fields, msg);
    this.warned = new Set(warnings.keys());

    const list = entries.map((e, index): Palette => {
      const prev = this.seen.get(e.id);
      const version = !prev ? 1 : prev.digest === e.digest ? prev.version : prev.version + 1;
      this.seen.set(e.id, { digest: e.digest, version });
      return Object.freeze({ index, ...e, colors: Object.freeze([...e.colors]) as string[], version });
    });
    const signature = JSON.stringify(list);
    if (signature === this.signature) return;
    this.signature = signature;
    this.palettes = Object.freeze(list);
    this.byId = new Map(list.map((p) => [p.id, p]));
    this.libraryVersion++;
    this.log.info(
      { palettes: list.length, builtin: list.filter((p) => p.builtin).length, version: this.libraryVersion },
      'palettes loaded',
    );
    this.emit('change', this.palettes);
  }

  /** `.json` and `.gpl` names in a folder, sorted; a missing operator folder is noted once until it appears. */
  private async listDir(dir: string, builtin: boolean, warn: (f: Record<string, unknown>, m: string) => void): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(dir);
      this.missingDirs.delete(dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && !builtin) {
        if (!this.missingDirs.has(dir)) this.log.info({ dir }, 'palette folder does not exist (yet); it is picked up when it appears');
        this.missingDirs.add(dir);
      } else {
        warn({ dir, reason: (err as Error).message }, 'palette folder unreadable');
      }
      return [];
    }
    const files = names.filter((n) => !n.startsWith('.') && extname(n).toLowerCase() in PARSERS).sort();
    if (files.length > MAX_FILES_PER_DIR) {
      warn({ dir, files: files.length, limit: MAX_FILES_PER_DIR }, 'palette folder has too many files; the rest are ignored');
    }
    return files.slice(0, MAX_FILES_PER_DIR);
  }
}

function digestOf(p: ParsedPalette): string {
  return createHash('sha256')
    .update(p.name + p.colors.join(','))
    .digest('hex')
    .slice(0, 12);
}

async function readPalette(file: string, warn: (f: Record<string, unknown>, m: string) => void): Promise<ParsedPalette | null> {
  const skipped = 'palette file skipped';
  try {
    // Regular files only, checked on the open handle: a pipe named like a palette would hold a file thread for good.
    const buf = await readRegularFile(file, MAX_PALETTE_BYTES);
    return PARSERS[extname(file).toLowerCase()]!(buf.toString('utf8'), file);
  } catch (err) {
    if (err instanceof PaletteParseError) warn({ file, line: err.line, reason: err.reason }, skipped);
    else if (err instanceof RegularFileError && err.code === 'too-large')
      warn({ file, reason: `file is ${err.size} bytes; the limit is ${MAX_PALETTE_BYTES} (64 KiB)` }, skipped);
    else if (err instanceof RegularFileError) warn({ file, reason: err.message }, skipped);
    else if ((err as NodeJS.ErrnoException).code !== 'ENOENT') warn({ file, reason: (err as Error).message }, skipped);
    return null;
  }
}
