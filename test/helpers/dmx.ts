// Hand-built Art-Net ArtDmx and sACN E1.31 data packets (as a desk sends them) and a UDP sender for tests and benches.
import { createSocket, type Socket } from 'node:dgram';

/** ArtDmx of `slots` (an even count, at most a universe) on a port-address. */
export function artDmx(universe: number, slots: Uint8Array | number[], sequence = 0): Buffer {
  const data = Buffer.from(slots);
  const b = Buffer.alloc(18 + data.length);
  b.write('Art-Net\0', 0, 'latin1');
  b.writeUInt16LE(0x5000, 8);
  b.writeUInt16BE(14, 10);
  b[12] = sequence & 0xff;
  b[13] = 0;
  b.writeUInt16LE(universe & 0x7fff, 14);
  b.writeUInt16BE(data.length, 16);
  data.copy(b, 18);
  return b;
}

export interface SacnOptions {
  /** Sets the stream-terminated option. */
  terminated?: boolean;
  /** Without it each CID counts on from its last packet, as a desk does. */
  sequence?: number;
  /** The component identifier's first byte (the rest are fixed): one per desk. */
  cid?: number;
  priority?: number;
}

const sequences = new Map<number, number>();

/** E1.31 data packet as a desk sends it. */
export function sacnData(universe: number, slots: Uint8Array | number[], opts: SacnOptions = {}): Buffer {
  const cid = opts.cid ?? 1;
  const sequence = opts.sequence ?? ((sequences.get(cid) ?? -1) + 1) & 0xff;
  sequences.set(cid, sequence);
  const data = Buffer.from(slots);
  const b = Buffer.alloc(126 + data.length);
  b.writeUInt16BE(0x0010, 0);
  b.writeUInt16BE(0, 2);
  b.write('ASC-E1.17\0\0\0', 4, 'latin1');
  b.writeUInt16BE(0x7000 | (b.length - 16), 16);
  b.writeUInt32BE(4, 18);
  for (let k = 0; k < 16; k++) b[22 + k] = k + 1;
  b[22] = cid & 0xff;
  b.writeUInt16BE(0x7000 | (b.length - 38), 38);
  b.writeUInt32BE(2, 40);
  b.write('vjd test desk', 44, 'utf8');
  b[108] = opts.priority ?? 100;
  b.writeUInt16BE(0, 109);
  b[111] = sequence & 0xff;
  b[112] = opts.terminated ? 0x40 : 0;
  b.writeUInt16BE(universe, 113);
  b.writeUInt16BE(0x7000 | (b.length - 115), 115);
  b[117] = 0x02;
  b[118] = 0xa1;
  b.writeUInt16BE(0, 119);
  b.writeUInt16BE(1, 121);
  b.writeUInt16BE(data.length + 1, 123);
  b[125] = 0;
  data.copy(b, 126);
  return b;
}

export interface UdpSender {
  socket: Socket;
  send(packet: Buffer, port: number, host?: string): Promise<void>;
  close(): void;
}

/** A UDP socket bound to `bindHost` (loopback unless told), sending datagrams. */
export async function udpSender(bindHost = '127.0.0.1'): Promise<UdpSender> {
  const socket = createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, bindHost, () => r()));
  return {
    socket,
    send: (packet, port, host = '127.0.0.1') =>
      new Promise((resolve, reject) => socket.send(packet, port, host, (err) => (err ? reject(err) : resolve()))),
    close: () => socket.close(),
  };
}
