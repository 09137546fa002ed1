// The part of running ffmpeg that ingest readers and outputs share: a child spawned under the parent-death prefix,
// its stderr cut into lines, one exit report per process, doubling retry delays that start over after a healthy
// run, and a stop that asks ffmpeg to end first and kills it after a grace period.
import { spawn, type ChildProcess } from 'node:child_process';

/** A partial stderr line is kept up to this many characters (a line without end is noise, not a message). */
const MAX_LINE_CHARS = 8192;

export interface BackoffRule {
  firstMs: number;
  maxMs: number;
  /** A run healthy this long starts the delays over. */
  stableMs: number;
}

/** Retry delays: the first, then doubling up to the ceiling; a healthy run starts them over. */
export class Backoff {
  private delayMs: number;

  constructor(private readonly rule: BackoffRule) {
    this.delayMs = rule.firstMs;
  }

  /** The delay the next retry will wait. */
  get nextMs(): number {
    return this.delayMs;
  }

  /** Takes the next delay; the one after is twice as long, up to the ceiling. */
  take(): number {
    const d = this.delayMs;
    this.delayMs = Math.min(d * 2, this.rule.maxMs);
    return d;
  }

  reset(): void {
    this.delayMs = this.rule.firstMs;
  }

  /** Starts the delays over when the run has been healthy since `since` for the stable time by `now` (same clock). */
  resetIfStable(since: number, now: number): void {
    if (now - since >= this.rule.stableMs) this.reset();
  }
}

/**
 * How a process is ended. `term`: SIGTERM, again after `againMs` when given (ffmpeg takes a first TERM as "stop
 * after the next packet"; only a second one interrupts a blocking read). `stdin`: its input is closed, so it
 * finishes the file or stream it writes. Either way SIGKILL once `killMs` passed since the stop began.
 */
export interface StopPlan {
  ask: 'term' | 'stdin';
  againMs?: number;
  killMs: number;
}

export interface SpawnSpec {
  ffmpeg: string;
  /** Command prefix that makes the child die with this thread (setpriv --pdeathsig), or []. */
  wrapper: string[];
  args: string[];
  stdin: 'pipe' | 'ignore';
  stdout: 'pipe' | 'ignore';
  /** A further output pipe on fd 3 (a second ffmpeg output, `pipe:3`). */
  fd3?: boolean;
  env?: NodeJS.ProcessEnv;
  stop: StopPlan;
  /** How stderr is cut into lines. */
  lineBreak?: RegExp;
}

export interface SpawnHooks {
  /** Every complete stderr line, as it arrives. */
  onLine(line: string): void;
  /** An 'error' event of the child; `started`: it has a pid (a failed signal or pipe, not a failed start). */
  onError?(err: Error, started: boolean): void;
  /** Once per process: its exit, or `spawnError` when it never started (no pid). */
  onExit(code: number | null, signal: NodeJS.Signals | null, spawnError?: string): void;
}

/** One ffmpeg process under supervision. */
export interface Supervised {
  readonly child: ChildProcess;
  /** Ends it as the plan says; resolves once it is reaped. Calling again joins the stop in progress. */
  stop(): Promise<void>;
  /** SIGKILL at once, no waiting (the thread is going away). */
  kill(): void;
}

/** Spawns `[...wrapper, ffmpeg, ...args]` and wires its stderr, exit and stop. */
export function spawnFfmpeg(spec: SpawnSpec, hooks: SpawnHooks): Supervised {
  const [cmd, ...pre] = [...spec.wrapper, spec.ffmpeg];
  const child = spawn(cmd!, [...pre, ...spec.args], {
    stdio: spec.fd3 ? [spec.stdin, spec.stdout, 'pipe', 'pipe'] : [spec.stdin, spec.stdout, 'pipe'],
    env: spec.env ?? process.env,
  });
  let reaped = false;
  let exited = false;
  const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError?: string): void => {
    if (exited) return;
    exited = true;
    hooks.onExit(code, signal, spawnError);
  };
  // Registered first: whoever awaits a stop sees the exit already reported.
  child.on('close', (code, signal) => finish(code, signal));
  const reap = new Promise<void>((resolve) =>
    child.once('close', () => {
      reaped = true;
      resolve();
    }),
  );
  let rest = '';
  const lineBreak = spec.lineBreak ?? /\r\n|\r|\n/;
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => {
    const parts = (rest + text).split(lineBreak);
    rest = parts.pop()!.slice(-MAX_LINE_CHARS);
    for (const line of parts) hooks.onLine(line);
  });
  child.on('error', (err) => {
    hooks.onError?.(err, child.pid !== undefined);
    // Without a pid the process never started: its exit is this error.
    if (child.pid === undefined) finish(null, null, `cannot start ${spec.ffmpeg}: ${err.message}`);
  });

  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  let stopping: Promise<void> | null = null;
  const timers: NodeJS.Timeout[] = [];
  void reap.then(() => timers.forEach(clearTimeout));
  const later = (ms: number, signal: NodeJS.Signals): void => {
    timers.push(
      setTimeout(() => {
        if (alive()) child.kill(signal);
      }, ms),
    );
  };
  return {
    child,
    stop(): Promise<void> {
      if (stopping) return stopping;
      stopping = reap;
      if (reaped || !alive()) return stopping;
      const plan = spec.stop;
      if (plan.ask === 'stdin') child.stdin?.end();
      else child.kill('SIGTERM');
      if (plan.ask === 'term' && plan.againMs !== undefined) later(plan.againMs, 'SIGTERM');
      later(plan.killMs, 'SIGKILL');
      return stopping;
    },
    kill(): void {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}
