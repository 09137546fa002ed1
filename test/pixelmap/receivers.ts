// Loopback Art-Net and sACN receivers for the sender test: every datagram kept with its arrival time, data packets
// read with vjd's own strict readers (src/dmx/wire.ts), so a packet they refuse shows up as unread.
import { createSocket, type Socket } from 'node:dgram';
import { readArtDmx, readSacn, type DmxProtocol } from '../../src/dmx/wire.js';

export interface Received {
  at: number;
  raw: Buffer;
  /** The data packet's universe and slots; null for anything else (sync packets). */
  universe: number | null;
  slots: number[] | null;
}

export class Receiver {
  readonly got: Received[] = [];
  private constructor(
    private readonly socket: Socket,
    readonly port: number,
  ) {}

  /** Binds `host` (a loopback address) on `port`, 0 for any free one. */
  static open(protocol: DmxProtocol, host: string, port = 0): Promise<Receiver> {
    const socket = createSocket('udp4');
    return new Promise((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, host, () => {
        socket.off('error', reject);
        const r = new Receiver(socket, socket.address().port);
        socket.on('message', (raw) => {
          const read = protocol === 'artnet' ? readArtDmx(raw) : readSacn(raw);
          const frame = read.ok ? read.frame : null;
          r.got.push({ at: Date.now(), raw, universe: frame?.universe ?? null, slots: frame ? [...frame.slots] : null });
        });
        resolve(r);
      });
    });
  }

  /** Data packets of `universe`, oldest first. */
  data(universe: number): Received[] {
    return this.got.filter((g) => g.universe === universe);
  }

  last(universe: number): number[] | null {
    const d = this.data(universe);
    return d.length ? d[d.length - 1]!.slots : null;
  }

  clear(): void {
    this.got.length = 0;
  }

  close(): void {
    this.socket.close();
  }
}

/** Polls `ok` every 20 ms until it holds or `ms` pass; whether it held. */
export async function until(ok: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
