// An audio input whose samples an ingest reader decodes into a PCM ring (src/shared/pcm-ring.ts): a stream shared
// with a live video input, or whichever source is on the program. Read hop by hop on a short timer; the levels
// read zero whenever the ring has nothing (no track, no reader, a reader that stalled).
import type { AudioInit, AudioInput } from '../../src/shared/protocol/audio.js';
import { isPcmRing, PcmRingReader } from '../../src/shared/pcm-ring.js';
import type { InputHooks } from './input.js';

export type RingAudioInput = Extract<AudioInput, { kind: 'ring' }>;

/** About one hop: samples are analysed soon after they arrive. */
const TICK_MS = 10;
/** Hops analysed per tick at most (bounded work however far the reader fell behind). */
const MAX_HOPS_PER_TICK = 32;
/** A backlog longer than this many hops is skipped: the analysis follows what plays now, not what played. */
const MAX_BACKLOG_HOPS = 24;

export class RingInputRun {
  private reader: PcmRingReader | null = null;
  private tick: NodeJS.Timeout | null = null;
  private readonly hop: Float32Array;
  private lastDataAt = 0;
  /** The levels were zeroed and nothing arrived since. */
  private silent = true;
  private reported = '';
  /** A ring input never restarts anything itself: the ingest reader behind it is supervised there. */
  readonly restarts = 0;

  constructor(
    public input: RingAudioInput,
    private readonly init: AudioInit,
    private readonly hooks: InputHooks,
  ) {
    this.hop = new Float32Array(init.hop);
    this.follow(input);
  }

  /** Follows another ring (a take changed the program, a shared reader opened again) without a restart. */
  follow(input: RingAudioInput): void {
    this.input = input;
    const pcm = input.pcm;
    if (pcm === this.reader?.sab) return;
    this.reader = isPcmRing(pcm) ? new PcmRingReader(pcm) : null;
    this.lastDataAt = Date.now();
    this.quiet();
  }

  start(): void {
    if (this.tick) return;
    this.report('starting');
    this.tick = setInterval(() => this.onTick(), TICK_MS);
    this.onTick();
  }

  async close(): Promise<void> {
    if (this.tick) clearInterval(this.tick);
    this.tick = null;
  }

  killSync(): void {
    void this.close();
  }

  private onTick(): void {
    const now = Date.now();
    const reader = this.reader;
    let hops = 0;
    if (reader) {
      reader.skipTo(this.hop.length * MAX_BACKLOG_HOPS);
      while (hops < MAX_HOPS_PER_TICK && reader.read(this.hop)) {
        hops++;
        this.hooks.onHop(this.hop);
      }
    }
    if (hops > 0) {
      this.lastDataAt = now;
      this.silent = false;
      this.report('running');
      return;
    }
    // The program's source has no track (or none is on it): silence at once. A shared stream may just be slow.
    const noTrack = !reader?.hasAudio();
    if (this.input.follows === 'program' && noTrack) {
      this.quiet();
      this.report('running', 'the program source has no audio track');
    } else if (now - this.lastDataAt > this.init.stallMs) {
      this.quiet();
      this.report('retrying', `no samples from the stream's reader for ${this.init.stallMs} ms`);
    }
  }

  private quiet(): void {
    if (this.silent) return;
    this.silent = true;
    this.hooks.onSilent();
  }

  private report(state: 'starting' | 'running' | 'retrying', message?: string): void {
    const said = `${state}\n${message ?? ''}`;
    if (said === this.reported) return;
    this.reported = said;
    this.hooks.onState(state, message);
  }
}
