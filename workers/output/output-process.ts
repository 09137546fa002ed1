// The ffmpeg of one output, whichever feeds it (a paced consumer's frames, or a shared encoder's stream through a
// remux target): its input on stdin, its last stderr line as the output's error, an exit retried with backoff (1 s
// doubling to 30 s) until the output is stopped, and a stop that closes stdin so ffmpeg finishes its file or stream.
import { Backoff, spawnFfmpeg, type SpawnSpec, type StopPlan, type Supervised } from '../../src/shared/ffmpeg-supervisor.js';
import type { LogFn } from '../../src/shared/protocol/common.js';
import type { OutputState } from '../../src/shared/protocol/output.js';
import { redactText } from '../../src/shared/url.js';

const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 30_000;
/** Running this long counts as a good run: the next failure starts the backoff over. */
const STABLE_MS = 10_000;
/** After a stop, ffmpeg gets this long to finish the file or stream before SIGKILL. */
const STOP_GRACE_MS = 3000;
const STOP_PLAN: StopPlan = { ask: 'stdin', killMs: STOP_GRACE_MS };
const MAX_ERROR_CHARS = 300;

export interface OutputProcessHooks {
  /** The output's id, in the log lines. */
  id: string;
  /** Credentials of its URL, never shown in an error. */
  secrets: string[];
  /** The log line of an exit that is retried. */
  exitMsg: string;
  onLog: LogFn;
  /** Every state change; the error and the process are read from the OutputProcess. */
  onState(state: OutputState): void;
  /** Starts ffmpeg again once a failed one's wait is over. */
  restart(): void;
}

export class OutputProcess {
  proc: Supervised | null = null;
  state: OutputState = 'stopped';
  lastError: string | null = null;
  stopping = false;
  private runningSince = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly backoff = new Backoff({ firstMs: BACKOFF_FIRST_MS, maxMs: BACKOFF_MAX_MS, stableMs: STABLE_MS });

  constructor(private readonly o: OutputProcessHooks) {}

  setState(state: OutputState): void {
    this.state = state;
    this.o.onState(state);
  }

  /** A line as the output's error shows it: trimmed, without credentials, cut short. */
  clean(line: string): string {
    return redactText(line.trim(), this.o.secrets).slice(0, MAX_ERROR_CHARS);
  }

  /** Starts ffmpeg; the caller feeds its stdin and says `starting` once it is set up. */
  spawn(spec: Omit<SpawnSpec, 'stdin' | 'stop'>): Supervised {
    const proc = spawnFfmpeg(
      { ...spec, stdin: 'pipe', stop: STOP_PLAN },
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
    proc.child.stdin!.on('error', () => {
      // EPIPE when ffmpeg exits: the exit handler reports it.
    });
    this.proc = proc;
    this.runningSince = 0;
    return proc;
  }

  /** ffmpeg has taken enough of its input: the output is up. */
  up(): void {
    this.runningSince = performance.now();
    this.lastError = null;
    this.setState('running');
  }

  /** Runs `fn` after `ms` unless the output is stopped meanwhile. */
  after(ms: number, fn: () => void): void {
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopping) fn();
    }, ms);
  }

  private onExit(proc: Supervised, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.proc !== proc) return;
    this.proc = null;
    if (this.stopping) return this.setState('stopped');
    this.lastError ??= `ffmpeg exited (${signal ?? `code ${code}`})`;
    if (this.runningSince > 0) this.backoff.resetIfStable(this.runningSince, performance.now());
    const wait = this.backoff.take();
    this.o.onLog('warn', this.o.exitMsg, { id: this.o.id, code, signal, retryInMs: wait, lastError: this.lastError });
    this.setState('retrying');
    this.after(wait, () => this.o.restart());
  }

  /** Ends the output: stdin closed so ffmpeg finishes the file or stream, SIGKILL if it does not within the grace. */
  stop(): Promise<void> {
    this.stopping = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
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
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.proc?.kill();
  }
}
