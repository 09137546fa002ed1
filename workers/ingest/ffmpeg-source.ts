// One supervised ffmpeg process feeding one frame ring: stdout framing, stderr parsing, stall watchdog, restart
// backoff. A source is retried for as long as it is open: whoever holds it open (the current source, a pending
// activation, a thumbnail preview) wants its frames back once the input can be read again.
import type { IngestInput, IngestState } from '../../src/shared/protocol/ingest.js';
import { FrameRingWriter } from '../../src/shared/frame-ring.js';
import { Backoff, spawnFfmpeg } from '../../src/shared/ffmpeg-supervisor.js';
import { PcmRingWriter } from '../../src/shared/pcm-ring.js';
import { buildFfmpegArgs } from './ffmpeg-args.js';
import { isNoAudioLine, knownSilent, rememberSilent, tapPcm } from './pcm-output.js';
import { newRun, readStderrLine, STOP_PLAN, type Run } from './run.js';
import { stallReason } from './watchdog.js';
import type { ReaderOptions } from './clip-options.js';

export interface SourceOptions extends ReaderOptions {
  input: IngestInput;
  /** Live inputs have a stall watchdog (a receiver whose sender went quiet never exits on its own). */
  live: boolean;
  /** Media files' stall watchdog (IngestInit.stall). */
  stall: { fileMs: number; frames: number };
}

export const STALL_MS = 2000;
const TICK_MS = 250;
const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 10_000;
/** Frames for this long count as a good run: the backoff starts over. */
const STABLE_MS = 10_000;
/** ffmpeg names the output size before the first frame; this much unframed output means it never will. */
const MAX_PENDING_BYTES = 64 * 1024 * 1024;

export class FfmpegSource {
  private readonly writer: FrameRingWriter;
  private readonly pcm: PcmRingWriter | null;
  private args: string[];
  /** The audio output is on: a PCM ring is there and the source is not known to lack an audio track. */
  private audio: boolean;
  private run: Run | null = null;
  private closing = false;
  private closed: Promise<void> | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private readonly backoff = new Backoff({ firstMs: BACKOFF_FIRST_MS, maxMs: BACKOFF_MAX_MS, stableMs: STABLE_MS });
  state: IngestState = 'connecting';
  message: string | undefined;

  constructor(private readonly opts: SourceOptions) {
    this.writer = new FrameRingWriter(opts.ring);
    this.pcm = opts.pcm ? new PcmRingWriter(opts.pcm) : null;
    this.audio = this.pcm !== null && !knownSilent(opts.input);
    this.args = this.buildArgs();
    if (opts.adopted) {
      this.writer.setDown();
      this.writer.endRun();
    }
  }

  private buildArgs(): string[] {
    const { input, maxWidth, maxHeight, fps } = this.opts;
    return buildFfmpegArgs({ input, maxWidth, maxHeight, fps, audio: this.audio });
  }

  get pid(): number | undefined {
    return this.run?.proc.child.pid;
  }

  start(): void {
    if (!this.closing && !this.run) this.spawnRun();
  }

  /** Starts a fresh process now (the current one, if any, is killed first) and resets the backoff. */
  restart(): void {
    if (this.closing) return;
    this.backoff.reset();
    if (this.run) {
      this.run.restarting = true;
      this.kill(this.run);
      return;
    }
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    this.spawnRun();
  }

  /** Kills the process (TERM twice, then KILL), waits until it is reaped, then reports `closed` unless silent. */
  close(silent = false): Promise<void> {
    if (this.closed) return this.closed;
    this.closing = true;
    // A ring still shown somewhere (a switch that completed after its request gave up) must not freeze there.
    this.writer.setDown();
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const run = this.run;
    this.closed = (run ? run.proc.stop() : Promise.resolve()).then(() => {
      if (!silent) this.setState('closed');
    });
    return this.closed;
  }

  /** Last resort when the thread exits: no waiting, no reaping. */
  killSync(): void {
    this.closing = true;
    this.run?.proc.kill();
  }

  private setState(state: IngestState, message?: string): void {
    this.state = state;
    this.message = message;
    this.opts.onState(state, message, state === 'connecting' || state === 'live' ? this.pid : undefined);
  }

  private spawnRun(): void {
    const { ffmpeg, wrapper } = this.opts;
    // Set before any hook runs: the child's events all arrive after this call returns.
    let run!: Run;
    const audio = this.audio;
    const proc = spawnFfmpeg(
      { ffmpeg, wrapper, args: this.args, stdin: 'ignore', stdout: 'pipe', fd3: audio, stop: STOP_PLAN },
      {
        onLine: (line) => {
          if (audio && isNoAudioLine(line)) run.noAudio = true;
          readStderrLine(run, line, (w, h) => this.onOutputSize(run, w, h));
        },
        onError: (err, started) => {
          if (started) this.opts.onLog('warn', 'ffmpeg process error', { source: this.opts.key, error: err.message });
        },
        onExit: (code, signal, spawnError) => this.onExit(run, code, signal, spawnError),
      },
    );
    run = newRun(proc);
    this.run = run;
    proc.child.stdout!.on('data', (chunk: Buffer) => this.onStdout(run, chunk));
    if (audio && this.pcm) tapPcm(proc.child, this.pcm);
    if (proc.child.pid !== undefined) {
      this.setState('connecting');
      run.tick = setInterval(() => this.onTick(run), TICK_MS);
    }
  }

