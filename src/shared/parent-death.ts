// A command prefix that makes a child process die with the thread that spawned it (PR_SET_PDEATHSIG via
// setpriv from util-linux), however that thread ends: SIGKILL included, which no exit handler can cover.
import { execFile } from 'node:child_process';

const probes = new Map<string, Promise<string[] | null>>();

/** `['setpriv', '--pdeathsig', SIG, '--']`, or null when setpriv cannot do it here (probed once per signal). */
export function parentDeathPrefix(signal: 'KILL' | 'TERM'): Promise<string[] | null> {
  let p = probes.get(signal);
  if (!p) {
    p = new Promise((resolve) => {
      execFile('setpriv', ['--pdeathsig', signal, '--', 'true'], { timeout: 5000 }, (err) =>
        resolve(err ? null : ['setpriv', '--pdeathsig', signal, '--']),
      );
    });
    probes.set(signal, p);
  }
  return p;
}
