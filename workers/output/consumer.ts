// One output: a supervised ffmpeg fed program frames at exactly its fps, each stamped with its slot's time. A slot
// with no newer program frame sends the last one again (repeated); a pipe that is still full drops the slot's frame
// (dropped) and the next frame's time carries the gap, so a slow consumer never holds up the render, the main
// thread or the other consumers, and its file or stream still lasts as long as the wall clock ran. ffmpeg is restarted with backoff
// (1 s doubling to 30 s) until the output is stopped. A display or v4l2 output whose target is missing is
// `failed` and is checked again every few seconds, so an X server or a loopback device that comes up later is used.
import { setPriority } from 'node:os';
import { basename } from 'node:path';
import { Backoff, spawnFfmpeg, type StopPlan, type Supervised } from '../../src/shared/ffmpeg-supervisor.js';
import { redactText } from '../../src/shared/url.js';
import type { OutputCounters, OutputSpec, OutputState } from '../../src/shared/protocol/output.js';
import { outputKind } from '../../src/shared/output-kinds/index.js';
import type { BuiltArgs, Size } from '../../src/shared/output-kinds/types.js';
import { buildOutputArgs } from './ffmpeg-args.js';
import { FRAME_HEADER_BYTES, mkvFrameHeader, mkvHeader } from './mkv-pipe.js';
import { newPhaseLock, phaseStep } from './phase-lock.js';
import { checkTarget, needsCheck } from './target-check.js';
import type { ProgramFrames } from './program-frames.js';

const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 30_000;
/** Running this long counts as a good run: the next failure starts the backoff over. */
const STABLE_MS = 10_000;
/**
 * Frames a pipe may hold beyond the one ffmpeg is reading before slots are dropped. Measured (60 s soak, stream +
 * recording + 2 previews, loaded 2-core box): 2 dropped ~20 slots per output a minute, 3 about a third of that; the
 * extra frame only waits when ffmpeg is already behind.
 */
const PIPE_FRAMES = 3;
/** After a stop, ffmpeg gets this long to finish the file or stream before SIGKILL. */
const STOP_GRACE_MS = 3000;
/** A stop closes ffmpeg's input, so it finishes the file or stream it writes. */
const STOP_PLAN: StopPlan = { ask: 'stdin', killMs: STOP_GRACE_MS };
const MAX_ERROR_CHARS = 300;
/** How often a missing X display or video device is looked for again: cheap, and quick enough after a modprobe. */
const RECHECK_MS = 5000;
/**
 * Encoders run below vjd's own priority: on a box with few cores the render loop keeps its core and an encoder that
 * falls behind drops or repeats slots (true time holds either way) instead of slowing the picture.
 */
const ENCODER_NICE = 10;

export interface ConsumerDeps {
  ffmpeg: string;
  /** Command prefix that makes ffmpeg die with this thread (setpriv --pdeathsig), or []. */
  wrapper: string[];
  frames: ProgramFrames;
  onState(
    state: OutputState,
    lastError: string | null,
    startedAt: string | null,
    file: string | undefined,
    pid: number | undefined,
    size: { width: number; height: number } | undefined,
  ): void;
  onLog(level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>): void;
  /** A shared encoder's own command line (its kind's otherwise). */
  args?(input: string[], now: Date, screen?: Size): BuiltArgs;
  /** Where a shared encoder's encoded stream (its stdout) goes. */
  onData?(chunk: Buffer): void;
}

