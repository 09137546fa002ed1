// What GET /dmx shows of the receiver, and the packets-per-second counter behind it.
import type { LatencyView } from '../util/latency-ring.js';
import type { SacnSourceView } from './sources.js';
import type { DmxProtocol } from './wire.js';

export interface DmxStats {
  enabled: boolean;
  listening: boolean;
  protocol: DmxProtocol;
  universe: number;
  address: number;
  host: string;
  port: number;
  packets: number;
  packetsPerSecond: number;
  frames: number;
  applied: number;
  rejected: number;
  dropped: number;
  malformed: number;
  wrongUniverse: number;
  remoteRefused: number;
  /** sACN packets behind their source's last sequence, dropped. */
  outOfSequence: number;
  /** sACN packets of a source past the tracked limit, ignored. */
  sourcesIgnored: number;
  /** sACN sources of the universe (empty for Art-Net). */
  sources: SacnSourceView[];
  lastSource: string | null;
  loss: boolean;
  lossAction: 'hold' | 'black';
  losses: number;
  /** From a frame's arrival to the reply of its last request (frames that changed something), recent frames. */
  applyMs: LatencyView;
}

/** Packets counted per whole second; the last full second's rate, or none when it is older than that. */
export class RateCounter {
  private since = 0;
  private n = 0;
  private last = 0;

  count(now = Date.now()): void {
    if (now - this.since >= 1000) {
      this.last = now - this.since < 2000 ? Math.round((this.n * 1000) / (now - this.since)) : 0;
      this.since = now;
      this.n = 0;
    }
    this.n++;
  }

  perSecond(now = Date.now()): number {
    return now - this.since > 2000 ? 0 : this.last;
  }
}
