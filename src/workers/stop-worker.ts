// Ending a worker thread the same way for every client: ask it to stop through the request envelope (so it can
// stop its children first), then terminate it whatever it answered, and resolve once the thread has exited.
import type { Worker } from 'node:worker_threads';
import type { RpcCalls, RpcEnvelope } from '../shared/rpc.js';

export async function stopWorker(worker: Worker, calls: RpcCalls, timeoutMs: number, ask: (env: RpcEnvelope) => void): Promise<void> {
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // Answered by the worker, by its exit (an error answer) or by the deadline; terminate() then ends a stuck thread.
  await calls.call(Date.now() + timeoutMs, ask);
  await worker.terminate();
  await exited;
}
