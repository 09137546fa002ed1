// The persisted show state (state.json): chain, current source, palette, blackout, dimmer; written atomically.
import { readFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { atomicWriteFile } from '../util/atomic-write.js';
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

export class StateStore {
  private state: ShowState = structuredClone(EMPTY_STATE);
  private dirty = false;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly log: Logger,
  ) {}

  /** Reads state.json; a missing file starts empty, an unreadable one is logged and set aside (never overwritten blindly). */
  async load(): Promise<ShowState> {
    try {
      const parsed = JSON.parse(await readFile(this.file, 'utf8')) as Partial<ShowState>;
      this.state = { ...structuredClone(EMPTY_STATE), ...sanitize(parsed) };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') this.log.error({ file: this.file, err: (err as Error).message }, 'state file unreadable; starting from an empty state');
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
        this.dirty = true; // keep the change; the next flush retries
        this.log.error({ file: this.file, err: (err as Error).message }, 'state write failed; previous state file kept');
      }
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
