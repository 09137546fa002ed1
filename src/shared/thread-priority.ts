// Thread priorities: the main thread answers control surfaces, so the threads that draw and encode pictures run at
// a lower priority and yield a core to it whenever both want one; with nothing else to run they keep full speed.
// Linux only (a thread's id from /proc/thread-self; setpriority on a thread id sets that thread alone).
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Nice values (0 is the main thread's): the render worker, and the encode pool's threads (thumbnails, previews). */
export const THREAD_NICE = { render: 4, encodePool: 8 } as const;

/** Lowers the calling thread's priority to `nice`; false where the system does not allow it (then it stays as is). */
export function lowerThisThread(nice: number): boolean {
  try {
    // Read synchronously: an asynchronous read would run on a pool thread and name that one.
    const path = readlinkSync('/proc/thread-self');
    setPriority(Number(path.slice(path.lastIndexOf('/') + 1)), nice);
    return true;
  } catch {
    return false;
  }
}
