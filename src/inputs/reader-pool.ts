// One ingest reader (one ffmpeg, one frame ring) per source key, shared by every role that needs its frames: the
// program (the current source), a pending activation, and thumbnail previews. An input that takes one connection
// (a listening URL, a capture device) can then be previewed and put on the output at once, and a change of roles
// never drops its connection. Rings are sized for the program, so a preview needs no reader of its own; the
// reader closes when its last role is released. The audio side is one more role: an audio input that reads the
// same URL as a live input shares that input's reader (its audio track decoded into a PCM ring) instead of
// opening the URL a second time, which a listening input could not allow.
import { EventEmitter } from 'node:events';
import type { IngestClient } from '../workers/ingest-client.js';
import type { IngestInput, IngestState } from '../shared/protocol/ingest.js';
import { FrameRingReader } from '../shared/frame-ring.js';
import { LIMITS } from '../limits.js';
import type { Logger } from '../log.js';

/**
 * `cued`: the mixer's preview bus (a cued input stays warm); `preview`: thumbnails; `audio`: an audio input; `warm`:
 * opened ahead of a likely cue (POST /sources/warm), held for a short while.
 */
export type BaseRole = 'program' | 'activating' | 'cued' | 'preview' | 'audio' | 'warm';
/** A layer above the first holds its readers as `<role>@<layer id>`, so two layers showing one input never release each other's hold. */
export type ReaderRole = BaseRole | `${BaseRole}@${number}`;

/** Which readers decode their audio track: live inputs of these URLs, and media files when `files`. */
export interface AudioTracks {
  urls: ReadonlySet<string>;
  files: boolean;
}

const NO_AUDIO_TRACKS: AudioTracks = { urls: new Set(), files: false };

/** The key of a live input's reader; the source manager's key of the same input (`<sourceKind>:<id>`). */
export const liveReaderKey = (id: string): string => `live:${id}`;

interface Reader {
  input: IngestInput;
  live: boolean;
  roles: Set<ReaderRole>;
  ring: SharedArrayBuffer | null;
  header: FrameRingReader | null;
  /** The open in progress or done; null when it failed (the next acquire opens again). */
  opening: Promise<SharedArrayBuffer> | null;
}

export interface ReaderPool {
  /** A reader's open finished (its rings, the PCM ring included, can be read now). */
  on(event: 'open', listener: (key: string) => void): this;
  /** A reader held only for `warm` was taken by another role (a cue, a select). */
  on(event: 'claim', listener: (key: string) => void): this;
  off(event: 'open', listener: (key: string) => void): this;
}

export class ReaderPool extends EventEmitter {
  private readonly readers = new Map<string, Reader>();

  constructor(
    private readonly ingest: IngestClient,
    private readonly log: Logger,
    private readonly tracks: AudioTracks = NO_AUDIO_TRACKS,
  ) {
    super();
  }

  /** The input as this pool's reader reads it: with its audio track where one is wanted. */
  private withAudio(input: IngestInput): IngestInput {
    if (input.kind === 'url' && this.tracks.urls.has(input.url)) return { ...input, audio: true };
    if (input.kind === 'file' && this.tracks.files && !input.still) return { ...input, audio: true };
    return input;
  }

  /**
   * Adds `role` to the reader of `key`, opening it if nobody holds it; resolves with its ring. A key names one
   * input for the life of the process (providers are built once; a device id keeps its device path), so a
   * holder joining an open reader never changes what it reads.
   */
  acquire(key: string, input: IngestInput, live: boolean, role: ReaderRole): Promise<SharedArrayBuffer> {
    let r = this.readers.get(key);
    if (!r) {
      r = { input: this.withAudio(input), live, roles: new Set(), ring: null, header: null, opening: null };
      this.readers.set(key, r);
    }
    const claimed = role !== 'warm' && r.roles.size === 1 && r.roles.has('warm');
    r.roles.add(role);
    r.opening ??= this.open(key, r);
    if (claimed) this.emit('claim', key);
    return r.opening;
  }

  /** How many roles hold the key's reader (0: none is open). */
  holders(key: string): number {
    return this.readers.get(key)?.roles.size ?? 0;
  }

  /** Drops `role` from the reader of `key`; the last role closes it (its ffmpeg stops). */
  release(key: string, role: ReaderRole): void {
    const r = this.readers.get(key);
    if (!r?.roles.delete(role) || r.roles.size > 0) return;
    this.readers.delete(key);
    this.ingest.close(key);
  }

  has(key: string, role: ReaderRole): boolean {
    return this.readers.get(key)?.roles.has(role) ?? false;
  }

  /** The reader's ring once it is open; null otherwise. */
  ring(key: string): SharedArrayBuffer | null {
    return this.readers.get(key)?.ring ?? null;
  }

  /** The PCM ring of the reader's audio track once it is open; null when it has none or is not open. */
  pcm(key: string): SharedArrayBuffer | null {
    return this.readers.get(key)?.ring ? this.ingest.pcm(key) : null;
  }

  /** Frames the reader's ring has received so far (0 when it is not open). */
  frameCount(key: string): number {
    return this.readers.get(key)?.header?.frameCount() ?? 0;
  }

  /** Readers held for `role` and nothing else. */
  countOnly(role: ReaderRole): number {
    let n = 0;
    for (const r of this.readers.values()) if (r.roles.size === 1 && r.roles.has(role)) n++;
    return n;
  }

  /**
   * Whether the reader is delivering: its process reports frames, it is not down, its newest frame is from the
   * current run, and (live inputs) that frame is within the live frame freshness (docs/api.md, "Limits").
   */
  delivering(key: string): boolean {
    const r = this.readers.get(key);
    if (!r?.header || this.state(key) !== 'live' || r.header.down() || !r.header.currentRun()) return false;
    return !r.live || Date.now() - r.header.lastFrameTimeMs() <= LIMITS.thumbnails.liveFrameMaxAgeMs;
  }

  state(key: string): IngestState | undefined {
    return this.ingest.state(key);
  }

  /** Starts the reader's process again now (its backoff reset), keeping its ring and its holders. */
  restart(key: string): void {
    if (this.readers.has(key)) this.ingest.restart(key);
  }

  private open(key: string, r: Reader): Promise<SharedArrayBuffer> {
    const p = this.ingest.open(key, r.input, { live: r.live });
    p.then(
      (ring) => {
        if (this.readers.get(key) !== r || r.opening !== p) return;
        r.ring = ring;
        r.header = new FrameRingReader(ring);
        this.emit('open', key);
      },
      (err: Error) => {
        // The holders keep their roles; the next acquire opens again.
        if (this.readers.get(key) === r && r.opening === p) r.opening = null;
        this.log.warn({ source: key, err: err.message }, 'ingest reader could not open');
      },
    );
    return p;
  }
}
