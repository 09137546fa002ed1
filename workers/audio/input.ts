// One supervised ffmpeg decoding an audio input to mono float PCM, cut into hops for the analyser; retried with
// backoff while it is selected, with the levels at zero whenever it delivers nothing.
import type { AudioInit, AudioInput, AudioState } from '../../src/shared/protocol/audio.js';
import type { LogFn } from '../../src/shared/protocol/common.js';
import { Backoff, spawnFfmpeg, type Supervised } from '../../src/shared/ffmpeg-supervisor.js';
import { pcmArgs, redactStreamLine, streamArgs } from './stream-args.js';

/** The inputs this worker runs its own ffmpeg for (a `ring` input reads an ingest reader's samples). */
export type FfmpegAudioInput = Exclude<AudioInput, { kind: 'ring' }>;

export interface InputHooks {
  /** One hop of samples (the array is reused: copy what must outlive the call). */
  onHop(samples: Float32Array): void;
  /** The input delivers nothing now (exited, stalled): its levels read zero. */
  onSilent(): void;
  onState(state: AudioState, message?: string, pid?: number): void;
  onLog: LogFn;
}

const TICK_MS = 250;
/** stderr lines kept to explain an exit. */
const KEEP_LINES = 4;
const MAX_LINE_CHARS = 300;

/**
 * How ffmpeg opens a lavfi or capture input: a lavfi source paced in real time; an ALSA PCM; a PulseAudio source
 * asked for small fragments, so the server does not batch seconds of audio before handing them over.
 */
function inputArgs(input: Exclude<FfmpegAudioInput, { kind: 'stream' }>, sampleRate: number): string[] {
  switch (input.kind) {
    case 'alsa':
      return ['-f', 'alsa', '-sample_rate', String(sampleRate), '-i', input.device];
    case 'pulse':
      return ['-f', 'pulse', '-sample_rate', String(sampleRate), '-channels', '1', '-fragment_size', '2048', '-i', input.device];
    default:
      return ['-re', '-f', 'lavfi', '-i', input.source];
  }
}

/** The ffmpeg arguments: the input (a stream through its own arguments) decoded to mono float at the analysis rate on stdout. */
export function audioArgs(input: FfmpegAudioInput, sampleRate: number): string[] {
  return input.kind === 'stream' ? streamArgs(input.url, sampleRate, input.protocols) : pcmArgs(inputArgs(input, sampleRate), sampleRate);
}

export class AudioInputRun {
  private proc: Supervised | null = null;
  private closing = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private tick: NodeJS.Timeout | null = null;
  private readonly backoff: Backoff;
  /** Bytes of the hop being filled; a chunk boundary may fall inside a sample. */
  private readonly pending: Buffer;
  private filled = 0;
  private readonly hop: Float32Array;
  private lastDataAt = 0;
  private startedAt = 0;
  private delivered = false;
  private lines: string[] = [];
  /** Processes started after the first (each retry of a failed or stalled one). */
  restarts = -1;

  constructor(
    readonly input: FfmpegAudioInput,
    private readonly init: AudioInit,
    private readonly wrapper: string[],
    private readonly hooks: InputHooks,
    /** The ffmpeg arguments (the LTC reader picks one channel instead of the mono mix). */
    private readonly argsOf: (input: FfmpegAudioInput, sampleRate: number) => string[] = audioArgs,
  ) {
    this.backoff = new Backoff(init.retry);
    this.pending = Buffer.alloc(init.hop * 4);
    this.hop = new Float32Array(init.hop);
  }

  start(): void {
    if (this.closing || this.proc) return;
    this.filled = 0;
    this.delivered = false;
    this.lines = [];
    this.restarts++;
    const proc = spawnFfmpeg(
      {
        ffmpeg: this.init.ffmpeg,
        wrapper: this.wrapper,
        args: this.argsOf(this.input, this.init.sampleRate),
        stdin: 'ignore',
        stdout: 'pipe',
        stop: { ask: 'term', againMs: 500, killMs: 2000 },
      },
      {
        onLine: (line) => {
          if (line.trim() === '') return;
          const said = this.input.kind === 'stream' ? redactStreamLine(this.input.url, line) : line;
          this.lines.push(said.slice(0, MAX_LINE_CHARS));
          if (this.lines.length > KEEP_LINES) this.lines.shift();
        },
        onExit: (code, signal, spawnError) => this.onExit(proc, code, signal, spawnError),
      },
    );
    this.proc = proc;
    this.startedAt = Date.now();
    this.lastDataAt = this.startedAt;
    proc.child.stdout!.on('data', (chunk: Buffer) => this.onData(chunk));
    this.tick = setInterval(() => this.onTick(), TICK_MS);
    this.hooks.onState('starting', undefined, proc.child.pid);
  }

  /** Ends the process and any retry; resolves once it is reaped. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.tick) clearInterval(this.tick);
    this.tick = null;
    await this.proc?.stop();
  }

  /** No waiting: the thread is going away. */
  killSync(): void {
    this.closing = true;
    this.proc?.kill();
  }

  /** Copies stdout into hop-sized pieces; each complete hop goes to the analyser at once. */
  private onData(chunk: Buffer): void {
    if (this.closing) return;
    this.lastDataAt = Date.now();
    let offset = 0;
    while (offset < chunk.length) {
      const n = Math.min(this.pending.length - this.filled, chunk.length - offset);
      chunk.copy(this.pending, this.filled, offset, offset + n);
      this.filled += n;
      offset += n;
      if (this.filled === this.pending.length) {
        for (let i = 0; i < this.hop.length; i++) this.hop[i] = this.pending.readFloatLE(i * 4);
        this.filled = 0;
        if (!this.delivered) {
          this.delivered = true;
          this.hooks.onState('running', undefined, this.proc?.child.pid);
        }
        this.hooks.onHop(this.hop);
      }
    }
  }

  private onTick(): void {
    const now = Date.now();
    if (this.delivered) this.backoff.resetIfStable(this.startedAt, now);
    if (this.proc && now - this.lastDataAt > this.init.stallMs) {
      this.lines.push(`no samples for ${this.init.stallMs} ms`);
      this.hooks.onSilent();
      void this.proc.stop();
    }
  }

  private onExit(proc: Supervised, code: number | null, signal: NodeJS.Signals | null, spawnError?: string): void {
    if (this.proc !== proc) return;
    this.proc = null;
    if (this.tick) clearInterval(this.tick);
    this.tick = null;
    this.hooks.onSilent();
    const fields = { input: this.input.id, pid: proc.child.pid, code, signal };
    if (this.closing) {
      this.hooks.onLog('info', 'audio ffmpeg stopped', fields);
      return;
    }
    const message = spawnError ?? (this.lines.length > 0 ? this.lines.join('; ') : `ffmpeg exited with ${signal ?? `code ${code}`}`);
    const delay = this.backoff.take();
    this.hooks.onLog('warn', 'audio ffmpeg exited; retrying', { ...fields, reason: message, retryInMs: delay });
    this.hooks.onState('retrying', message);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.start();
    }, delay);
  }
}
