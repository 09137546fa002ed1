// A concurrency cap for async work (probes, stats, poster extraction): a plain FIFO, no priorities.

/** Runs at most `limit` tasks at once; the rest wait in FIFO order. */
export function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  const next = (): void => {
    active--;
    waiting.shift()?.();
  };
  return <T>(task: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const run = (): void => {
        active++;
        task().then(resolve, reject).finally(next);
      };
      if (active < Math.max(1, limit)) run();
      else waiting.push(run);
    });
}
