// Watches a set of folders for changes (debounced), coping with folders that do not exist yet or disappear:
// those are polled every 2 s until they (re)appear. Used by the effect/generator/preset catalog.
import { watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';

const POLL_MS = 2000;

export class DirWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly missing = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private poller: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly dirs: readonly string[],
    private readonly onChange: () => void,
    private readonly debounceMs = 300,
  ) {}

  async start(): Promise<void> {
    for (const dir of this.dirs) await this.attach(dir);
    this.poller = setInterval(() => void this.poll(), POLL_MS);
    this.poller.unref();
  }

  close(): void {
    this.closed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    if (this.timer) clearTimeout(this.timer);
    if (this.poller) clearInterval(this.poller);
  }

  private async attach(dir: string): Promise<void> {
    if (this.closed) return;
    try {
      if (!(await stat(dir)).isDirectory()) throw new Error('not a folder');
      const w = watch(dir, { persistent: false }, () => this.changed());
      w.on('error', () => this.detach(dir));
      this.watchers.set(dir, w);
      this.missing.delete(dir);
    } catch {
      this.missing.add(dir);
    }
  }

  private detach(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
    this.missing.add(dir);
    this.changed();
  }

  private async poll(): Promise<void> {
    for (const dir of [...this.missing]) {
      await this.attach(dir);
      if (this.watchers.has(dir)) this.changed();
    }
    // A watched folder that was removed (and perhaps re-created) needs a fresh watcher.
    for (const dir of [...this.watchers.keys()]) {
      try {
        await stat(dir);
      } catch {
        this.detach(dir);
      }
    }
  }

  private changed(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.onChange();
    }, this.debounceMs);
  }
}