  private onOutputSize(run: Run, width: number, height: number): void {
    if (width > this.writer.geometry.maxWidth || height > this.writer.geometry.maxHeight) {
      run.errors.push(`ffmpeg output ${width}x${height} exceeds the ring box`);
      this.kill(run);
      return;
    }
    run.width = width;
    run.height = height;
    run.frameBytes = width * height * 4;
    const pending = run.pending;
    run.pending = [];
    run.pendingBytes = 0;
    for (const chunk of pending) this.consume(run, chunk);
  }

  private onStdout(run: Run, chunk: Buffer): void {
    if (run.frameBytes > 0) return this.consume(run, chunk);
    // stdout and stderr are separate pipes: frames can arrive before the line that says how big they are.
    run.pending.push(chunk);
    run.pendingBytes += chunk.length;
    if (run.pendingBytes > MAX_PENDING_BYTES) {
      run.errors.push('ffmpeg wrote frames without naming their size');
      run.pending = [];
      this.kill(run);
    }
  }

  /** Copies stdout bytes straight into ring slots (no per-frame buffers), committing each completed frame. */
  private consume(run: Run, chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (!run.slot) {
        run.slot = this.writer.begin(run.width, run.height);
        run.filled = 0;
      }
      const n = Math.min(run.frameBytes - run.filled, chunk.length - offset);
      chunk.copy(run.slot, run.filled, offset, offset + n);
      run.filled += n;
      offset += n;
      if (run.filled === run.frameBytes) {
        const now = Date.now();
        this.writer.commit(now);
        run.slot = null;
        run.lastFrameAt = now;
        if (run.frames++ === 0) {
          run.firstFrameAt = now;
          this.setState('live');
        }
      }
    }
  }

  private onTick(run: Run): void {
    if (this.closing || run.stallReason) return;
    const now = Date.now();
    if (run.frames > 0) this.backoff.resetIfStable(run.firstFrameAt, now);
    // A finished still has nothing more to write.
    const input = this.opts.input;
    if (input.kind === 'file' && input.still && run.frames > 0) return;
    const reason = stallReason(
      run,
      { live: this.opts.live, liveMs: STALL_MS, fileMs: this.opts.stall.fileMs, frames: this.opts.stall.frames },
      now,
    );
    if (reason) {
      run.stallReason = reason;
      this.writer.setDown();
      this.writer.endRun();
      this.opts.onLog('warn', 'ffmpeg stalled; restarting it', { source: this.opts.key, pid: run.proc.child.pid, reason });
      this.setState('stalled', reason);
      this.kill(run);
    }
  }

  private kill(run: Run): void {
    void run.proc.stop();
  }

  private onExit(run: Run, code: number | null, signal: NodeJS.Signals | null, spawnError?: string): void {
    if (run.tick) clearInterval(run.tick);
    if (this.run === run) this.run = null;
    // `source`, not `key`: the logger redacts any field called key.
    const fields = { source: this.opts.key, pid: run.proc.child.pid, code, signal, frames: run.frames };
    // Its audio track (if any) ended with the run: the audio side reads silence until the next one delivers.
    this.pcm?.setAudio(false);
    if (this.closing) {
      this.opts.onLog('info', 'ffmpeg stopped', fields);
      return;
    }
    const input = this.opts.input;
    if (run.noAudio && this.audio) {
      // No audio track to decode: the same source at once without the audio output, not a failure.
      this.audio = false;
      rememberSilent(input);
      this.args = this.buildArgs();
      this.opts.onLog('info', 'source has no audio track; reading its video only', { source: this.opts.key });
      this.spawnRun();
      return;
    }
    // A still image is done after its one frame; the ring keeps it and the state stays live.
    if (input.kind === 'file' && input.still && run.frames > 0 && code === 0 && !run.restarting) return;
    // Frames written so far belong to a connection that is over; activations wait for the next run's frames.
    this.writer.endRun();
    if (run.restarting) {
      this.opts.onLog('info', 'ffmpeg restarted', fields);
      this.spawnRun();
      return;
    }
    // Until a new process delivers, the ring's newest frame is no longer the source's picture.
    this.writer.setDown();
    const message =
      spawnError ??
      run.stallReason ??
      (run.errors.length > 0 ? run.errors.join('; ') : code === 0 ? 'input ended' : `ffmpeg exited with ${signal ?? `code ${code}`}`);
    this.opts.onLog('warn', 'ffmpeg exited', { ...fields, reason: message, retryInMs: this.backoff.nextMs });
    this.setState('retrying', message);
    const delay = this.backoff.take();
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.closing) this.spawnRun();
    }, delay);
  }
}