export class Consumer {
  readonly counters: OutputCounters = { framesSent: 0, framesDropped: 0, framesRepeated: 0, restarts: 0 };
  private proc: Supervised | null = null;
  private state: OutputState = 'stopped';
  private lastError: string | null = null;
  private startedAt: string | null = null;
  private file: string | undefined;
  private size: { width: number; height: number } | undefined;
  /** Bumped at every launch, so a target check that answers after a stop or a newer launch is ignored. */
  private launches = 0;
  private readonly backoff = new Backoff({ firstMs: BACKOFF_FIRST_MS, maxMs: BACKOFF_MAX_MS, stableMs: STABLE_MS });
  private retryTimer: NodeJS.Timeout | null = null;
  private tickTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  /** Pacing: the time of slot 0 and the slots served since, so the rate never drifts. */
  private t0 = 0;
  private slots = 0;
  /** Keeps the slots mid-way between render commits (see phase-lock.ts). */
  private readonly lock = newPhaseLock();
  private lastFrameNo = 0;
  private accepted = 0;
  /** The timestamp of the first frame written to this ffmpeg (µs; -1 before the first). */
  private firstUs = -1;
  private runningSince = 0;
  private readonly period: number;

  constructor(
    readonly id: string,
    readonly spec: OutputSpec,
    private readonly deps: ConsumerDeps,
  ) {
    this.period = 1000 / spec.fps;
  }

  start(): void {
    this.stopping = false;
    this.launch();
    this.t0 = performance.now();
    this.slots = 0;
    this.tick();
  }

  private setState(state: OutputState): void {
    this.state = state;
    this.deps.onState(state, this.lastError, this.startedAt, this.file, this.proc?.child.pid, this.size);
  }

