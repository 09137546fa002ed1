// Whether a process id names a running process: decides if a temp file or status file belongs to a live vjd.

/** True when `pid` runs (EPERM means it runs under another user); signal 0 only checks, it delivers nothing. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
