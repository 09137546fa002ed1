// Readers opened ahead of a likely cue: the page asks when the pointer rests on a Browse row or the row gets the
// keyboard focus, so a double-click finds ffmpeg already running and its first frame in the ring. A warm reader
// is held for a short while (renewed by each ask), at most a few at once (the oldest goes first). A clip opens
// paused at its start, so the take shows it from its first frame; it plays once a cue or select takes the reader.
import type { IngestClient } from '../workers/ingest-client.js';
import type { ReaderPool } from '../inputs/reader-pool.js';
import { INGEST_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';
import { keyOf, readerOf, type SourceEntry } from './source-manager.js';

const { warmHoldMs, warmMax } = INGEST_LIMITS;

/** `opening`: its process is starting; `warm`: it delivers frames; `not-needed`: drawn by the render worker (generators). */
export type WarmState = 'opening' | 'warm' | 'not-needed';

export class WarmAhead {
  private readonly held = new Map<string, NodeJS.Timeout>();
  /** Clips this opened paused, until something else takes their reader. */
  private readonly paused = new Set<string>();

  constructor(
    private readonly readers: ReaderPool,
    private readonly ingest: Pick<IngestClient, 'clipStart' | 'clipCommand'>,
    private readonly log: Logger,
  ) {
    // Wraps the transport's start (set before any reader opens): a clip opened for warming starts paused.
    const start = ingest.clipStart;
    ingest.clipStart = (key, input) => {
      const s = start?.(key, input);
      return s && this.paused.has(key) ? { ...s, paused: true } : s;
    };
    readers.on('claim', (key) => this.claimed(key));
  }

  /** Opens (or keeps open) the entry's reader for the hold time; says how far it is. */
  warm(entry: SourceEntry): WarmState {
    const r = readerOf(entry);
    if (!r) return 'not-needed';
    const key = keyOf(entry);
    const was = this.held.get(key);
    if (was) clearTimeout(was);
    else {
      if (this.held.size >= warmMax) this.drop(this.held.keys().next().value as string);
      if (this.readers.holders(key) === 0 && r.input.kind === 'file' && !r.input.still) this.paused.add(key);
      this.readers.acquire(key, r.input, r.live, 'warm').catch(() => undefined);
    }
    // Re-inserted: the map's order is the order of the last asks, so the oldest is dropped first.
    this.held.delete(key);
    const timer = setTimeout(() => this.drop(key), warmHoldMs);
    timer.unref();
    this.held.set(key, timer);
    return this.readers.delivering(key) ? 'warm' : 'opening';
  }

  stop(): void {
    for (const key of [...this.held.keys()]) this.drop(key);
  }

  private drop(key: string): void {
    const t = this.held.get(key);
    if (t) clearTimeout(t);
    this.held.delete(key);
    this.paused.delete(key);
    this.readers.release(key, 'warm');
  }

  /** A cue or select took a clip this opened paused: it plays from its first frame. */
  private claimed(key: string): void {
    if (!this.paused.delete(key)) return;
    this.ingest.clipCommand(key, { op: 'play' }, Date.now() + warmHoldMs).catch((err: Error) => {
      this.log.warn({ source: key, err: err.message }, 'a warmed clip did not start playing');
    });
  }
}
