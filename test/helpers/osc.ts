// OSC over real UDP for tests: the `osc` package's codec, a free port, a sender, and a feedback listener that keeps
// every message heard (bundles flattened).
import { createSocket, type Socket } from 'node:dgram';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
export const osc = require('osc') as {
  writePacket(p: unknown, o?: { metadata: boolean }): Uint8Array;
  readPacket(d: Uint8Array, o: { metadata: boolean }): any;
};

export type OscHeard = { address: string; args: Array<{ type: string; value: unknown }> };

/** A UDP port free on loopback now (bound, read and released). */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolve) => {
    const u = createSocket('udp4');
    u.bind(0, '127.0.0.1', () => {
      const port = u.address().port;
      u.close(() => resolve(port));
    });
  });
}

/** Every message of a packet, bundles flattened. */
export function flatten(p: any): any[] {
  return Array.isArray(p?.packets) ? p.packets.flatMap(flatten) : p?.address ? [p] : [];
}

/** A loopback socket that records every OSC message it receives into `heard`; non-OSC datagrams are ignored. */
export async function oscListener(): Promise<{ socket: Socket; port: number; heard: OscHeard[] }> {
  const socket = createSocket('udp4');
  const heard: OscHeard[] = [];
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  socket.on('message', (data) => {
    try {
      heard.push(...flatten(osc.readPacket(new Uint8Array(data), { metadata: true })));
    } catch {
      // not OSC: ignored
    }
  });
  return { socket, port: socket.address().port, heard };
}
