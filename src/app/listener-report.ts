// Announces each listener state: the status file `vjd status` reads, then the log line.
import type { Logger } from '../log.js';
import type { ListenerStatus } from '../http/listener.js';
import { API_PREFIX } from '../http/route.js';
import { isLoopbackHost, networkAddresses } from '../util/network.js';
import { statusFilePath, writeStatusFile } from './status-file.js';

export class ListenerReport {
  // One state at a time, so the status file always ends with the latest one.
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly runDir: () => string,
    private readonly version: string,
    private readonly log: Logger,
  ) {}

  report(s: ListenerStatus): void {
    this.chain = this.chain.then(() => this.write(s));
  }

  /** Resolves once every state reported so far is written and logged. */
  settled(): Promise<void> {
    return this.chain;
  }

  private async write(s: ListenerStatus): Promise<void> {
    const addresses = s.state === 'Server Running' ? networkAddresses(s.host, s.port, API_PREFIX) : [];
    const runDir = this.runDir();
    // The file first, then the log line: whoever reacts to the line finds the file current.
    try {
      await writeStatusFile(runDir, {
        pid: process.pid,
        version: this.version,
        state: s.state,
        reason: s.reason,
        host: s.host,
        port: s.port,
        addresses,
        updatedAt: new Date().toISOString(),
      });
    } catch (err) {
      this.log.warn({ file: statusFilePath(runDir), err: (err as Error).message }, 'could not write status file');
    }
    this.log.info({ state: s.state, reason: s.reason, host: s.host, port: s.port }, s.state);
    if (s.state === 'Server Running' && !isLoopbackHost(s.host)) {
      this.log.info({ urls: addresses.map((a) => a.url) }, 'reachable from other devices at');
    }
  }
}
