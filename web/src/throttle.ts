// Latest-value sender for sliders: at most one request in flight per control, and the newest value always goes last.
export function latest<T>(send: (v: T) => Promise<unknown>): (v: T) => void {
  let busy = false;
  let next: { v: T } | null = null;
  const run = async (v: T): Promise<void> => {
    busy = true;
    try {
      await send(v);
    } finally {
      busy = false;
      if (next) {
        const n = next;
        next = null;
        void run(n.v);
      }
    }
  };
  return (v: T) => {
    if (busy) next = { v };
    else void run(v);
  };
}

/** Like latest(), and sends start at least `gapMs` apart: a drag sends a few values a second, the last one always. */
export function paced<T>(send: (v: T) => Promise<unknown>, gapMs: number): (v: T) => void {
  let lastAt = -Infinity;
  return latest(async (v: T) => {
    const wait = lastAt + gapMs - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    lastAt = performance.now();
    await send(v);
  });
}
