// The persisted show state (state.json): chain, current source, palette, blackout, dimmer; written atomically.
import { readFile, mkdir, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { atomicWriteFile, removeStaleTemps } from '../util/atomic-write.js';
import type { Logger } from '../log.js';

export interface ChainEntry {
  type: string;
  enabled: boolean;
  presetId: string;
  inputs: Record<string, unknown>;
}

export interface ShowState {
  version: 1;
  chain: ChainEntry[];
  currentSource: { kind: string; id: string } | null;
  paletteId: string | null;
  blackout: boolean;
  dimmer: number;
}

export const EMPTY_STATE: ShowState = { version: 1, chain: [], currentSource: null, paletteId: null, blackout: false, dimmer: 1 };

const WRITE_DELAY_MS = 50;
/** A failed write (disk full, read-only remount) is retried on its own, backing off up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5000;

export class StateStore {
  private state: ShowState = structuredClone(EMPTY_STATE);
  private dirty = false;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private retryMs = 0;
  private failures = 0;
  private lastError = '';

  constructor(
    private readonly file: string,
    private readonly log: Logger,
  ) {}

  /** Reads state.json; a missing file starts empty, an unreadable one is logged and set aside (never overwritten blindly). */
  async load(): Promise<ShowState> {
    const stale = await removeStaleTemps(this.file);
    if (stale > 0) this.log.info({ file: this.file, removed: stale }, 'removed temp files of an interrupted state write');
    try {
      const parsed = JSON.parse(await readFile(this.file, 'utf8')) as Partial<ShowState>;
      this.state = { ...structuredClone(EMPTY_STATE), ...sanitize(parsed) };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') {
        // The first write (the restored chain is published at once) would replace a corrupt file: keep it for the operator.
        const aside = err instanceof SyntaxError ? `${this.file}.unreadable-${Date.now()}` : null;
        const keptAs = aside && (await rename(this.file, aside).then(() => aside, () => null));
        this.log.error({ file: this.file, err: (err as Error).message, keptAs }, 'state file unreadable; starting from an empty state');
      }
    }
    return this.get();
  }

  /** A private copy, safe to keep or change. */
  get(): ShowState {
    return structuredClone(this.state);
  }

  /** The live state for hot read paths; callers must not change it (use update). */
  peek(): Readonly<ShowState> {
    return this.state;
  }

  /** Applies a change and schedules one coalesced atomic write. */
  update(change: (s: ShowState) => void): void {
    change(this.state);
    this.dirty = true;
    if (!this.timer) this.timer = setTimeout(() => void this.flush(), WRITE_DELAY_MS);
  }

  /** Writes pending changes now (used on shutdown). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.dirty) return this.writing;
    this.dirty = false;
    const snapshot = JSON.stringify(this.state, null, 2);
    this.writing = this.writing.then(async () => {
      try {
        await mkdir(dirname(this.file), { recursive: true });
        await atomicWriteFile(this.file, snapshot);
      } catch (err) {
        this.dirty = true; // keep the change for the retry below
        this.failures++;
        const message = (err as Error).message;
        // One line per failure streak (and per new cause), not one per retry.
        if (this.failures === 1 || message !== this.lastError) {
          this.log.error({ file: this.file, err: message }, 'state write failed; previous state file kept; retrying');
        }
        this.lastError = message;
        this.retryMs = Math.min(this.retryMs === 0 ? RETRY_FIRST_MS : this.retryMs * 2, RETRY_MAX_MS);
        if (!this.timer) this.timer = setTimeout(() => void this.flush(), this.retryMs);
        return;
      }
      if (this.failures > 0) this.log.info({ file: this.file, failedAttempts: this.failures }, 'state written again');
      this.failures = 0;
      this.retryMs = 0;
      this.lastError = '';
    });
    return this.writing;
  }
}

function sanitize(p: Partial<ShowState>): Partial<ShowState> {
  const out: Partial<ShowState> = {};
  if (Array.isArray(p.chain)) out.chain = p.chain.filter((e) => e && typeof e.type === 'string');
  if (p.currentSource && typeof p.currentSource.id === 'string') out.currentSource = p.currentSource;
  if (typeof p.paletteId === 'string') out.paletteId = p.paletteId;
  if (typeof p.blackout === 'boolean') out.blackout = p.blackout;
  if (typeof p.dimmer === 'number' && p.dimmer >= 0 && p.dimmer <= 1) out.dimmer = p.dimmer;
  return out;
}
