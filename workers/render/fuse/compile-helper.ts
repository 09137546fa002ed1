// Compiles fused shaders in a separate process before the render thread does. On Mesa, linking a fused program
// and its first draw (where llvmpipe generates machine code) cost 25-390 ms on a loaded 2-core box; Mesa keeps
// both in its on-disk shader cache, keyed by the shader, so once the helper has compiled a shader the render
// thread's own link and warm-up draw of it take a few ms (bench/results/fuse.md). Where the cache is off
// (MESA_SHADER_CACHE_DISABLE) this only costs the helper's CPU. A separate process, not a worker thread: the `gl`
// addon loads once per process.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FuseCompileReply, FuseCompileRequest } from '../../../src/shared/protocol/render.js';
import { answered, RpcCalls } from '../../../src/shared/rpc.js';

/** A request waits at most this long (a stuck or slow helper must not keep a run unfused for good). */
const REQUEST_TIMEOUT_MS = 30_000;

export class CompileHelper {
  private child: ChildProcess | null;
  private readonly calls = new RpcCalls();
  /** Requests answered by the helper (not by its exit or a timeout); for tests and the bench. */
  answered = 0;

  constructor(width: number, height: number) {
    const main = fileURLToPath(new URL('./compile-helper-main.js', import.meta.url));
    const child = fork(main, [String(width), String(height)], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    this.child = child;
    child.on('message', (m: FuseCompileReply) => {
      if (m.id === 0) return;
      this.calls.settle(m.id, m);
    });
    child.on('error', () => this.gone());
    child.on('exit', () => this.gone());
    // The helper must not keep the render worker (or a test) alive.
    child.unref();
    (child as unknown as { channel?: { unref(): void } }).channel?.unref();
  }

  /** Whether requests still go to a process. */
  get running(): boolean {
    return this.child !== null;
  }

  /**
   * Compiles `fragment` in the helper; `done` runs (on this thread's event loop) when it did, failed, timed out
   * or the helper is gone — the caller then compiles it itself, cheaply when the cache took it.
   */
  compile(fragment: string, nearest: boolean, done: () => void): void {
    const child = this.child;
    if (!child) {
      done();
      return;
    }
    void this.calls
      .call<FuseCompileReply>(Date.now() + REQUEST_TIMEOUT_MS, (env) => {
        child.send({ ...env, fragment, nearest } satisfies FuseCompileRequest, (err) => {
          if (err) this.gone();
        });
      })
      .then((r) => {
        if (answered(r)) this.answered++;
        done();
      });
  }

  stop(): void {
    const child = this.child;
    this.gone();
    child?.kill('SIGKILL');
  }

  /** The pid of the helper process (tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  private gone(): void {
    this.child = null;
    this.calls.failAll('the compile helper is gone');
  }
}
