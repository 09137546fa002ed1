// One output's target under a shared encoder: a lightweight ffmpeg that copies the encoded stream to the output's
// URL (a stream) or to a new file (a recording). It is supervised on its own (restarted with backoff, 1 s doubling to 30 s), so a target that fails
// or stalls never interrupts the encoder or the other targets fed from it.
import { basename } from 'node:path';
import type { OutputState } from '../../src/shared/protocol/output.js';
import type { LogFn } from '../../src/shared/protocol/common.js';
import { OutputProcess } from './output-process.js';
import { remuxArgs, type SharedSpec } from './shared-args.js';

/** Encoded bytes a target may hold unread; beyond it the chunk is skipped for that target alone. */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;
/** Taking encoded data this long after its start counts as up. */
const UP_AFTER_MS = 1000;

export interface RemuxDeps {
  ffmpeg: string;
  wrapper: string[];
  /** `file`: a recording's file name (each start writes a new one). */
  onState(state: OutputState, lastError: string | null, startedAt: string | null, pid: number | undefined, file: string | undefined): void;
  onLog: LogFn;
}

export class RemuxTarget {
  restarts = 0;
  /** Chunks this target missed because it had not taken the ones before. */
  skipped = 0;
  private readonly run: OutputProcess;
  private startedAt: string | null = null;
  private file: string | undefined;
  private spawnedAt = 0;

  constructor(
    readonly id: string,
    private readonly spec: SharedSpec,
    private readonly deps: RemuxDeps,
  ) {
    this.run = new OutputProcess({
      id,
      secrets: spec.secrets,
      exitMsg: `${spec.kind} target ffmpeg exited; retrying`,
      onLog: deps.onLog,
      onState: (state) => deps.onState(state, this.run.lastError, this.startedAt, this.run.proc?.child.pid, this.file),
      restart: () => {
        this.restarts++;
        this.spawn();
      },
    });
  }

  start(): void {
    this.run.stopping = false;
    this.spawn();
  }

  private spawn(): void {
    let args: string[];
    try {
      const built = remuxArgs(this.id, this.spec);
      args = built.args;
      this.file = built.file ? basename(built.file) : undefined;
    } catch (err) {
      this.run.lastError = (err as Error).message;
      this.run.setState('failed');
      return;
    }
    this.run.spawn({ ffmpeg: this.deps.ffmpeg, wrapper: this.deps.wrapper, args, stdout: 'ignore' });
    this.spawnedAt = performance.now();
    this.startedAt = new Date().toISOString();
    this.run.setState('starting');
  }

  /** One chunk of the encoded stream; never waits: a target that is behind skips it. */
  write(chunk: Buffer): void {
    const stdin = this.run.proc?.child.stdin;
    if (!stdin || stdin.destroyed) return;
    if (stdin.writableLength > MAX_QUEUED_BYTES) {
      this.skipped++;
      return;
    }
    stdin.write(chunk);
    if (this.run.state === 'starting' && performance.now() - this.spawnedAt >= UP_AFTER_MS) this.run.up();
  }

  stop(): Promise<void> {
    return this.run.stop();
  }

  kill(): void {
    this.run.kill();
  }
}