  /** Starts ffmpeg, after making sure a display's X server or a v4l2 device is there. */
  private launch(): void {
    if (!needsCheck(this.spec)) return this.spawn();
    const launch = ++this.launches;
    void checkTarget(this.spec, this.deps.ffmpeg).then((found) => {
      if (this.stopping || launch !== this.launches) return;
      if (found.ok) return this.spawn(found.screen);
      const reason = this.clean(found.reason);
      // Logged when it first fails or the reason changes, not at every re-check.
      if (this.state !== 'failed' || this.lastError !== reason)
        this.deps.onLog('warn', 'output target missing; checking again', { id: this.id, reason });
      this.lastError = reason;
      this.setState('failed');
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        if (!this.stopping) this.launch();
      }, RECHECK_MS);
    });
  }

  private spawn(screen?: { width: number; height: number }): void {
    const { frames, ffmpeg, wrapper } = this.deps;
    let built: { args: string[]; file?: string; size?: { width: number; height: number } };
    try {
      built = buildOutputArgs(this.id, this.spec, frames.size.layout, new Date(), screen, this.deps.args);
    } catch (err) {
      this.lastError = (err as Error).message;
      this.setState('retrying');
      return;
    }
    const own = outputKind<OutputSpec>(this.spec.kind).env?.(this.spec);
    const env = own ? { ...process.env, ...own } : process.env;
    const proc = spawnFfmpeg(
      {
        ffmpeg,
        wrapper,
        args: built.args,
        stdin: 'pipe',
        stdout: this.deps.onData ? 'pipe' : 'ignore',
        env,
        stop: STOP_PLAN,
        lineBreak: /\r?\n/,
      },
      {
        onLine: (line) => {
          if (line.trim()) this.lastError = this.clean(line);
        },
        onError: (err) => {
          this.lastError = this.clean(`ffmpeg could not start: ${err.message}`);
        },
        onExit: (code, signal) => this.onExit(proc, code, signal),
      },
    );
    this.proc = proc;
    if (proc.child.pid !== undefined) {
      try {
        setPriority(proc.child.pid, ENCODER_NICE);
      } catch {
        // Not allowed here (a container without the capability): the encoder runs at vjd's priority.
      }
    }
    const onData = this.deps.onData;
    if (onData) proc.child.stdout!.on('data', (chunk: Buffer) => onData(chunk));
    this.file = built.file ? basename(built.file) : undefined;
    this.size = built.size;
    this.startedAt = new Date().toISOString();
    this.accepted = 0;
    this.firstUs = -1;
    this.runningSince = 0;
    proc.child.stdin!.on('error', () => {
      // EPIPE when ffmpeg exits: the exit handler reports it.
    });
    proc.child.stdin!.write(mkvHeader(frames.size, this.spec.fps));
    this.setState('starting');
  }

  private clean(line: string): string {
    return redactText(line.trim(), this.spec.secrets).slice(0, MAX_ERROR_CHARS);
  }

  private onExit(proc: Supervised, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.proc !== proc) return;
    this.proc = null;
    if (this.stopping) {
      this.setState('stopped');
      return;
    }
    this.lastError ??= `ffmpeg exited (${signal ?? `code ${code}`})`;
    if (this.runningSince > 0) this.backoff.resetIfStable(this.runningSince, performance.now());
    const wait = this.backoff.take();
    this.deps.onLog('warn', 'output ffmpeg exited; retrying', { id: this.id, code, signal, retryInMs: wait, lastError: this.lastError });
    this.setState('retrying');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.stopping) return;
      this.counters.restarts++;
      this.launch();
    }, wait);
  }

  /** Serves every slot that is due (a late timer catches up, up to one second of slots), then sleeps to the next. */
  private tick(): void {
    this.tickTimer = null;
    if (this.stopping) return;
    const now = performance.now();
    let due = Math.floor((now - this.t0) / this.period) + 1 - this.slots;
    if (due > this.spec.fps) {
      // Over a second behind (a suspended process): those slots are counted as dropped; their time stays a gap.
      this.counters.framesDropped += due - this.spec.fps;
      this.slots += due - this.spec.fps;
      due = this.spec.fps;
    }
    for (let i = 0; i < due; i++) this.serveSlot(i === 0);
    this.tickTimer = setTimeout(() => this.tick(), Math.max(0, this.t0 + this.slots * this.period - performance.now()));
  }

  private serveSlot(onTime: boolean): void {
    this.slots++;
    const proc = this.proc;
    const child = proc?.child;
    const frame = this.deps.frames.newest();
    // Only the first slot of a tick says where the slots sit; catch-up slots share its instant.
    if (frame && onTime) this.t0 += phaseStep(this.lock, this.period, Date.now(), frame.timeMs, frame.frameNo);
    if (!child || !frame || !child.stdin || child.stdin.destroyed) return;
    const stdin = child.stdin;
    if (stdin.writableLength >= PIPE_FRAMES * (FRAME_HEADER_BYTES + frame.bytes.byteLength)) {
      this.counters.framesDropped++;
      return;
    }
    if (frame.frameNo === this.lastFrameNo) this.counters.framesRepeated++;
    this.lastFrameNo = frame.frameNo;
    this.counters.framesSent++;
    // The slot's own time, not the count of frames written: a dropped slot leaves its gap in the timeline.
    const timeUs = ((this.slots - 1) * 1e6) / this.spec.fps;
    if (this.firstUs < 0) this.firstUs = timeUs;
    stdin.cork();
    stdin.write(mkvFrameHeader(timeUs, frame.bytes.byteLength));
    stdin.write(frame.bytes, (err) => {
      if (err || this.proc !== proc) return;
      // One second of frames taken by ffmpeg: the output is up.
      if (++this.accepted === this.spec.fps && this.state === 'starting') {
        this.runningSince = performance.now();
        this.lastError = null;
        this.setState('running');
      }
    });
    stdin.uncork();
  }

  /**
   * Where the latest slot (written or dropped) sits on this ffmpeg's output clock (ms; ffmpeg starts its output at
   * the first frame's time), or -1 before any frame: the encode has caught up with now once it passes this.
   */
  clockMs(): number {
    return this.firstUs < 0 ? -1 : ((this.slots - 1) * 1e6) / this.spec.fps / 1000 - this.firstUs / 1000;
  }

  /** Ends the output: stdin closed so ffmpeg finishes the file or stream, SIGKILL if it does not within the grace. */
  stop(): Promise<void> {
    this.stopping = true;
    if (this.tickTimer) clearTimeout(this.tickTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.tickTimer = null;
    this.retryTimer = null;
    const proc = this.proc;
    if (!proc) {
      this.setState('stopped');
      return Promise.resolve();
    }
    return proc.stop();
  }

  /** Kills ffmpeg at once (the worker is going away). */
  kill(): void {
    this.stopping = true;
    this.proc?.kill();
  }
}
