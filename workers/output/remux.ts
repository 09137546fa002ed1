// One output's target under a shared encoder: a lightweight ffmpeg that copies the encoded stream to the output's
// URL (a stream) or to a new file (a recording). It is supervised on its own (restarted with backoff, 1 s doubling to 30 s), so a target that fails
// or stalls never interrupts the encoder or the other targets fed from it.
import { Backoff, spawnFfmpeg, type Supervised } from '../../src/shared/ffmpeg-supervisor.js';
import { redactText } from '../../src/shared/url.js';
import { basename } from 'node:path';
import type { OutputState } from '../../src/shared/protocol/output.js';
import { remuxArgs, type SharedSpec } from './shared-args.js';

const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 30_000;
const STABLE_MS = 10_000;
const STOP_GRACE_MS = 3000;
const MAX_ERROR_CHARS = 300;
/** Encoded bytes a target may hold unread; beyond it the chunk is skipped for that target alone. */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;
/** Taking encoded data this long after its start counts as up. */
const UP_AFTER_MS = 1000;

export interface RemuxDeps {
  ffmpeg: string;
  wrapper: string[];
  /** `file`: a recording's file name (each start writes a new one). */
  onState(state: OutputState, lastError: string | null, startedAt: string | null, pid: number | undefined, file: string | undefined): void;
  onLog(level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>): void;
}

export class RemuxTarget {
  restarts = 0;
  /** Chunks this target missed because it had not taken the ones before. */
  skipped = 0;
  private proc: Supervised | null = null;
  private state: OutputState = 'stopped';
  private lastError: string | null = null;
  private startedAt: string | null = null;
  private file: string | undefined;
  private spawnedAt = 0;
  private runningSince = 0;
  private stopping = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly backoff = new Backoff({ firstMs: BACKOFF_FIRST_MS, maxMs: BACKOFF_MAX_MS, stableMs: STABLE_MS });

  constructor(
    readonly id: string,
    private readonly spec: SharedSpec,
    private readonly deps: RemuxDeps,
  ) {}

  start(): void {
    this.stopping = false;
    this.spawn();
  }

  private setState(state: OutputState): void {
    this.state = state;
    this.deps.onState(state, this.lastError, this.startedAt, this.proc?.child.pid, this.file);
  }

  private clean(line: string): string {
    return redactText(line.trim(), this.spec.secrets).slice(0, MAX_ERROR_CHARS);
  }

  private spawn(): void {
    let args: string[];
    try {
      const built = remuxArgs(this.id, this.spec);
      args = built.args;
      this.file = built.file ? basename(built.file) : undefined;
    } catch (err) {
      this.lastError = (err as Error).message;
      this.setState('failed');
      return;
    }
    const proc = spawnFfmpeg(
      {
        ffmpeg: this.deps.ffmpeg,
        wrapper: this.deps.wrapper,
        args,
        stdin: 'pipe',
        stdout: 'ignore',
        stop: { ask: 'stdin', killMs: STOP_GRACE_MS },
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
    proc.child.stdin!.on('error', () => {
      // EPIPE when ffmpeg exits: the exit handler reports it.
    });
    this.proc = proc;
    this.spawnedAt = performance.now();
    this.runningSince = 0;
    this.startedAt = new Date().toISOString();
    this.setState('starting');
  }

  private onExit(proc: Supervised, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.proc !== proc) return;
    this.proc = null;
    if (this.stopping) return this.setState('stopped');
    this.lastError ??= `ffmpeg exited (${signal ?? `code ${code}`})`;
    if (this.runningSince > 0) this.backoff.resetIfStable(this.runningSince, performance.now());
    const wait = this.backoff.take();
    this.deps.onLog('warn', `${this.spec.kind} target ffmpeg exited; retrying`, {
      id: this.id,
      code,
      signal,
      retryInMs: wait,
      lastError: this.lastError,
    });
    this.setState('retrying');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.stopping) return;
      this.restarts++;
      this.spawn();
    }, wait);
  }

  /** One chunk of the encoded stream; never waits: a target that is behind skips it. */
  write(chunk: Buffer): void {
    const stdin = this.proc?.child.stdin;
    if (!stdin || stdin.destroyed) return;
    if (stdin.writableLength > MAX_QUEUED_BYTES) {
      this.skipped++;
      return;
    }
    stdin.write(chunk);
    if (this.state === 'starting' && performance.now() - this.spawnedAt >= UP_AFTER_MS) {
      this.runningSince = performance.now();
      this.lastError = null;
      this.setState('running');
    }
  }

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

  kill(): void {
    this.stopping = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.proc?.kill();
  }
}
