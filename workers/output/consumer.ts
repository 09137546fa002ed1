// One output: a supervised ffmpeg fed program frames at exactly its fps, each stamped with its slot's time. A slot
// with no newer program frame sends the last one again (repeated); a pipe that is still full drops the slot's frame
// (dropped) and the next frame's time carries the gap, so a slow consumer never holds up the render, the main
// thread or the other consumers, and its file or stream still lasts as long as the wall clock ran. ffmpeg is restarted with backoff
// (1 s doubling to 30 s) until the output is stopped. A display or v4l2 output whose target is missing is
// `failed` and is checked again every few seconds, so an X server or a loopback device that comes up later is used.
import { setPriority } from 'node:os';
import { basename } from 'node:path';
import type { OutputCounters, OutputSpec, OutputState } from '../../src/shared/protocol/output.js';
import type { LogFn } from '../../src/shared/protocol/common.js';
import { outputKind } from '../../src/shared/output-kinds/index.js';
import type { BuiltArgs, Size } from '../../src/shared/output-kinds/types.js';
import { buildOutputArgs } from './ffmpeg-args.js';
import { FRAME_HEADER_BYTES, mkvFrameHeader, mkvHeader } from './mkv-pipe.js';
import { newPhaseLock, phaseStep } from './phase-lock.js';
import { OutputProcess } from './output-process.js';
import { checkTarget, needsCheck } from './target-check.js';
import type { FrameSource } from './program-frames.js';

/**
 * Frames a pipe may hold beyond the one ffmpeg is reading before slots are dropped. Measured (60 s soak, stream +
 * recording + 2 previews, loaded 2-core box): 2 dropped ~20 slots per output a minute, 3 about a third of that; the
 * extra frame only waits when ffmpeg is already behind.
 */
const PIPE_FRAMES = 3;
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
  frames: FrameSource;
  onState(
    state: OutputState,
    lastError: string | null,
    startedAt: string | null,
    file: string | undefined,
    pid: number | undefined,
    size: { width: number; height: number } | undefined,
  ): void;
  onLog: LogFn;
  /** A shared encoder's own command line (its kind's otherwise). */
  args?(input: string[], now: Date, screen?: Size): BuiltArgs;
  /** Where a shared encoder's encoded stream (its stdout) goes. */
  onData?(chunk: Buffer): void;
}

export class Consumer {
  readonly counters: OutputCounters = { framesSent: 0, framesDropped: 0, framesRepeated: 0, restarts: 0 };
  private readonly run: OutputProcess;
  private startedAt: string | null = null;
  private file: string | undefined;
  private size: { width: number; height: number } | undefined;
  /** Bumped at every launch, so a target check that answers after a stop or a newer launch is ignored. */
  private launches = 0;
  private tickTimer: NodeJS.Timeout | null = null;
  /** Pacing: the time of slot 0 and the slots served since, so the rate never drifts. */
  private t0 = 0;
  private slots = 0;
  /** Keeps the slots mid-way between render commits (see phase-lock.ts). */
  private readonly lock = newPhaseLock();
  private lastFrameNo = 0;
  private accepted = 0;
  /** The timestamp of the first frame written to this ffmpeg (µs; -1 before the first). */
  private firstUs = -1;
  private readonly period: number;

  constructor(
    readonly id: string,
    readonly spec: OutputSpec,
    private readonly deps: ConsumerDeps,
  ) {
    this.period = 1000 / spec.fps;
    this.run = new OutputProcess({
      id,
      secrets: spec.secrets,
      exitMsg: 'output ffmpeg exited; retrying',
      onLog: deps.onLog,
      onState: (state) => deps.onState(state, this.run.lastError, this.startedAt, this.file, this.run.proc?.child.pid, this.size),
      restart: () => {
        this.counters.restarts++;
        this.launch();
      },
    });
  }

  start(): void {
    this.run.stopping = false;
    this.launch();
    this.t0 = performance.now();
    this.slots = 0;
    this.tick();
  }

  /** Starts ffmpeg, after making sure a display's X server or a v4l2 device is there. */
  private launch(): void {
    if (!needsCheck(this.spec)) return this.spawn();
    const launch = ++this.launches;
    const run = this.run;
    void checkTarget(this.spec, this.deps.ffmpeg).then((found) => {
      if (run.stopping || launch !== this.launches) return;
      if (found.ok) return this.spawn(found.screen);
      const reason = run.clean(found.reason);
      // Logged when it first fails or the reason changes, not at every re-check.
      if (run.state !== 'failed' || run.lastError !== reason)
        this.deps.onLog('warn', 'output target missing; checking again', { id: this.id, reason });
      run.lastError = reason;
      run.setState('failed');
      run.after(RECHECK_MS, () => this.launch());
    });
  }

  private spawn(screen?: { width: number; height: number }): void {
    const { frames, ffmpeg, wrapper } = this.deps;
    let built: { args: string[]; file?: string; size?: { width: number; height: number } };
    try {
      built = buildOutputArgs(this.id, this.spec, frames.size.layout, new Date(), screen, this.deps.args);
    } catch (err) {
      this.run.lastError = (err as Error).message;
      this.run.setState('retrying');
      return;
    }
    const own = outputKind<OutputSpec>(this.spec.kind).env?.(this.spec);
    const env = own ? { ...process.env, ...own } : process.env;
    const stdout = this.deps.onData ? 'pipe' : 'ignore';
    const proc = this.run.spawn({ ffmpeg, wrapper, args: built.args, stdout, env, lineBreak: /\r?\n/ });
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
    proc.child.stdin!.write(mkvHeader(frames.size, this.spec.fps));
    this.run.setState('starting');
  }

  /** Serves every slot that is due (a late timer catches up, up to one second of slots), then sleeps to the next. */
  private tick(): void {
    this.tickTimer = null;
    if (this.run.stopping) return;
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
    const proc = this.run.proc;
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
      if (err || this.run.proc !== proc) return;
      // One second of frames taken by ffmpeg: the output is up.
      if (++this.accepted === this.spec.fps && this.run.state === 'starting') this.run.up();
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

  /** Ends the output (see OutputProcess.stop) and its pacing. */
  stop(): Promise<void> {
    if (this.tickTimer) clearTimeout(this.tickTimer);
    this.tickTimer = null;
    return this.run.stop();
  }

  /** Kills ffmpeg at once (the worker is going away). */
  kill(): void {
    this.run.kill();
  }
}
