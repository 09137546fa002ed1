// Main-thread handle of the audio worker: selects the input, keeps its state, reads the analysis block, sends tempo
// clock commands, and restarts the worker (re-selecting the input, with backoff) when it dies.
import { Worker } from 'node:worker_threads';
import { ApiError } from '../errors.js';
import type { Logger } from '../log.js';
import { AUDIO_LIMITS, TEMPO_LIMITS } from '../limits.js';
import { AudioBlockReader, AudioBlockWriter, createAudioBlock, type AudioReading } from '../shared/audio-block.js';
import type { AudioInit, AudioInput, AudioState, AudioToMain, LtcInput, MainToAudio, TempoCommand } from '../shared/protocol/audio.js';
import { answered, RpcCalls } from '../shared/rpc.js';
import { relayLog } from '../shared/protocol/common.js';
import { createTempoBlock, releaseTempoBlock, TempoBlockReader, type TempoClock } from '../shared/tempo-block.js';
import { stopWorker } from './stop-worker.js';

const SELECT_TIMEOUT_MS = 5000;
const STOP_TIMEOUT_MS = 5000;
const COMMAND_TIMEOUT_MS = 5000;

export interface AudioStatus {
  input: string | null;
  state: AudioState;
  message: string | null;
  /** ffmpeg restarts of this input since it was selected. */
  restarts: number;
}

