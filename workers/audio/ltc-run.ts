// The LTC reader of the audio worker: its own ffmpeg on the configured input, one channel of it, decoded word by
// word (ltc-decoder.ts); each hop's frames go to the main thread in one message, stamped on the shared clock.
import type { AudioInit, AudioToMain, LtcInput } from '../../src/shared/protocol/audio.js';
import type { LogFn } from '../../src/shared/protocol/common.js';
import { clockNow } from '../../src/shared/tempo-block.js';
import { audioArgs, AudioInputRun } from './input.js';
import { LtcDecoder } from './ltc-decoder.js';
import { oneChannel } from './stream-args.js';

export class LtcRun {
  private run: AudioInputRun | null = null;
  private key = '';
  private decoder: LtcDecoder;

  constructor(
    private readonly init: AudioInit,
    private readonly wrapper: Promise<string[]>,
    private readonly post: (msg: AudioToMain) => void,
    private readonly log: LogFn,
  ) {
    this.decoder = new LtcDecoder(init.sampleRate);
  }

  /** Starts (or moves) the reader; the same input and channel again keeps the running one. */
  async select(input: LtcInput | null, channel: number): Promise<void> {
    const key = input ? JSON.stringify([input, channel]) : '';
    if (key === this.key) return;
    this.key = key;
    const old = this.run;
    this.run = null;
    await old?.close();
    this.decoder = new LtcDecoder(this.init.sampleRate);
    if (!input) return;
    const decoder = this.decoder;
    const mine: AudioInputRun = new AudioInputRun(
      input,
      this.init,
      await this.wrapper,
      {
        onHop: (samples) => {
          const frames = decoder.push(samples, clockNow());
          if (frames.length === 0) return;
          this.post({
            t: 'ltc',
            rejected: decoder.counts.rejected,
            frames: frames.map((f) => ({ ...f.tc, rate: f.rate, reverse: f.reverse, atMs: f.atMs })),
          });
        },
        onSilent: () => undefined,
        onState: (state, message) => {
          if (this.run === mine)
            this.post({ t: 'ltc', frames: [], rejected: decoder.counts.rejected, state, ...(message ? { message } : {}) });
        },
        onLog: this.log,
      },
      (i, rate) => oneChannel(audioArgs(i, rate), channel),
    );
    this.run = mine;
    mine.start();
  }

  killSync(): void {
    this.run?.killSync();
  }
}
