// What the audio worker opens for a configured audio input. A `stream` whose URL is a live input's shares that
// input's reader (one ffmpeg, one connection: the `audio` role in the reader pool) and reads its PCM ring; any
// other URL the worker opens itself. `program` reads the PCM ring of whichever reader is on the program, and
// follows takes and reopened readers. Test sources and capture devices (`alsa`, `pulse`) the worker opens itself.
import type { AudioInputConfig } from '../config/audio.js';
import { liveReaderKey, type ReaderPool } from '../inputs/reader-pool.js';
import type { Logger } from '../log.js';
import type { AudioInput } from '../shared/protocol/audio.js';
import { keyOf, readerOf, type SourceEntry } from '../sources/source-manager.js';

/** The live stream inputs (config live.streams) whose readers an audio input may share. */
export interface LiveStream {
  id: string;
  url: string;
}

export interface ProgramSource {
  currentEntry(): SourceEntry | null;
  on(event: 'change', listener: () => void): unknown;
}

export interface AudioWireDeps {
  readers: ReaderPool;
  program: ProgramSource;
  streams: readonly LiveStream[];
  log: Logger;
}

export class AudioWire {
  /** The reader key held in the `audio` role, if any. */
  private held: string | null = null;
  private selected: AudioInputConfig | null = null;
  private sent: SharedArrayBuffer | null = null;
  private follower: ((input: AudioInput) => void) | null = null;

  constructor(private readonly d: AudioWireDeps) {
    const recheck = (): void => this.recheck();
    d.program.on('change', recheck);
    d.readers.on('open', recheck);
  }

  /** `cb` gets the input again whenever the ring behind the selection changes (a take, a reopened reader). */
  onFollow(cb: (input: AudioInput) => void): void {
    this.follower = cb;
  }

  /** The worker's input for `input` (null: none); holds a shared reader for a stream, releasing the last one. */
  async wireOf(input: AudioInputConfig | null): Promise<AudioInput | null> {
    const key = input?.kind === 'stream' ? this.sharedKey(input.url) : null;
    if (this.held !== null && this.held !== key) this.d.readers.release(this.held, 'audio');
    this.selected = input;
    if (!input) {
      this.held = null;
      return null;
    }
    if (input.kind === 'test') {
      this.held = null;
      return { id: input.id, kind: 'test', source: input.source };
    }
    if (input.kind === 'program') {
      this.held = null;
      return this.ringInput(input, this.programPcm());
    }
    if (input.kind !== 'stream') {
      // A capture device (alsa, pulse).
      this.held = null;
      return { id: input.id, kind: input.kind, device: input.device };
    }
    if (key === null) {
      this.held = null;
      return { id: input.id, kind: 'stream', url: input.url };
    }
    this.held = key;
    try {
      await this.d.readers.acquire(key, { kind: 'url', url: input.url }, true, 'audio');
    } catch (err) {
      // The reader keeps its role and opens again with the next acquire; the levels read 0 meanwhile.
      this.d.log.warn({ input: input.id, err: (err as Error).message }, 'the shared stream reader could not open');
    }
    return this.ringInput(input, this.d.readers.pcm(key));
  }

  private ringInput(input: AudioInputConfig, pcm: SharedArrayBuffer | null): AudioInput {
    this.sent = pcm;
    return { id: input.id, kind: 'ring', follows: input.kind === 'program' ? 'program' : 'stream', pcm };
  }

  private sharedKey(url: string): string | null {
    const live = this.d.streams.find((s) => s.url === url);
    return live ? liveReaderKey(live.id) : null;
  }

  private programPcm(): SharedArrayBuffer | null {
    const entry = this.d.program.currentEntry();
    return entry && readerOf(entry) ? this.d.readers.pcm(keyOf(entry)) : null;
  }

  private recheck(): void {
    const input = this.selected;
    if (!input || !this.follower) return;
    let pcm: SharedArrayBuffer | null;
    if (input.kind === 'program') pcm = this.programPcm();
    else if (input.kind === 'stream' && this.held !== null) pcm = this.d.readers.pcm(this.held);
    else return;
    if (pcm === this.sent) return;
    this.follower(this.ringInput(input, pcm));
  }
}