export class AudioClient {
  private worker: Worker | null = null;
  private readonly block = createAudioBlock();
  private readonly reader = new AudioBlockReader(this.block);
  /** The tempo clock: the worker writes it, the render worker and the main thread read it. */
  private readonly tempo: SharedArrayBuffer;
  private readonly tempoReader: TempoBlockReader;
  /** Kept for a restarted worker: the gain and manual BPM last set. */
  private gain: number | null;
  private manualBpm: number | null;
  private readonly calls = new RpcCalls();
  private wanted: AudioInput | null = null;
  /** The LTC reader wanted (sent again to a restarted worker) and who hears its frames. */
  private ltcWanted: { input: LtcInput; channel: number; onMessage: (msg: Extract<AudioToMain, { t: 'ltc' }>) => void } | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  /** A worker that dies again and again is restarted less and less often, so a crash loop cannot eat a core. */
  private restartDelayMs: number = AUDIO_LIMITS.workerRestartFirstMs;
  private startedAt = 0;
  private stopped: Promise<void> | null = null;
  private pid: number | null = null;
  /** The worker thread's kernel thread id (for the cost bench), null until it reports it. */
  private tid: number | null = null;
  /** Replaced on every change, so a reader can compare it by identity. */
  status: AudioStatus = { input: null, state: 'stopped', message: null, restarts: 0 };
  private readonly onProcessExit = (): void => {
    if (this.pid !== null) {
      try {
        process.kill(this.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };

  constructor(
    private readonly opts: { ffmpeg: string; gain: number | null; tempo: TempoClock; manualBpm: number | null },
    private readonly log: Logger,
  ) {
    this.tempo = createTempoBlock(opts.tempo);
    this.tempoReader = new TempoBlockReader(this.tempo);
    this.gain = opts.gain;
    this.manualBpm = opts.manualBpm;
    process.on('exit', this.onProcessExit);
  }

  /** Starts the worker with no input: the tempo clock (tap, manual BPM) runs without audio. */
  start(): void {
    if (!this.stopped) this.ensureWorker();
  }

  /** The tempo clock as last written. */
  readTempo(): TempoClock {
    return this.tempoReader.read();
  }

  /** Applies a tempo command stamped at `at` (epoch ms); resolves once the block holds the result. */
  async tempoCommand(cmd: TempoCommand, at: number): Promise<void> {
    await this.command((env) => ({ t: 'tempo', ...env, cmd, at }));
    const c = this.readTempo();
    if (c.source === 'manual') this.manualBpm = c.bpm;
  }

  /** A fixed analysis gain, or null for the automatic one. */
  async setGain(gain: number | null): Promise<void> {
    this.gain = gain;
    await this.command((env) => ({ t: 'gain', ...env, gain }));
  }

  private async command(msg: (env: { id: number; deadline: number }) => MainToAudio): Promise<void> {
    if (this.stopped) throw new ApiError('AUDIO_BUSY', 'the audio worker is stopped (vjd is shutting down)');
    const worker = this.ensureWorker();
    const outcome = await this.calls.call<{ t: 'done' }>(Date.now() + COMMAND_TIMEOUT_MS, (env) => this.send(worker, msg(env)));
    // A worker that died or stalled with the command: a client mistake it is not, and the clock is as it was.
    if (!answered(outcome))
      throw new ApiError('AUDIO_BUSY', `the audio worker did not take the command (${outcome.message}); nothing changed; retry`);
  }

  /** The analysis block: other threads (the render worker) read it with AudioBlockReader. */
  get sharedBlock(): SharedArrayBuffer {
    return this.block;
  }

  /** The tempo clock block (src/shared/tempo-block.ts). */
  get tempoBlock(): SharedArrayBuffer {
    return this.tempo;
  }

  /** The latest analysis values (all zero while no input delivers). */
  read(): AudioReading {
    return this.reader.read();
  }

  /** Opens `input` (or closes the open one when null); resolves once the worker has switched. */
  async select(input: AudioInput | null): Promise<void> {
    if (this.stopped) return;
    this.wanted = input;
    if (input?.id !== this.status.input)
      this.setStatus({ input: input?.id ?? null, state: input ? 'starting' : 'stopped', message: null, restarts: 0 });
    if (!input && !this.worker) return;
    const worker = this.ensureWorker();
    await this.calls.call(Date.now() + SELECT_TIMEOUT_MS, (env) => this.send(worker, { t: 'select', ...env, input }));
  }

  /** Runs the worker's LTC reader on one channel of `input`; its messages go to `onMessage`. Null stops it. */
  ltc(want: { input: LtcInput; channel: number; onMessage: (msg: Extract<AudioToMain, { t: 'ltc' }>) => void } | null): void {
    if (this.stopped) return;
    this.ltcWanted = want;
    if (!want && !this.worker) return;
    this.send(this.ensureWorker(), { t: 'ltc', input: want?.input ?? null, channel: want?.channel ?? 0 });
  }

  stop(): Promise<void> {
    if (this.stopped) return this.stopped;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const worker = this.worker;
    this.stopped = (async () => {
      if (worker) await stopWorker(worker, this.calls, STOP_TIMEOUT_MS, (env) => this.send(worker, { t: 'stop', ...env }));
      this.onProcessExit();
      process.off('exit', this.onProcessExit);
      this.calls.failAll('audio client stopped');
    })();
    return this.stopped;
  }

  /** Ends the worker thread as a crash would (test hook): the supervision must bring the input back. */
  killWorker(): boolean {
    if (!this.worker || this.stopped) return false;
    void this.worker.terminate();
    return true;
  }

  /** The worker thread's id and its ffmpeg's pid, where their CPU time can be read in /proc (test hook). */
  threads(): { tid: number | null; ffmpegPid: number | null } {
    return { tid: this.worker ? this.tid : null, ffmpegPid: this.pid };
  }

  private send(worker: Worker, msg: MainToAudio): void {
    worker.postMessage(msg);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const init: AudioInit = {
      ffmpeg: this.opts.ffmpeg,
      block: this.block,
      tempo: this.tempo,
      sampleRate: AUDIO_LIMITS.sampleRate,
      hop: AUDIO_LIMITS.hop,
      retry: { firstMs: AUDIO_LIMITS.retryFirstMs, maxMs: AUDIO_LIMITS.retryMaxMs, stableMs: AUDIO_LIMITS.retryStableMs },
      stallMs: AUDIO_LIMITS.stallMs,
      gain: this.gain,
      tempoInit: {
        limits: {
          bpmMin: TEMPO_LIMITS.bpmMin,
          bpmMax: TEMPO_LIMITS.bpmMax,
          tapResetMs: TEMPO_LIMITS.tapResetMs,
          tapIntervals: TEMPO_LIMITS.tapIntervals,
        },
        manualBpm: this.manualBpm,
      },
    };
    const worker = new Worker(new URL('../../workers/audio/main.js', import.meta.url), { workerData: init });
    this.worker = worker;
    this.startedAt = Date.now();
    this.tid = null;
    worker.on('message', (msg: AudioToMain) => this.onMessage(msg));
    worker.on('error', (err) => this.log.error({ worker: 'audio', error: err.message }, 'audio worker crashed'));
    worker.on('exit', (code) => this.onExit(worker, code));
    const l = this.ltcWanted;
    if (l) this.send(worker, { t: 'ltc', input: l.input, channel: l.channel });
    return worker;
  }

  private onExit(worker: Worker, code: number): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.calls.failAll('audio worker exited');
    this.onProcessExit();
    this.pid = null;
    // The dead worker was the block's only writer: its last values must not stand for a live input.
    new AudioBlockWriter(this.block).silence();
    // The clock's last consistent values stay: the next worker goes on from them.
    releaseTempoBlock(this.tempo);
    if (this.stopped) return;
    if (Date.now() - this.startedAt >= AUDIO_LIMITS.workerStableMs) this.restartDelayMs = AUDIO_LIMITS.workerRestartFirstMs;
    const delay = this.restartDelayMs;
    this.restartDelayMs = Math.min(delay * 2, AUDIO_LIMITS.workerRestartMaxMs);
    this.log.error({ worker: 'audio', code, retryInMs: delay }, 'audio worker exited unexpectedly; restarting it');
    if (this.wanted)
      this.setStatus({ ...this.status, input: this.wanted.id, state: 'retrying', message: 'audio worker exited; restarting' });
    // Restarted with or without an input: the tempo clock lives there.
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopped) return;
      if (this.wanted) void this.select(this.wanted);
      else this.ensureWorker();
    }, delay);
  }

  private onMessage(msg: AudioToMain): void {
    switch (msg.t) {
      case 'selected':
      case 'done':
      case 'stopped':
        this.calls.settle(msg.id, msg);
        return;
      case 'state':
        // A report of an input since replaced says nothing about the one wanted now.
        if (msg.input !== (this.wanted?.id ?? null)) return;
        this.pid = msg.pid ?? null;
        this.setStatus({ input: msg.input, state: msg.state, message: msg.message ?? null, restarts: msg.restarts ?? 0 });
        return;
      case 'thread':
        this.tid = msg.tid;
        return;
      case 'ltc':
        this.ltcWanted?.onMessage(msg);
        return;
      case 'log':
        relayLog(this.log, msg, { worker: 'audio' });
        return;
    }
  }

  private setStatus(s: AudioStatus): void {
    const cur = this.status;
    if (cur.input === s.input && cur.state === s.state && cur.message === s.message && cur.restarts === s.restarts) return;
    this.status = s;
  }
}
