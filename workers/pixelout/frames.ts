// One tick of the sender as data: read the latest samples, refill the universes, and list the datagrams to send
// (changed or keep-alive universes, then the sync packets). Sockets stay in main.ts, so this part has no I/O.
import { artDmxPacket, artSyncPacket, sacnDataPacket, sacnSyncPacket } from '../../src/shared/pixelmap/packets.js';
import { PixelSamplesReader } from '../../src/shared/pixel-samples.js';
import type { PixelOutInit, PixelOutSettings } from '../../src/shared/protocol/pixelout.js';
import { addressOf } from './targets.js';
import { Universes, type Universe } from './universes.js';

export interface Datagram {
  packet: Buffer;
  address: string;
  port: number;
}

export class Frames {
  readonly universes: Universes;
  private readonly reader: PixelSamplesReader;
  private readonly rgba: Uint8Array;
  /** sACN sync: per destination, the universe whose sync packet releases its data (its lowest), and the sequence. */
  private readonly syncs = new Map<string, { universe: number; sequence: number }>();
  /** What to send once for the universes the last patch had and this one has not (see leaving()). */
  readonly farewell: Datagram[] = [];

  constructor(
    private readonly init: PixelOutInit,
    private readonly settings: PixelOutSettings,
    previous: Frames | null = null,
  ) {
    this.universes = new Universes(settings.fixtures, init.destinations);
    // Sequences go on across a patch change: an sACN receiver drops a packet up to 20 behind the last it took.
    // A universe that stays keeps its length, so the channels of a fixture removed from it go out as zeros.
    const before = new Map(previous?.universes.list.map((u) => [u.key, u]));
    for (const u of this.universes.list) {
      const was = before.get(u.key);
      u.sequence = was?.sequence ?? 0;
      if (was?.sent) u.length = Math.max(u.length, was.length);
    }
    if (previous) this.farewell = previous.leaving(new Set(this.universes.list.map((u) => u.key)));
    this.reader = new PixelSamplesReader(settings.samples);
    this.rgba = new Uint8Array(this.reader.capacity * 4);
    for (const u of this.universes.list) {
      if (u.protocol !== 'sacn') continue;
      const s = this.syncs.get(u.destination);
      if (!s || u.universe < s.universe) this.syncs.set(u.destination, { universe: u.universe, sequence: 0 });
    }
    for (const [dest, s] of this.syncs) s.sequence = previous?.syncs.get(dest)?.sequence ?? 0;
  }

  /** The datagrams of the tick at `now` (ms); none when nothing changed and no keep-alive is due. */
  tick(now: number): Datagram[] {
    const got = this.reader.read(this.rgba);
    // Samples of another patch (the render side has not caught up with a change) would land on the wrong fixtures.
    const fresh = got !== null && got.count === this.universes.pixels;
    const testing = this.settings.test !== 'off';
    if (fresh || testing) this.universes.fill(fresh ? this.rgba : null, this.settings.test, now);
    const due = this.universes.due(now, this.settings.keepAliveMs, fresh || testing);
    const out: Datagram[] = [];
    const synced = new Set<string>();
    for (const u of due) {
      const d = this.data(u);
      if (!d) continue;
      out.push(d);
      this.universes.markSent(u, now);
      synced.add(`${u.protocol} ${u.destination}`);
    }
    if (this.settings.sync) for (const key of synced) out.push(...this.sync(key));
    return out;
  }

  /** sACN streams end with a terminated packet (receivers drop the source at once); Art-Net has no such thing. */
  terminate(): Datagram[] {
    const out: Datagram[] = [];
    for (const u of this.universes.list) {
      if (u.protocol !== 'sacn' || !u.sent) continue;
      const d = this.data(u, true);
      if (d) out.push(d);
    }
    return out;
  }

  /**
   * The universes sent so far that are not in `keep`, darkened: zeros for Art-Net (a node holds its last levels),
   * and for sACN zeros marked terminated, three times as E1.31 asks, so receivers drop the source at once.
   */
  leaving(keep: ReadonlySet<string>): Datagram[] {
    const out: Datagram[] = [];
    for (const u of this.universes.list) {
      if (!u.sent || keep.has(u.key)) continue;
      u.data.fill(0);
      const times = u.protocol === 'sacn' ? 3 : 1;
      for (let i = 0; i < times; i++) {
        const d = this.data(u, u.protocol === 'sacn');
        if (d) out.push(d);
      }
    }
    return out;
  }

  private data(u: Universe, terminated = false): Datagram | null {
    const address = addressOf(u.protocol, u.destination, u.universe, this.init.destinations);
    if (!address) return null;
    const slots = u.data.subarray(0, u.length);
    if (u.protocol === 'artnet') {
      // Art-Net sequences run 1-255: 0 tells the node not to reorder.
      u.sequence = (u.sequence % 255) + 1;
      return { packet: artDmxPacket(u.universe, u.sequence, slots), address, port: this.init.artnetPort };
    }
    u.sequence = (u.sequence + 1) & 0xff;
    const syncUniverse = this.settings.sync ? (this.syncs.get(u.destination)?.universe ?? 0) : 0;
    const src = { cid: this.init.cid, name: this.init.sourceName };
    return { packet: sacnDataPacket(src, u.universe, u.sequence, slots, { syncUniverse, terminated }), address, port: this.init.sacnPort };
  }

  private sync(key: string): Datagram[] {
    const [protocol, destination] = key.split(' ') as ['artnet' | 'sacn', string];
    if (protocol === 'artnet') {
      const address = addressOf('artnet', destination, 0, this.init.destinations);
      return address ? [{ packet: artSyncPacket(), address, port: this.init.artnetPort }] : [];
    }
    const s = this.syncs.get(destination);
    const address = s && addressOf('sacn', destination, s.universe, this.init.destinations);
    if (!s || !address) return [];
    s.sequence = (s.sequence + 1) & 0xff;
    return [{ packet: sacnSyncPacket(this.init.cid, s.sequence, s.universe), address, port: this.init.sacnPort }];
  }
}
