// Watches the config file and reloads it on change, so server settings apply without a restart.
import { watchFile, unwatchFile, type Stats } from 'node:fs';
import { log } from '../log.js';
import { ConfigError } from './config-error.js';
import type { LoadedConfig } from './load.js';
import type { Config } from './schema.js';

export type WatchResult = { ok: true; loaded: LoadedConfig } | { ok: false; error: ConfigError };

export interface WatchOptions {
  /** Stat polling interval; default 300 ms. */
  intervalMs?: number;
  /** Quiet time after the last change before reloading; default 150 ms. */
  debounceMs?: number;
}

function toConfigError(err: unknown, file: string): ConfigError {
  if (err instanceof ConfigError) return err;
  const detail = `reload failed: ${err instanceof Error ? err.message : String(err)}`;
  return new ConfigError({ source: file, key: '', file, detail });
}

// Stat polling (fs.watchFile) rather than fs.watch: inotify follows the inode, so an editor that saves by
// writing a temp file and renaming it over the config silently detaches a file watch; a directory watch
// misses events on network and container bind mounts and would need a poll fallback anyway. Polling the
// path sees in-place edits, rename-replaces (new inode) and delete/re-create alike, and one stat every
// 300 ms runs on libuv's thread pool, never on the main thread.
export function watchConfig(
  file: string,
  onChange: (result: WatchResult) => void,
  reload: () => Promise<LoadedConfig>,
  opts: WatchOptions = {},
): { close(): void } {
  const intervalMs = opts.intervalMs ?? 300;
  const debounceMs = opts.debounceMs ?? 150;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;

  // One reload at a time, and a change seen during a reload triggers one more, so the last report
  // always reflects the file as it is now and results never arrive out of order.
  const run = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        let result: WatchResult;
        try {
          result = { ok: true, loaded: await reload() };
        } catch (err) {
          result = { ok: false, error: toConfigError(err, file) };
        }
        if (closed) return;
        try {
          onChange(result);
        } catch (err) {
          log.error({ err, file }, 'config change handler failed');
        }
      } while (again && !closed);
    } finally {
      running = false;
    }
  };

  // libuv compares inode, size, mtime and ctime (not atime), so every call here is a real change.
  const listener = (_curr: Stats, _prev: Stats): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void run();
    }, debounceMs);
  };

  try {
    watchFile(file, { persistent: true, interval: intervalMs }, listener);
  } catch (err) {
    // Only an invalid path argument gets here; report it like any other bad config instead of throwing.
    queueMicrotask(() => {
      if (!closed) onChange({ ok: false, error: toConfigError(err, file) });
    });
  }

  return {
    close(): void {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      unwatchFile(file, listener);
    },
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function equal(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => equal(v, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
  }
  return false;
}

/**
 * Dotted keys whose values differ. Objects are descended into; arrays are compared whole and reported by
 * their own key (`live.test`), since a list change is applied as a unit.
 */
export function diffConfig(a: Config, b: Config): string[] {
  const changed: string[] = [];
  const walk = (x: unknown, y: unknown, path: string): void => {
    if (isRecord(x) && isRecord(y)) {
      for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) walk(x[key], y[key], path ? `${path}.${key}` : key);
    } else if (!equal(x, y)) {
      changed.push(path);
    }
  };
  walk(a, b, '');
  return changed;
}
