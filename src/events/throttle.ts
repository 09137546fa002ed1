// A signal passed on at most once per period: the first at once, the rest of a burst as one trailing call at the
// period's end, so a burst of changes (a script scheduling hundreds of operations) costs a few topic reads, not one
// each, and the last change is never lost.

/** Wraps the hook `on(cb)` so the callbacks it registers fire at most once every `ms`. */
export function throttledSignal(on: (cb: () => void) => void, ms: number): (cb: () => void) => void {
  return (cb) => {
    let last = 0;
    let timer: NodeJS.Timeout | null = null;
    on(() => {
      if (timer) return;
      const wait = last + ms - Date.now();
      if (wait <= 0) {
        last = Date.now();
        return cb();
      }
      timer = setTimeout(() => {
        timer = null;
        last = Date.now();
        cb();
      }, wait);
      timer.unref();
    });
  };
}
