// One ffmpeg process of a clip: decodes from its start position and hands out whole frames only when asked, so
// stdout backpressure holds ffmpeg while nothing is due (a paused clip costs no decoding). Frame k of the reader
// sits at start + k/fps.
import type { Readable } from 'node:stream';
import { spawnFfmpeg, type Supervised } from '../../src/shared/ffmpeg-supervisor.js';
import type { PcmRingWriter } from '../../src/shared/pcm-ring.js';
import { buildClipArgs } from './clip-args.js';
import { isNoAudioLine, tapPcm } from './pcm-output.js';
import { newRun, readStderrLine, STOP_PLAN, type Run } from './run.js';

export interface ClipReaderOptions {
  path: string;
  startS: number;
  /** Where the reader stops (s); null: the end of the file. */
  endS: number | null;
  /** The whole file over and over: positions wrap at `wrapS` (the file's length, when known). */
  loop: boolean;
  wrapS: number | null;
  maxWidth: number;
  maxHeight: number;
  fps: number;
  ffmpeg: string;
  wrapper: string[];
  pcm: PcmRingWriter | null;
  /** Something new can be read: a frame, the end, or the frame size. */
  onReadable(reader: ClipReader): void;
  /** The process is gone: `failed` when it ended other than by reaching its end or by stop(). */
  onExit(reader: ClipReader, failed: string | null): void;
}

export class ClipReader {
  readonly run: Run;
  readonly startS: number;
  readonly endS: number | null;
  readonly loop: boolean;
  /** Frames taken so far: the next frame's index. */
  index = 0;
  /** stdout ended: every frame has been taken. */
  eof = false;
  exited = false;
  /** ffmpeg refused the audio output (the file has no audio track). */
  noAudio = false;
  private stopped = false;
  private readonly stdout: Readable;
  private readonly proc: Supervised;

  constructor(private readonly o: ClipReaderOptions) {
    this.startS = o.startS;
    this.endS = o.loop ? null : o.endS;
    this.loop = o.loop;
    const args = buildClipArgs({
      path: o.path,
      startS: o.startS,
      spanS: this.endS === null ? null : Math.max(0, this.endS - o.startS),
      loop: o.loop,
      maxWidth: o.maxWidth,
      maxHeight: o.maxHeight,
      fps: o.fps,
      audio: o.pcm !== null,
    });
    let run!: Run;
    this.proc = spawnFfmpeg(
      { ffmpeg: o.ffmpeg, wrapper: o.wrapper, args, stdin: 'ignore', stdout: 'pipe', fd3: o.pcm !== null, stop: STOP_PLAN },
      {
        onLine: (line) => {
          if (o.pcm && isNoAudioLine(line)) this.noAudio = true;
          readStderrLine(run, line, (w, h) => this.onSize(w, h));
        },
        onExit: (code, signal, spawnError) => this.onProcExit(code, signal, spawnError),
      },
    );
    run = newRun(this.proc);
    this.run = run;
    this.stdout = this.proc.child.stdout!;
    this.stdout.on('readable', () => o.onReadable(this));
    this.stdout.on('end', () => {
      this.eof = true;
      o.onReadable(this);
    });
    this.stdout.on('error', () => {});
    // The exit report waits for stdout to close, which an unread pipe never does: a process that died is let go of
    // at once (its unread frames are of a run that failed), so the failure shows without waiting for the reads.
    this.proc.child.once('exit', (code) => {
      if (!this.stopped && code !== 0) this.stdout.destroy();
    });
    if (o.pcm) tapPcm(this.proc.child, o.pcm);
  }

  get pid(): number | undefined {
    return this.proc.child.pid;
  }

  /** Position (s) of the frame the next take() returns, on this reader's own time line (it does not wrap). */
  nextPositionS(): number {
    return this.startS + this.index / this.o.fps;
  }

  /** A position of this reader's time line as a position in the file. */
  inFile(positionS: number): number {
    const w = this.o.wrapS;
    return this.loop && w !== null && w > 0 ? positionS % w : positionS;
  }

  /** Whether the frame size is known, so frames can be taken. */
  get sized(): boolean {
    return this.run.frameBytes > 0;
  }

  /** The next whole frame, or null while ffmpeg has not written it yet (or the reader is at its end). */
  take(): Buffer | null {
    if (!this.sized || this.eof) return null;
    const buf = this.stdout.read(this.run.frameBytes) as Buffer | null;
    if (!buf) return null;
    // The tail of a killed process may be short: it is no frame.
    if (buf.length < this.run.frameBytes) return null;
    this.index++;
    this.run.frames++;
    return buf;
  }

  stop(): Promise<void> {
    this.stopped = true;
    this.letGo();
    return this.proc.stop();
  }

  kill(): void {
    this.stopped = true;
    this.letGo();
    this.proc.kill();
  }

  /**
   * A stopped reader's pipes are closed on this side at once: an unread stdout never reaches its end, so the pipe
   * (and the process's close, which waits for it) would be held for good, one descriptor per replaced reader.
   */
  private letGo(): void {
    for (const pipe of this.proc.child.stdio) pipe?.destroy();
  }

  private onSize(width: number, height: number): void {
    if (width > this.o.maxWidth || height > this.o.maxHeight) {
      this.run.errors.push(`ffmpeg output ${width}x${height} exceeds the ring box`);
      void this.stop();
      return;
    }
    this.run.width = width;
    this.run.height = height;
    this.run.frameBytes = width * height * 4;
    this.o.onReadable(this);
  }

  private onProcExit(code: number | null, signal: NodeJS.Signals | null, spawnError?: string): void {
    this.exited = true;
    let failed: string | null = null;
    if (!this.stopped && (code !== 0 || this.run.frameBytes === 0)) {
      failed = spawnError ?? (this.run.errors.length > 0 ? this.run.errors.join('; ') : `ffmpeg exited with ${signal ?? `code ${code}`}`);
    }
    this.o.onExit(this, failed);
  }
}
